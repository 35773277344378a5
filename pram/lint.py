"""The static check behind ``pram lint PATH...``: what run time cannot stop, read in the source.

A running program meets the registers' allow-list, the run token and the sealed memory and
ledger (:mod:`pram.registers`). Python itself, though, lets code reach under any object:
private attributes, ``object.__getattribute__``, the garbage collector, ``ctypes``, frames and
trace hooks, or rebinding pram's own functions. No run-time guard can stop all of that, so this
check reads a program's source (never runs it) and names every such use with file and line:

- private attribute access (``x._values``, ``getattr(x, "_cells")``,
  ``operator.attrgetter("_values")``) on anything but ``self`` and ``cls``, ``__init__`` of
  anything but ``self`` and ``super()`` (an object made again), ``sys.modules``, and the
  dunders that reach under an object (``__dict__``, ``__getattribute__``, ``__setattr__``,
  ``__class__``, ``__closure__``, frames' ``f_locals``);
- imports of ``gc``, ``ctypes``, ``inspect``, ``tracemalloc``, ``sys._getframe``, ``sys.settrace``,
  ``sys.setprofile``, ``threading.settrace``, ``builtins``, ``importlib``, ``pkgutil``,
  ``pydoc`` and ``unittest`` (``mock``), and strings naming a part of pram by its path
  (``"pram.engine.core:_raw_of"``: what they, and pytest's ``monkeypatch``, take); calls of
  ``exec``, ``eval``, ``compile``, ``__import__``, ``vars``, ``globals``, ``locals`` and
  ``sys.getsizeof``; calls of ``m.execute``, which drive steps outside a run (no register
  sealed);
- monkey-patching pram: assigning or deleting an attribute or an item of anything imported
  from pram or bound to a part of it (``M = pram.MODELS["erew"]; M.checks_reads = False``),
  ``setattr`` on it, and ``flags.writeable = True`` / ``setflags`` (ids made writable);
  likewise of numpy (``np.take = ...``, ``numpy.where = ...``, ``setattr(np, ...)``), whose
  callables the machine hands raw values to (it binds its own when pram is imported, and a
  program that rebinds numpy's means to reach them);
- format strings whose fields name private attributes (``"{0._values}".format(x)``,
  ``"{x.__class__}"``, a field name given to ``string.Formatter().get_field``): the
  formatter reads the attribute as ``getattr`` would, out of the source reader's sight;
- the machine's own accessors of raw values and cells (``raw_of``, ``cells_of``, ``put_cells``,
  ...), imported from any module of pram or reached as an attribute;
- ``getattr``, ``setattr`` and ``delattr`` used as values (``f = getattr``,
  ``map(getattr, xs, names)``): their attribute names are then not in the source; likewise
  ``eval``, ``exec``, ``compile`` and ``__import__`` as values (``run = eval``), and
  ``getattr(sys, "setprofile")`` with a hook's name;
- what another process can share with the program's (the child that draws a declaration's
  instances is forked from the command's): ``mmap``, ``multiprocessing``, ``os.pipe`` and
  the like, and strings naming ``/proc/`` (the process's own command line and memory).

>>> findings("x, = yield Step(pid)\\nprint(x._values)\\n", "p.py")
['p.py:2: private attribute ._values']
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pram import _held

#: Modules a program may not import at all: each reaches under objects or the interpreter,
#: or shares memory or a channel with another process (the one that draws a declaration's
#: instances is forked from the command's: ``mmap``, ``multiprocessing``).
MODULES = frozenset({"gc", "ctypes", "inspect", "builtins", "importlib", "_ctypes", "sysconfig",
                     "tracemalloc", "mmap", "multiprocessing", "_posixshmem", "_multiprocessing",
                     "pkgutil", "pydoc", "unittest"})

#: A string naming an attribute of a module of pram by its path (``"pram.engine.core:_raw_of"``,
#: ``"pram.engine.refusals.MAX_ACCESSES"``): what ``pkgutil.resolve_name``, ``pydoc.locate``,
#: ``mock.patch`` and pytest's ``monkeypatch`` take, to reach or rebind it out of sight.
PRAM_PATH = re.compile(r"^pram(\.\w+)+[.:]\w+$")

#: The methods that patch an object's attribute or item (pytest's ``monkeypatch``,
#: ``mock.patch.object``): on a part of pram, monkey-patching it.
PATCHES = frozenset({"setattr", "delattr", "setitem", "delitem", "object"})

#: Calls that open a channel another process can write (``os.pipe``, a shared memory file).
CHANNELS = frozenset({"pipe", "pipe2", "mkfifo", "memfd_create", "socketpair"})

#: Names a program may not take from a module (``sys._getframe`` and the like).
FROM = frozenset({
    ("sys", "_getframe"), ("sys", "settrace"), ("sys", "setprofile"), ("sys", "modules"),
    ("threading", "settrace"), ("threading", "setprofile"), ("sys", "_current_frames"),
    ("os", "fork"), ("os", "forkpty"), ("os", "register_at_fork"),
})

#: Attributes that reach under an object, a function or a frame.
DUNDERS = frozenset({
    "__dict__", "__getattribute__", "__setattr__", "__delattr__", "__class__", "__closure__",
    "__code__", "__globals__", "__builtins__", "__subclasses__", "__bases__", "__mro__",
    "__self__", "__func__", "__wrapped__", "__reduce__", "__reduce_ex__", "__getstate__",
    "__setstate__", "__slots__", "__init_subclass__", "__array_interface__",
    "__array_struct__", "f_locals", "f_globals", "f_back", "f_code", "tb_frame", "gi_frame",
    "cr_frame", "ag_frame", "gi_code",
})

#: Calls that run code the check cannot read, or hand out namespaces.
CALLS = frozenset({"exec", "eval", "compile", "__import__", "vars", "globals", "locals"})

#: Records one finding: the node, and what it does.
_Flag = Callable[[ast.AST, str], None]

#: Attribute names whose call from a module reaches the interpreter (or copies it: a child
#: of ``os.fork`` mid-run can end the run there, where its registers become output).
HOOKS = frozenset({"_getframe", "settrace", "setprofile", "_current_frames", "setflags",
                   "getsizeof", "fork", "forkpty", "register_at_fork"})

#: Machine methods that drive steps outside :meth:`pram.Machine.run`, where no run token
#: seals the registers: a program driven by hand through them escapes every guard.
DRIVERS = frozenset({"execute"})


#: Builtins that take an attribute name as a string: used as a value (not called where the
#: source shows the name), the names they are given are computed out of sight.
ATTRIBUTE_BUILTINS = frozenset({"getattr", "setattr", "delattr"})

#: Calls whose first argument is a format field name (``"0._values"``), read as a format
#: string's field is.
FIELD_CALLS = frozenset({"get_field"})


def imports(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str | None, str]]:
    """What an import statement takes, one name at a time: its top-level module, the name
    taken from it (None for a plain ``import``) and the import as written."""
    if isinstance(node, ast.Import):
        return [(alias.name.split(".")[0], None, f"import {alias.name}") for alias in node.names]
    module = (node.module or "").split(".")[0]
    return [(module, alias.name, f"from {node.module} import {alias.name}")
            for alias in node.names]


def _imported(tree: ast.AST, package: str) -> set[str]:
    """The names ``tree`` binds to ``package`` or to anything imported from it."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == package:
                    names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package:
            for alias in node.names:
                names.add(alias.asname or alias.name)
    return names


def _aliases(tree: ast.AST, names: set[str]) -> set[str]:
    """``names`` and every name bound to a part of what they name (``M = pram.MODELS["erew"]``,
    ``models = pram.MODELS``), so that patching through the alias is read as patching pram;
    a call's result (``m = pram.Machine()``) is a new object, not a part."""
    bound = [(node.targets, node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Assign)]
    bound += [([node.target], node.value) for node in ast.walk(tree)
              if isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None]
    found = set(names)
    grown = True
    while grown:
        grown = False
        for targets, value in bound:
            if _roots_in(value, found):
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in found:
                            found.add(name.id)
                            grown = True
    return found


def findings(source: str | bytes, filename: str = "<source>") -> list[str]:
    """Every use in ``source`` that run time cannot stop, as ``file:line: what`` strings."""
    tree = ast.parse(source, filename)
    pram_names = _aliases(tree, _imported(tree, "pram"))
    numpy_names = _aliases(tree, _imported(tree, "numpy"))
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    found: list[tuple[int, str]] = []

    def flag(node: ast.AST, what: str) -> None:
        found.append((getattr(node, "lineno", 0), what))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            origin = node.module if isinstance(node, ast.ImportFrom) else None
            for module, name, shown in imports(node):
                if module in MODULES or (module, name) in FROM:
                    flag(node, shown)
                elif module == "pram" and name is not None and name.startswith("_"):
                    flag(node, f"private name {name} from {origin}")
                elif module == "pram" and name in ACCESSORS:
                    flag(node, f"the machine's own {name} from {origin} (it reaches a "
                               "register's raw values or an array's cells)")
            parts = (origin or "").split(".")
            if parts[0] == "pram" and any(part.startswith("_") for part in parts):
                flag(node, f"private module {origin}")
        elif isinstance(node, ast.Attribute):
            _attribute(node, flag)
        elif isinstance(node, ast.Call):
            _call(node, flag, pram_names, numpy_names)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = (node.targets if isinstance(node, ast.Assign | ast.Delete)
                       else [node.target])
            for target in targets:
                _patch(target, flag, pram_names, numpy_names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for field in _private_fields(node.value):
                flag(node, f"format field {{{field}}} names a private attribute")
            if PRAM_PATH.match(node.value):
                flag(node, f"{node.value!r} names a part of pram by its path (for "
                           "resolve_name, locate, mock.patch or monkeypatch: reached or rebound "
                           "out of the source's sight)")
            if "/proc/" in node.value:
                flag(node, f"{node.value!r}: the process's own records (its command line and "
                           "arguments, its memory) read past the machine")
        elif isinstance(node, ast.Name) and node.id in ATTRIBUTE_BUILTINS \
                and id(node) not in called:
            flag(node, f"{node.id} used as a value (the attribute names it is given are not "
                       "in the source)")
        elif isinstance(node, ast.Name) and node.id in CALLS and id(node) not in called:
            flag(node, f"{node.id} used as a value (the code it runs is not in the source)")
    return [f"{filename}:{line}: {what}" for line, what in sorted(set(found))]


def _attribute(node: ast.Attribute, flag: _Flag) -> None:
    name = node.attr
    owner = node.value
    if name in DUNDERS:
        flag(node, f"attribute {name}")
    elif name == "__init__" and not _own(owner):
        flag(node, f"call of {ast.unparse(node)}: an object made again (a run's token, an "
                   "array or a trace re-made mid-run)")
    elif name == "modules" and isinstance(owner, ast.Name) and owner.id == "sys":
        flag(node, "sys.modules (a module reached without its import)")
    elif name.startswith("_") and not name.startswith("__"):
        if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
            flag(node, f"private attribute .{name}")
    elif name in HOOKS:
        flag(node, f"call of {ast.unparse(node)}")
    elif name in CHANNELS:
        flag(node, f"{ast.unparse(node)}: a channel another process (the one that draws the "
                   "instances, forked from this one) can write past the machine")
    elif name in ACCESSORS:
        flag(node, f"the machine's own {name} (it reaches a register's raw values, an "
                   "array's cells or the machine's ledger)")


def _own(owner: ast.AST) -> bool:
    """Whether ``owner`` is the object's own (``self``, ``cls``, ``super()``)."""
    if isinstance(owner, ast.Name):
        return owner.id in ("self", "cls")
    return (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
            and owner.func.id == "super")


#: The machine's accessors of the slots no attribute path reaches (:mod:`pram._held`), by name
#: wherever they are imported from: the machine's own modules use them.
ACCESSORS = frozenset(_held.ACCESSORS)

#: Calls that take attribute names as strings, as getattr does.
NAMED = frozenset({"attrgetter", "methodcaller"})


def _private_fields(text: str) -> list[str]:
    """The fields of ``text``, read as a format string, that name a private attribute
    (``{0._values}``, ``{x.__class__}``, in a nested format spec too); none if it is not
    one."""
    fields: list[str] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:  # not a format string (a lone brace): str.format would refuse it
        return fields
    for _, field, spec, _ in parsed:
        if field is not None and _private_path(field):
            fields.append(field)
        if spec and "{" in spec:
            fields.extend(_private_fields(spec))
    return fields


def _private_path(field: str) -> bool:
    """Whether the format field name ``field`` reads an attribute whose name starts with an
    underscore (its ``[key]`` parts are items, not attributes)."""
    attributes = re.sub(r"\[[^\]]*\]", "", field).split(".")[1:]
    return any(name.startswith("_") for name in attributes)


def _call(node: ast.Call, flag: _Flag, pram_names: set[str], numpy_names: set[str]) -> None:
    function = node.func
    called = (function.id if isinstance(function, ast.Name)
              else function.attr if isinstance(function, ast.Attribute) else None)
    if called in FIELD_CALLS and node.args:
        name = node.args[0]
        if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
            flag(node, f"{called} with a computed field name")
        elif _private_path(name.value):
            flag(node, f"{called} of {name.value} (a private attribute)")
    if called in ("setattr", "delattr") and node.args and _roots_in(node.args[0], numpy_names):
        flag(node, f"{called} on numpy's {ast.unparse(node.args[0])} (the machine's numpy is "
                   "bound when pram is imported)")
    if called in NAMED:
        for name in node.args[:1] if called == "methodcaller" else node.args:
            if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
                flag(node, f"{called} with a computed attribute name")
            elif name.value.startswith("_") or any(
                    part.startswith("_") for part in name.value.split(".")):
                flag(node, f"{called} of {name.value}")
    if isinstance(function, ast.Name):
        if function.id in CALLS:
            flag(node, f"call of {function.id}()")
        if function.id in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
            name = node.args[1]
            if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
                flag(node, f"{function.id} with a computed attribute name")
            elif name.value.startswith("_") or name.value in HOOKS | CHANNELS:
                flag(node, f"{function.id} of {name.value}")
            if function.id in ("setattr", "delattr") and _roots_in(node.args[0], pram_names):
                flag(node, f"{function.id} on pram's {ast.unparse(node.args[0])}")
    if isinstance(function, ast.Attribute) and function.attr in PATCHES and node.args and (
            _roots_in(node.args[0], pram_names)):
        flag(node, f"{ast.unparse(function)} on pram's {ast.unparse(node.args[0])}")
    if isinstance(function, ast.Attribute) and function.attr in ("__setattr__",
                                                                  "__getattribute__"):
        flag(node, f"call of {ast.unparse(function)}")
    for keyword in node.keywords:
        if keyword.arg == "observer":
            flag(node, "an observer passed to the machine sees every register and step "
                       "(trusted: for tools, never for a program under test)")
    if isinstance(function, ast.Attribute) and function.attr in DRIVERS:
        flag(node, f"call of {ast.unparse(function)}: steps outside Machine.run, where no "
                   "register is sealed; drive programs with m.run")


def _patch(target: ast.AST, flag: _Flag, pram_names: set[str], numpy_names: set[str]) -> None:
    """Monkey-patching: an attribute of pram or of numpy assigned or deleted, ids made
    writable."""
    if isinstance(target, ast.Tuple | ast.List | ast.Starred):
        for element in (target.elts if not isinstance(target, ast.Starred)
                        else [target.value]):
            _patch(element, flag, pram_names, numpy_names)
        return
    if isinstance(target, ast.Subscript):
        if _roots_in(target.value, pram_names):
            flag(target, f"monkey-patching pram: {ast.unparse(target)} assigned (an entry of "
                         "a table every run consults)")
        return
    if not isinstance(target, ast.Attribute):
        return
    if target.attr == "writeable":
        flag(target, "flags.writeable assigned (processor ids must stay immutable)")
    elif _roots_in(target.value, pram_names):
        flag(target, f"monkey-patching pram: {ast.unparse(target)} assigned")
    elif _roots_in(target.value, numpy_names):
        flag(target, f"monkey-patching numpy: {ast.unparse(target)} assigned (the machine's "
                     "numpy is bound when pram is imported)")


def _roots_in(node: ast.AST, names: set[str]) -> bool:
    """Whether ``node`` is one of ``names``, or a chain of attributes and items from one."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id in names


def paths(arguments: Sequence[str]) -> list[Path]:
    """The Python files named by ``arguments``: files as given, directories searched for
    regular files (an editor's dangling lock link ``.#x.py`` or a FIFO named ``*.py`` in a
    folder is no source to check: :func:`passed_over` names them)."""
    files: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            files.extend(p for p in _found(path) if p.is_file())
        else:
            files.append(path)
    return files


def passed_over(arguments: Sequence[str]) -> list[Path]:
    """The entries named ``*.py`` in the directories of ``arguments`` that are not regular
    files, which :func:`paths` leaves out."""
    return [p for a in arguments if Path(a).is_dir() for p in _found(Path(a)) if not p.is_file()]


def _found(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def lint(files: Iterable[Path]) -> list[str]:
    """Every finding in ``files``, in order."""
    out: list[str] = []
    for path in files:
        try:
            # The bytes go to Python's own parser, which decodes them as an import does (a
            # coding line, a BOM, UTF-8 otherwise, bytes in comments passed over).
            out.extend(findings(path.read_bytes(), str(path)))
        except SyntaxError as error:
            out.append(f"{path}:{error.lineno or 0}: cannot be parsed ({error.msg}), so not "
                       "checked")
        except (RecursionError, MemoryError):
            out.append(f"{path}:0: nested too deeply to parse (Python's own parser gives up "
                       "on it too), so not checked; split the expression")
    return out


__all__ = ["findings", "lint", "passed_over", "paths"]
