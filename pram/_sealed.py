"""pram's own modules, sealed: no attribute of one is rebound or deleted once it has loaded.

The machine reads its rules from its modules while it runs (``MAX_ACCESSES``, the conflict
tests, the reference a command compares with), so rebinding one from outside
(``mock.patch("pram.engine.refusals.MAX_ACCESSES", 4096)``, pytest's ``monkeypatch.setattr``,
``pram.engine.conflicts.distinct_cells = ...``) would change what it checks and counts for
the rest of the process, with nothing in the run to show it. Every ``pram.*`` module is an
instance of :class:`Sealed` from the end of its own loading: setting or deleting an
attribute of it is refused, naming the module and the name. The one binding allowed is the
import system's of a submodule to its package (``pram.engine.cells`` on ``pram.engine``).
What reaches under the module (``vars(module)``, ``module.__dict__``,
``ModuleType.__setattr__``) is flagged by ``pram lint``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

from pram.errors import HonestyError


def _ours(name: str) -> bool:
    return name == "pram" or name.startswith("pram.")


class Sealed(ModuleType):
    """A module of pram: its attributes are what it defined when it loaded."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, ModuleType) and value.__name__ == f"{self.__name__}.{name}":
            super().__setattr__(name, value)  # the import system binding a submodule
            return
        raise _refusal(self.__name__, name, "rebound")

    def __delattr__(self, name: str) -> None:
        raise _refusal(self.__name__, name, "deleted")


def _refusal(module: str, name: str, done: str) -> HonestyError:
    return HonestyError(
        f"{module}.{name} cannot be {done}: pram's modules are sealed once loaded, since the "
        "machine reads its rules and references from them while it runs (mock.patch or "
        "monkeypatch of pram would change what it checks and counts); change the program "
        "or its inputs, never pram"
    )


def seal(module: ModuleType) -> None:
    """Seal ``module`` (one of pram's, loaded) unless it is already."""
    if type(module) is ModuleType:
        module.__class__ = Sealed


class _SealAfterLoading(Loader):
    """The loader of one of pram's modules, sealing the module once it has run."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def __getattr__(self, name: str) -> object:  # get_source, get_resource_reader, ...
        return getattr(self.loader, name)

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        seal(module)


class _Finder(MetaPathFinder):
    """Finds pram's modules loaded after ``import pram`` through the finders after it, and
    hands each one's loader to :class:`_SealAfterLoading`."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not _ours(fullname):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _SealAfterLoading(spec.loader)
                return spec
        return None


def seal_pram() -> None:
    """Seal every module of pram loaded so far, and every one that loads later."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    for name, module in list(sys.modules.items()):
        if _ours(name) and isinstance(module, ModuleType):
            seal(module)


__all__ = ["Sealed", "seal", "seal_pram"]
