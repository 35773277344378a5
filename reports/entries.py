"""The one table of algorithm entries the command line knows, in the order it lists them.

The paper's algorithms and baselines (:mod:`pram.reports.algorithms`) come first, then the
catalogue of classic algorithms (:mod:`pram.reports.classics`, then the techniques courses set,
:mod:`pram.reports.techniques`). Every lookup by name goes through :func:`algorithm`; adding an
algorithm is one entry in one of those modules.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import cast

from pram import InputError, declaration
from pram.errors import said
from pram.reports import algorithms, classics, techniques, writer
from pram.reports.registry import Algorithm, Exited, entry_of, raised, user_line, users_code
from pram.reports.signals import Stopped

#: The table: algorithm name -> what runs.
ALGORITHMS: dict[str, Algorithm] = {
    e.name: e for e in (*algorithms.ENTRIES, *classics.ENTRIES, *techniques.ENTRIES)
}


def algorithm(name: str) -> Algorithm:
    """The entry called ``name``, or an InputError listing the known ones."""
    found = ALGORITHMS.get(name)
    if found is None:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)} (got {name!r})")
    return found


def names() -> list[str]:
    """The name of every built-in entry, in the table's order (declared ones are not
    listed)."""
    return [name for name in ALGORITHMS if name in BUILT_IN]


# ---- declared algorithms: a user's module on the command line (--module) ---------------------

#: The names of the project's own entries, which a declaration may not take.
BUILT_IN = frozenset(ALGORITHMS)

#: Declarations loaded so far, by their ``FILE:NAME`` spec (a worker loads each once).
_LOADED: dict[str, Algorithm] = {}


def register(entry: Algorithm) -> Algorithm:
    """Add a declared algorithm's entry to the table, so every command finds it by name.

    A built-in name is refused (rename the declaration); a second declaration of one name
    replaces the first (the same module loaded again).
    """
    ALGORITHMS[declaration.fields.not_built_in(entry.name)] = entry
    return entry


def split_spec(module: str, name: str | None) -> tuple[str, str]:
    """``--module`` and the NAME after it as (where, attribute): ``FILE NAME``, ``FILE:NAME``
    or ``package.module:NAME``; one line naming the fix when the NAME is missing or twice."""
    where, colon, attribute = module.rpartition(":")
    if not colon or not where or not attribute or "/" in attribute or "\\" in attribute \
            or attribute.endswith(".py") or Path(module).exists():
        # a colon in the file's path ('a:b.py'), not a NAME; a NAME is a declaration's
        # variable or its name, which may hold '-' or '.' ('second-one')
        where, attribute = module, ""
    if attribute and name is not None:
        raise InputError(
            f"--module {module!r} already names {attribute!r}, and {name!r} follows it; give "
            f"the name once: --module {where} {attribute} or --module {where}:{attribute}"
        )
    attribute = attribute or (name or "")
    if not where.strip():
        raise InputError(
            f"--module {module!r} names no file or module; give the path of a Python file "
            "that declares the algorithm (or package.module:NAME)"
        )
    if not attribute:
        raise InputError(
            f"--module {module!r} names no algorithm; give the declaration's name after it "
            f"(--module {module} NAME) or after a colon ({module}:NAME)"
        )
    return where, attribute


def load_declared(spec: str) -> Algorithm:
    """The entry of the declaration ``spec`` (``FILE:NAME`` or ``package.module:NAME``),
    loaded and registered once per process. Every way it can fail is one line naming the fix:
    no such file or module, not a Python file, a syntax error, an error raised on import, no
    such NAME, a NAME that is not a :class:`pram.Algorithm`."""
    found = _LOADED.get(spec)
    if found is not None:
        ALGORITHMS.setdefault(found.name, found)
        return found
    where, attribute = split_spec(spec, None)
    module = _import(where)
    declaration = _declaration(module, where, attribute)
    entry = register(entry_of(declaration))
    _LOADED[spec] = entry
    return entry


def _import(where: str) -> ModuleType:
    """The module at the path ``where`` (a ``.py`` file) or of the dotted name ``where``."""
    path = Path(where)
    is_file = where.endswith(".py") or "/" in where or "\\" in where or path.exists()
    if is_file:
        if not path.exists():
            raise InputError(
                f"--module {where!r}: no such file; give the path of a Python file that "
                "declares the algorithm (or package.module:NAME)"
            )
        if path.is_dir() or path.suffix != ".py":
            what = "a folder" if path.is_dir() else f"a {path.suffix or 'file without'} suffix"
            raise InputError(
                f"--module {where!r} is not a Python module ({what}); give a .py file, or "
                "an importable package.module"
            )
        writer.check_input(where, "--module", "a Python file that declares the algorithm")
        label = f"pram_declared_{abs(hash(str(path.resolve()))):x}"
        spec = importlib.util.spec_from_file_location(label, path)
        if spec is None or spec.loader is None:
            raise InputError(f"--module {where!r} is not a Python module; give a .py file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[label] = module
        folder = str(path.resolve().parent)
        beside = folder not in sys.path
        if beside:  # its helpers beside it import, as when python runs the file as a script
            sys.path.insert(0, folder)
        try:
            with users_code():
                spec.loader.exec_module(module)
        except BaseException as error:  # an import that raises: one line, not a traceback
            sys.modules.pop(label, None)
            raise _import_error(where, error, path) from None
        finally:
            if beside and folder in sys.path:
                sys.path.remove(folder)
        return module
    here = str(Path.cwd())
    added = here not in sys.path
    if added:  # package.module: importable from the current folder, as with python -m
        sys.path.insert(0, here)
    try:
        with users_code():
            return importlib.import_module(where)
    except ModuleNotFoundError as error:
        named = error.name or ""
        if not (where == named or where.startswith(named + ".")):
            raise _import_error(where, error, None) from None  # an import inside the module
        raise InputError(
            f"--module {where!r}: no module named {error.name!r}; give a .py file, or a "
            "module importable from here (package.module:NAME)"
        ) from None
    except BaseException as error:
        raise _import_error(where, error, None) from None
    finally:
        if added:
            sys.path.remove(here)


def _import_error(where: str, error: BaseException, path: Path | None) -> BaseException:
    """What importing the module ``where`` raised, as its one line: a syntax error with the
    file (the module's, or a helper it imports) and line; anything else with the file and line
    it came from. A signal the command got (:class:`Stopped`) is passed on as it is."""
    if isinstance(error, Stopped | InputError):
        return error
    if isinstance(error, SyntaxError):
        file = Path(error.filename).name if error.filename else Path(where).name
        own = path is not None and (error.filename is None  # (a null byte: no file named)
                                    or Path(error.filename).resolve() == path.resolve())
        which = "" if own else f" of {file}"
        at_line = f" at line {error.lineno}" if error.lineno else ""  # (none for a null byte)
        return InputError(
            f"--module {where!r} has a syntax error{at_line}{which}: "
            f"{error.msg}; fix {'the file' if own else file} (python -m py_compile "
            f"{error.filename or where} shows it)"
        )
    line = user_line(error)
    at = f" in {line}" if line else ""
    words = "" if isinstance(error, SystemExit | Exited) else f" ({said(error)})"
    verb = "called" if isinstance(error, SystemExit | Exited) else "raised"
    return InputError(
        f"--module {where!r} {verb} {raised(error)}{at} while it was imported{words}; fix the "
        "module so that importing it runs"
    )


def _article(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"




def _declared(value: object) -> bool:
    """Whether ``value`` is a declaration, asked of its type alone."""
    return issubclass(type(value), declaration.Algorithm)


def _declaration(module: ModuleType, where: str, attribute: str) -> declaration.Algorithm:
    """The declaration called ``attribute`` in ``module`` (by variable name, else by its
    ``name``)."""
    # by type(): isinstance would run a global's own __class__ (a property of the user's)
    declared = {k: v for k, v in vars(module).items()
                if _declared(v) and not k.startswith("_")}
    found = getattr(module, attribute, None)
    if not _declared(found):  # a program `double` declared as "double"
        found = next((v for v in declared.values() if v.name == attribute), found)
    if found is None:
        listed = ", ".join(sorted(declared)) or "none"
        raise InputError(
            f"--module {where!r} has no {attribute!r} (its declarations: {listed}); give the "
            "name of a pram.Algorithm defined in it"
        )
    if not _declared(found):
        raise InputError(
            f"--module {where!r}: {attribute!r} is {_article(type(found).__name__)}, not a "
            "pram.Algorithm; declare it with pram.Algorithm(...) or @pram.declare(...)"
        )
    twins = sorted(k for k, v in declared.items() if v.name == found.name and v is not found)
    if twins:
        mine = next((k for k, v in declared.items() if v is found), attribute)
        raise InputError(
            f"--module {where!r} declares two algorithms named {found.name!r} ({mine} and "
            f"{twins[0]}); the name picks one on the command line and in reports, so give each "
            "its own (name=... in pram.Algorithm or pram.declare)"
        )
    return cast(declaration.Algorithm, found)
