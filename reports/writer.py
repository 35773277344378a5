"""The one writer of every file the project writes: checked before the work, replaced whole.

Every output of every command (``--output``, ``--export``, ``--plot``, ``pram example``'s file,
the files of ``pram report``) goes through here, so that a command added later cannot get it
wrong:

- :func:`check_output`, before any work: the name ends as the command requires (in any case;
  the name is kept exactly as given, numpy never adds a suffix), it is not, and does not link
  to, an input of the same command (same path, a symlink to it, a hard link) or a file of another
  kind (a symlink ``out.npy`` to a module ``m.py`` is refused), an existing
  output is a regular file (a FIFO or a device is refused, never opened), and its folder
  exists and may be written;
- :func:`write`: the bytes go to a temporary file in the output's own folder (so on the same
  file system), are flushed to the disk (``fsync``) and renamed into place in one step; on any
  failure (a full disk, an interrupt) the temporary file goes and the previous file stays whole.
  A full disk is refused naming the file;
- :func:`save_array`, :func:`save_arrays`, :func:`save_text`, :func:`save_figure`: the
  formats written, all through :func:`write`;
- :func:`check_input`: an input that is not a regular file (a FIFO, a directory, a device) is
  refused before it is opened, so reading never hangs or runs for ever.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from pram import InputError

# numpy as it was when pram was imported: a user's module that rebinds np.save (or breaks it,
# np.save = None) changes neither what is written nor whether the write works
from pram._numpy import np

#: The errors of a full disk (or of a quota reached): named as such, never "give a path".
FULL = (errno.ENOSPC, errno.EDQUOT)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input(path: str, flag: str, what: str) -> None:
    """Refuse ``path`` unless it is an existing regular file (a symlink to one is fine), before
    anything opens it: a FIFO would block, a device never end."""
    if path == "":
        raise InputError(f"{flag} '' is an empty path; give the path of {what}")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"{flag} {path!r} does not exist; give the path of {what}") from None
    if not stat.S_ISREG(mode):
        raise InputError(f"{flag} {path!r} is {_kind(mode)}; give the path of {what}")


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether ``a`` is ``b``: the same path once links are followed, or the same file."""
    a, b = Path(a), Path(b)
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError):
        return False


def refuse_onto_inputs(path: str, flag: str, inputs: Iterable[tuple[str, str | None]]) -> None:
    """Refuse the output ``path`` when it is, or links to, one of ``inputs`` (flag, path)."""
    for other, given in inputs:
        if given and same_file(path, given):
            raise InputError(
                f"{flag} {path!r} is the file given as {other} {given!r}; writing there would "
                f"overwrite your data, so give {flag} another name"
            )


def check_output(
    path: str, flag: str, suffixes: tuple[str, ...],
    inputs: Iterable[tuple[str, str | None]] = (),
) -> Path:
    """``path`` checked before the work: its suffix, not an input, a regular file if it exists,
    its folder existing and writable. Returns it, exactly as given."""
    if path == "" or path.endswith(os.sep):
        raise InputError(f"{flag} {path!r} is not a file name; give one, e.g. "
                         f"{flag} out{suffixes[0]}")
    file = Path(path)
    if file.suffix.lower() not in suffixes:
        raise InputError(
            f"{flag} {path!r} must end in {' or '.join(suffixes)}; rename it, e.g. "
            f"{file.with_suffix(suffixes[0]).name!r}"
        )
    refuse_onto_inputs(path, flag, inputs)
    target = Path(os.path.realpath(file))
    if target.suffix.lower() not in suffixes:  # a symlink to a file of another kind
        raise InputError(
            f"{flag} {path!r} is a link to {str(target)!r}, which is not a "
            f"{' or '.join(suffixes)} file; writing there would overwrite it, so give {flag} "
            "the path of a regular file or a new name"
        )
    if target != Path(os.path.abspath(file)) and not target.parent.is_dir():  # a dangling link
        raise InputError(
            f"{flag} {path!r} is a link to {str(target)!r}, whose directory does not exist; "
            "create it first, or give another path"
        )
    folder = file.parent
    if not folder.exists():
        raise InputError(
            f"{flag} {path!r}: directory {str(folder)!r} does not exist; create it first"
        )
    if not folder.is_dir():
        raise InputError(f"{flag} {path!r}: {str(folder)!r} is not a directory; fix the path")
    try:
        mode: int | None = os.stat(file).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise InputError(
            f"{flag} {path!r} cannot be used ({error.strerror or error}); give another path"
        ) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise InputError(f"{flag} {path!r} is {_kind(mode)}; give the name of a regular file")
    problem = unwritable(Path(os.path.realpath(file)).parent) or (
        unwritable(file) if mode is not None else None)
    if problem:
        raise InputError(
            f"{flag} {path!r} cannot be written ({problem}); give a path in a folder you can "
            "write"
        )
    return file


def unwritable(path: Path) -> str | None:
    """Why ``path`` (a folder, or an existing file) cannot be written, or None: found by
    trying (a scratch file in the folder, an append-open of the file), which also holds for
    root and for read-only file systems."""
    try:
        if path.is_dir():
            with tempfile.NamedTemporaryFile(dir=path, prefix=".pram-probe-"):
                pass
        else:
            with path.open("ab"):
                pass
    except OSError as error:
        return error.strerror or type(error).__name__
    return None


def full_disk(path: str | Path, flag: str | None, what: str = "the previous file") -> InputError:
    """The refusal of a write the disk had no room for, naming the file."""
    named = f"{flag} {str(path)!r}" if flag else repr(str(path))
    return InputError(
        f"{named} could not be written: the disk is full (no space left on device); {what} is "
        "unchanged; free space or give a path on another disk"
    )


def too_large(path: str | Path, flag: str | None) -> InputError:
    """The refusal of a write past the largest file the process may write, naming the file."""
    named = f"{flag} {str(path)!r}" if flag else repr(str(path))
    return InputError(
        f"{named} could not be written: it is larger than the largest file this process may "
        "write (a file-size limit, ulimit -f, or the file system's own); the previous file is "
        "unchanged; raise the limit, or give a path on a file system that takes it"
    )


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _limit_reached(size: int) -> bool:
    """Whether a file-size limit (``ulimit -f``) stops a file at ``size`` bytes."""
    try:
        import resource
    except ImportError:  # (not a POSIX system: no such limit)
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return soft != resource.RLIM_INFINITY and size >= soft


def write(path: str | Path, produce: Callable[[IO[bytes]], Any], flag: str | None = None) -> Path:
    """Write ``path`` whole or not at all: ``produce`` writes the bytes into a temporary file in
    the same folder, which is synced and renamed onto ``path`` (a symlink is followed, so the
    file it points to is replaced). On any failure the temporary file is removed and an
    existing ``path`` keeps its content. Returns ``path``."""
    target = Path(os.path.realpath(path))
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{_stem(target.name)}.",
                                         suffix=".partial")
    try:
        with os.fdopen(handle, "wb") as file:
            produce(file)
            file.flush()
            os.fsync(file.fileno())
        _permissions(temporary, target)
        os.replace(temporary, target)
        _sync_folder(target.parent)
    except OSError as error:
        reached = _size(temporary)
        _remove(temporary)
        short = error.errno is None and "written" in str(error)  # numpy's short write
        if error.errno == errno.EFBIG or (short and _limit_reached(reached)):
            raise too_large(path, flag) from None
        if error.errno in FULL or short:
            raise full_disk(path, flag) from None  # a short write, past any limit: the disk
        raise
    except BaseException:
        _remove(temporary)
        raise
    return Path(path)


#: The most bytes of the name a temporary file repeats: with the dot, the random part and
#: ``.partial`` (18 bytes) it stays within the 255 bytes a file name may have, so any name the
#: file system takes can be written.
STEM = 200


def _stem(name: str) -> str:
    """``name``, cut to :data:`STEM` bytes for a temporary file's name (bytes that are not UTF-8
    kept as they came, as surrogates)."""
    # surrogateescape: a name the file system gave as bytes that are not UTF-8 ('x\udcff')
    return os.fsdecode(os.fsencode(name)[:STEM]) if len(os.fsencode(name)) > STEM else name


def _permissions(temporary: str, target: Path) -> None:
    """Give the new file the mode the old one had, else the one a new file gets (umask)."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _remove(temporary: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temporary)


def save_array(path: str | Path, array: Any, flag: str | None = None) -> Path:
    """``array`` as a ``.npy`` at exactly ``path`` (numpy adds no suffix to an open file)."""
    return write(path, lambda file: np.save(file, array), flag)


def save_arrays(path: str | Path, flag: str | None = None, **arrays: Any) -> Path:
    """``arrays`` as an ``.npz`` at exactly ``path``."""
    return write(path, lambda file: np.savez(file, **arrays), flag)


def save_text(path: str | Path, text: str, flag: str | None = None) -> Path:
    """``text`` in UTF-8 at ``path``."""
    return write(path, lambda file: file.write(text.encode("utf-8")), flag)


def save_figure(path: str | Path, figure: Any, flag: str | None = None) -> Path:
    """A matplotlib figure at ``path``, PNG or SVG by its suffix (in any case)."""
    kind = Path(path).suffix.lower().lstrip(".") or "png"
    return write(path, lambda file: figure.savefig(file, format=kind, dpi=100), flag)


# ---- a folder of files: pram report ------------------------------------------------------------

#: The prefix of the temporary folder a report is written into, inside the report's folder.
PARTIAL = ".pram-partial-"


def partial_folder(out: Path) -> Path:
    """A fresh temporary folder inside ``out`` (on ``out``'s own file system, so the files
    move into place by rename even when ``out`` is a mount point); the partial folders an
    earlier, interrupted report left there (or beside ``out``, where they used to go) are
    removed first."""
    import shutil

    out.mkdir(parents=True, exist_ok=True)
    stale = [*out.glob(f"{PARTIAL}*")]
    with contextlib.suppress(OSError):
        stale += out.resolve().parent.glob(f".{out.resolve().name}-partial-*")
    for folder in stale:
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=PARTIAL, dir=out))


def sync(path: Path) -> None:
    """Flush the written file ``path`` to the disk."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
