"""Instances drawn apart: a declaration's ``build`` and ``load`` run in a forked child process.

A declared program runs on the machine and gets its inputs only as the arrays the framework
put there. A ``build`` that kept its instance in a module global (``STASH["v"] = values``)
handed the program a host copy past the machine, which it then wrote sorted in one step. So
the framework calls ``build`` and ``load`` in a child process (``os.fork``): whatever they
leave in the module's globals stays there, and only what they return (the input arrays, or
the error they raised) comes back, pickled through a pipe. The instances are the same, bit
for bit: the child is a copy of this process, the numpy ``Generator`` is sent in its state.

:func:`drawn` is the one call: ``drawn(function, *arguments, what=..., fix=...)`` runs
``function(*arguments)`` in a child. Inside :func:`drawing` (what a command or a sweep opens
around its instances) a child serves every call of one function, forked at its first, so a
command that draws a thousand instances forks once; outside, each call forks its own. What
the child prints through ``sys.stdout`` and ``sys.stderr`` is written here, where the caller
looks for it; an error it raised is raised here (its traceback in a note); a child that died
(``os._exit``, a crash) is one line naming ``what`` and ``fix``. Ctrl-C is this process's
(the child ignores it, and is killed when a call is interrupted). The child never runs this
process's exit handlers nor flushes its buffers again: they are flushed before the fork, and
the child leaves with ``os._exit``. The cost: a fork (about 2 ms) per command, and the
arrays' bytes once through the pipe (about 5 ms for 10^6 words). The project's own catalogue
(the entries of ``pram report``) draws through its families, not through a declaration, and
draws in place. Where ``os.fork`` does not exist (Windows) the calls run in place.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
import struct
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from pram._numpy import np
from pram.errors import HonestyError, InputError, said

#: ``os._exit`` as it was when pram was imported: a user's code may replace the attribute (the
#: command line does, around user code), and the child must still end.
_EXIT = os._exit

#: Whether this process is a drawing child (its calls of :func:`drawn` run in place).
_APART = False

#: The file descriptors of every child's pipes in this process, closed in each new child.
_OPEN: set[int] = set()

#: The end of the pipe: what :func:`_receive` gives when the other side has closed it.
_CLOSED = object()


def _send(fd: int, value: Any) -> None:
    """``value`` pickled down the pipe ``fd``: its arrays' data out of band, as they are (no
    copy into the pickle: an instance of 10^6 words is 8 MB written once)."""
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    parts = [memoryview(data), *(b.raw() for b in buffers)]
    head = struct.pack(f"<{len(parts) + 1}Q", len(parts), *(p.nbytes for p in parts))
    for part in (memoryview(head), *parts):
        while part.nbytes:
            part = part[os.write(fd, part):]


def _receive(fd: int) -> Any:
    """The value :func:`_send` sent (its arrays on the bytes read, not copied again), or
    :data:`_CLOSED`."""
    count = _exactly(fd, 8)
    if count is None:
        return _CLOSED
    sizes = _exactly(fd, 8 * int.from_bytes(count, "little"))
    parts = [] if sizes is None else [_exactly(fd, size) for size in
                                      struct.unpack(f"<{len(sizes) // 8}Q", sizes)]
    if not parts or any(part is None for part in parts):
        return _CLOSED
    return pickle.loads(parts[0], buffers=parts[1:])  # type: ignore[arg-type]


def _exactly(fd: int, count: int) -> bytearray | None:
    """``count`` bytes read from ``fd``, or None if it closed first."""
    buffer = bytearray(count)
    view, got = memoryview(buffer), 0
    while got < count:
        read = os.readv(fd, [view[got:]])
        if read == 0:
            return None
        got += read
    return buffer


def _canonical(value: Any) -> Any:
    """``value`` (arrays, or dicts, lists and tuples of them) with every numeric array's
    dtype numpy's own object again: an unpickled array has an equal dtype that is another
    object, which the machine's checks of ``dtype is WORD`` would take for a foreign one."""
    if type(value) is np.ndarray and value.dtype.kind in "biufc" and value.dtype.isnative:
        # numbers only: a string's dtype by its char alone is of width 0 ('U'), and the
        # checks of the inputs name a string array for what it is
        return value.view(np.dtype(value.dtype.char))
    if type(value) is dict:
        return {key: _canonical(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_canonical(item) for item in value)
    return value


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]


#: The input files (real paths) of the declaration this process runs: only the children
#: forked to draw read them (its load, the size guard's look at their headers); the process
#: that imports the declaration's module and runs its program never opens them.
_KEPT: set[str] = set()
_WATCHING: list[bool] = []


#: What a declaration's own code is running now, innermost last: ``"program"`` while its
#: program runs (:func:`sealed`), ``"drawing"`` while a child runs its ``build``, ``load`` or
#: ``reference``. A program's data come from the machine, so while it runs the process reads
#: no file but Python's own, writes none but Python's bytecode cache, and starts no process;
#: and a child writes no Python file (which the program could import). A ``reference`` that
#: saved the sorted input for the next command's program to load (a sort in one step, an
#: outside battery) is refused where the program loads it.
_SEALED: list[str] = []

#: The audit events that start another process (it could read or write what this one may not).
_SPAWNS = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                     "os.fork", "os.forkpty", "pty.spawn"})

#: Python's own files: sources, bytecode and extensions (an import, a warning's line of
#: source), the only files a program may read while it runs.
_PYTHONS = (".py", ".pyc", ".so", ".pyd")

_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


@contextlib.contextmanager
def sealed(what: str = "program") -> Iterator[None]:
    """While the block runs, a declaration's ``what`` runs (see :data:`_SEALED`)."""
    _watch()
    _SEALED.append(what)
    try:
        yield
    finally:
        _SEALED.pop()


def _watch() -> None:
    if not _WATCHING:
        sys.addaudithook(_audit)  # for the process's life; it looks only while asked to
        _WATCHING.append(True)


def _refuse_sealed(event: str, args: tuple[Any, ...]) -> None:
    program = _SEALED[-1] == "program"
    if event in _SPAWNS and program:
        raise HonestyError(
            f"starting a process ({event}) while a declaration's program runs: its inputs "
            "are the machine's arrays; compute the answer with machine steps from them")
    if event != "open" or not args or not isinstance(args[0], (str, bytes)):
        return
    path = os.fsdecode(args[0])
    mode, flags = (*args, None, 0)[1:3]
    writes = (any(c in mode for c in "wax+") if isinstance(mode, str)
              else bool((flags or 0) & _WRITES))
    cache = "__pycache__" in path.split(os.sep)
    if writes and not cache and (program or path.endswith(_PYTHONS)):
        raise HonestyError(
            f"writing {path!r} while a declaration's "
            f"{'program' if program else 'build, load or reference'} runs: a file its "
            "program could read or import hands it data past the machine; return what it "
            "computes instead")
    if not writes and program and not path.endswith(_PYTHONS):
        raise HonestyError(
            f"reading {path!r} while a declaration's program runs: its inputs are the "
            "machine's arrays; compute the answer with machine steps from them")


def keep_inputs(path: str) -> None:
    """From now on this process may not open ``path`` (a declaration's ``--input``): the
    framework reads it in a child through the declaration's load and hands the program the
    machine's arrays, so a module or program that opened it on the host (``np.load`` of the
    file) would have an answer no step computed. (Where processes cannot fork, the load runs
    here and nothing is kept.)"""
    if not hasattr(os, "fork"):
        return
    _watch()
    _KEPT.add(os.path.realpath(path))


def kept(path: str) -> bool:
    """Whether ``path`` is one of the inputs this process may not open (:func:`keep_inputs`)."""
    return bool(_KEPT) and os.path.realpath(path) in _KEPT


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "open" or not _KEPT or not args or not isinstance(args[0], (str, bytes)):
        if _SEALED:
            _refuse_sealed(event, args)
        return
    paths = _KEPT.copy()
    _KEPT.clear()  # realpath's own calls must not come back here
    try:
        opened = os.path.realpath(os.fsdecode(args[0]))
    finally:
        _KEPT.update(paths)
    if opened in paths:
        raise HonestyError(
            f"opening {os.fsdecode(args[0])!r}, the declaration's --input, in the process "
            "that runs its module: the framework reads it through the declaration's load and "
            "hands the program the machine's arrays; compute the answer with machine steps "
            "from them")
    if _SEALED:
        _refuse_sealed(event, args)


class _Child:
    """A forked child that runs ``function`` on the arguments sent to it, until closed."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.lock = threading.Lock()
        _flush()
        down, up = os.pipe(), os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: serve until the parent closes its end, then leave
            status = 0
            try:
                _KEPT.clear()  # a child of the framework's: it reads the inputs
                os.close(down[1])
                os.close(up[0])
                for fd in _OPEN:
                    with contextlib.suppress(OSError):
                        os.close(fd)
                _serve(function, down[0], up[1])
            except BaseException:  # nothing of the parent's may run here
                status = 1
            finally:
                _EXIT(status)
        os.close(down[0])
        os.close(up[1])
        self.pid, self.out, self.back = pid, down[1], up[0]
        #: Whether the child has ended (killed after an interrupted call, or dead): a session
        #: forks another for the next call.
        self.closed = False
        _OPEN.update((self.out, self.back))

    def __call__(self, arguments: tuple[Any, ...], what: str, fix: str) -> Any:
        with self.lock:
            try:
                _send(self.out, arguments)
                reply = _receive(self.back)
            except BrokenPipeError:  # the child has gone
                reply = _CLOSED
            except BaseException:  # Ctrl-C: the child serves no more calls
                self.close()
                raise
        if reply is _CLOSED:
            status = self.close(kill=False)
            raise InputError(f"{what} ended the process that draws the instances ({status}) "
                             f"instead of returning; {fix}")
        ok, value, printed = reply
        for error, text in printed:  # in the order it was printed
            stream = sys.stderr if error else sys.stdout
            stream.write(text)
            stream.flush()
        if not ok:
            raise value
        return _canonical(value)

    def close(self, kill: bool = True) -> str:
        """End the child (killed if it still runs, unless ``kill`` is False: it has ended)
        and reap it: how it ended, in words."""
        if self.closed:
            return "ended"
        self.closed = True
        for fd in (self.out, self.back):
            _OPEN.discard(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
        if kill:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return "ended"
        if os.WIFSIGNALED(status):
            return f"killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
        return f"exit status {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else "ended"


def _serve(function: Callable[..., Any], source: int, sink: int) -> None:
    """The child's loop: each message is the arguments of one call; each reply what it
    returned or raised, with what it printed."""
    global _APART
    _APART = True
    with contextlib.suppress(ValueError, OSError):  # (not the main thread: left as they are)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()
    for name in ("__stdout__", "__stderr__"):  # fresh objects: a thread of the parent may
        stream = getattr(sys, name)  # have held the old ones' locks when it forked
        with contextlib.suppress(Exception):
            setattr(sys, name, io.TextIOWrapper(
                io.FileIO(stream.fileno(), "w", closefd=False), encoding=stream.encoding,
                errors=stream.errors, line_buffering=True, write_through=True))
    while (arguments := _receive(source)) is not _CLOSED:
        printed: list[tuple[bool, str]] = []
        kept = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Printed(printed, False), _Printed(printed, True)
        try:
            with sealed("drawing"):
                reply: tuple[Any, ...] = (True, function(*arguments))
        except BaseException as error:  # raised again in the parent
            reply = (False, _portable(error))
        finally:
            sys.stdout, sys.stderr = kept
        try:
            _send(sink, (*reply, printed))
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            _send(sink, (False, _portable(error), printed))  # what it returned cannot travel


class _Printed(io.TextIOBase):
    """The child's ``sys.stdout`` (or, ``error``, ``sys.stderr``) during a call: what is
    written, kept in order with the other's, for the parent to write."""

    def __init__(self, printed: list[tuple[bool, str]], error: bool) -> None:
        self.printed, self.error = printed, error

    def write(self, text: str) -> int:
        self.printed.append((self.error, text))
        return len(text)

    def writable(self) -> bool:
        return True


#: The note on every error the child sends back, before its traceback there.
APART = "(raised in the process that draws the instances)"


def _portable(error: BaseException) -> BaseException:
    """``error`` as it can travel to the parent: itself when it pickles (with the child's
    traceback in a note), else an :class:`InputError` of its type and first line."""
    text = "".join(traceback.format_exception(error)).rstrip()
    try:
        error.add_note(f"{APART}\n{text}")
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # any error of the error's own: send its words
        sent = InputError(f"{type(error).__name__}: {said(error)}")
        sent.add_note(APART)
        return sent


def of_the_drawing(error: BaseException) -> bool:
    """Whether ``error`` is the drawing's own: raised by the function in the child, or the
    child's end instead of a reply (an :class:`InputError`); not one that interrupted the
    parent's wait (a signal handler of the user's, Ctrl-C), which is the command's."""
    return isinstance(error, InputError) or any(
        note.startswith(APART) for note in getattr(error, "__notes__", ()))


def _die_with_parent() -> None:
    """Ask the kernel to end the child when its parent ends (Linux; elsewhere the child ends
    at its next read of the closed pipe)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            _EXIT(0)


class _Session:
    """The children of one :func:`drawing` block, one per function, in the process that
    opened it."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.children: dict[tuple[int, Any], _Child] = {}


_SESSION: _Session | None = None


@contextlib.contextmanager
def drawing() -> Iterator[None]:
    """Inside the block, each function :func:`drawn` calls runs in one child (forked at its
    first call), ended when the block ends: what a command draws costs one fork. A block
    inside another is the outer one's. The inputs kept from the process
    (:func:`keep_inputs`) are its command's: the outer block's end lets them go."""
    global _SESSION
    if _SESSION is not None and _SESSION.pid == os.getpid():
        yield
        return
    outer, _SESSION = _SESSION, _Session()
    try:
        yield
    finally:
        session, _SESSION = _SESSION, outer
        for child in session.children.values():
            child.close()
        _KEPT.clear()


def _key(function: Callable[..., Any]) -> tuple[int, Any]:
    """One key for every call of ``function`` (a bound method is made afresh at each access:
    its object and function are the same)."""
    owner = getattr(function, "__self__", None)
    return (id(owner), getattr(function, "__func__", function))


def drawn(function: Callable[..., Any], *arguments: Any, what: str, fix: str) -> Any:
    """``function(*arguments)`` run in a child process: what it returned, or what it raised
    raised here; ``what`` and ``fix`` name it if the child dies instead."""
    if _APART or not hasattr(os, "fork"):
        return function(*arguments)
    session = _SESSION if _SESSION is not None and _SESSION.pid == os.getpid() else None
    if session is None:
        child = _Child(function)
        try:
            return child(arguments, what, fix)
        finally:
            child.close()
    key = _key(function)
    kept = session.children.get(key)
    if kept is None or kept.closed:
        kept = session.children[key] = _Child(function)
    return kept(arguments, what, fix)


__all__ = ["APART", "drawing", "drawn", "keep_inputs", "kept", "of_the_drawing", "sealed"]
