"""``pram lint`` (:mod:`pram.lint`): the deliberate cheats run time cannot stop are flagged
with their file and line, and a class of one's own is left alone (cases of outside red teams)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pram.lint import findings


def test_lint_flags_a_fork(tmp_path: Path) -> None:
    """A child of os.fork mid-run can end the run there and send its registers back."""
    source = "import os\nfrom os import fork\n\ndef p():\n    c = os.fork()\n    yield c\n"
    found = findings(source, "p.py")
    assert "p.py:2: from os import fork" in " ".join(found) or any(":2:" in f for f in found)
    assert any(":5:" in f and "fork" in f for f in found)


@pytest.mark.parametrize("source, what", [
    ('import operator\ny = operator.attrgetter("_values")(x)\n', "attrgetter of _values"),
    ('import operator\ny = operator.attrgetter("a._cells")(x)\n', "attrgetter of a._cells"),
    ('import operator\ny = operator.methodcaller("_sealed")(x)\n', "methodcaller of _sealed"),
    ('from operator import attrgetter\nname = "_v"\ny = attrgetter(name)(x)\n',
     "attrgetter with a computed attribute name"),
    ('import sys\ny = sys.modules["gc"].get_referents(x)\n', "sys.modules"),
    # the machine's own accessors of raw values and cells, wherever they are imported from
    # (outside battery: pram.holding.raw_of(x), from pram.memory import cells_of)
    ("import pram.holding\nbest = pram.holding.raw_of(x).max()\n", "the machine's own raw_of"),
    ("from pram.memory import cells_of\nv = cells_of(a)\n", "the machine's own cells_of"),
    ("from pram import memory\nmemory.put_cells(out, v)\n", "the machine's own put_cells"),
    # and under the private aliases the modules of pram hold them by (pram.trace._cells_of)
    ("import pram.trace\nv = pram.trace._cells_of(a)\n", "private attribute ._cells_of"),
    ("from pram.loop import _raw_of\nv = _raw_of(x)\n", "private name _raw_of from pram.loop"),
    ("from pram._held import cost_of\nw = cost_of(m).work\n", "private module pram._held"),
    ("from pram import _held\n_held.violations_of(m).clear()\n",
     "the machine's own violations_of (it reaches a register's raw values, an array's cells "
     "or the machine's ledger)"),
    ("import pram\npram.run.current().__init__(m, spy)\n", "an object made again"),
    ('o.__init__("o", values, None)\n', "an object made again"),
    # a format string reads attributes as getattr does, out of the source reader's sight
    ('s = "{0._values}".format(x)\n', "format field {0._values} names a private attribute"),
    ('s = "{x._values}".format(x=x)\n', "format field {x._values} names a private attribute"),
    ('s = "{0.__class__}".format(x)\n', "format field {0.__class__} names a private"),
    ('s = "{0:{1._cells}}".format(x, a)\n', "format field {1._cells} names a private"),
    ('s = "{0._x}".format_map(d)\n', "format field {0._x} names a private attribute"),
    ('import string\nv = string.Formatter().get_field("0._values", (x,), {})\n',
     "get_field of 0._values (a private attribute)"),
    ('import string\nv = string.Formatter().get_field(name, (x,), {})\n',
     "get_field with a computed field name"),
    # getattr as a value: the names it is given are computed where the source does not show
    ("f = getattr\ny = f(x, name)\n", "getattr used as a value"),
    ("y = list(map(getattr, xs, names))\n", "getattr used as a value"),
    ("import functools\ng = functools.partial(setattr, a)\n", "setattr used as a value"),
    # numpy's callables rebound (the machine binds its own when pram is imported)
    ("import numpy as np\nnp.take = spy\n", "monkey-patching numpy: np.take assigned"),
    ("import numpy\nnumpy.where = spy\n", "monkey-patching numpy: numpy.where assigned"),
    ("import numpy as np\nnp.errstate.__enter__ = spy\n", "monkey-patching numpy: np.errstate"),
    ("from numpy import lib\nlib.mixins.x = spy\n", "monkey-patching numpy: lib.mixins.x"),
    ("import numpy as np\nsetattr(np, 'take', spy)\n", "setattr on numpy's np"),
    ("import numpy as np\ndel np.where\n", "monkey-patching numpy: np.where assigned"),
    # a table every run consults, or a class reached through an alias (third outside battery:
    # pram.MODELS["erew"] replaced, a model's checks_reads set, settings.CHECKS rewritten)
    ("import pram\npram.MODELS['erew'] = pram.MODELS['crcw-priority']\n",
     "monkey-patching pram: pram.MODELS['erew'] assigned"),
    ("import pram\nM = pram.MODELS['erew']\nM.checks_reads = False\n",
     "monkey-patching pram: M.checks_reads assigned"),
    ("import pram\npram.settings.CHECKS['model'] = spy\n",
     "monkey-patching pram: pram.settings.CHECKS['model'] assigned"),
    ("from pram import Cost\nC = Cost\nC.work = property(spy)\n",
     "monkey-patching pram: C.work assigned"),
    # fourth outside battery: code run out of the source's sight, hooks by a literal name,
    # channels a forked child shares, the process's own command line
    ("run = eval\ngc = run(\"__imp\" + \"ort__('gc')\")\n", "eval used as a value"),
    ("ex = exec\nex(code, ns)\n", "exec used as a value"),
    ("import sys\ninstall = getattr(sys, 'setprofile')\n", "getattr of setprofile"),
    ("import mmap\nshared = mmap.mmap(-1, 4096)\n", "import mmap"),
    ("import multiprocessing\nq = multiprocessing.SimpleQueue()\n", "import multiprocessing"),
    ("import os\nr, w = os.pipe()\n", "os.pipe: a channel another process"),
    ("seed = open('/proc/self/cmdline').read()\n", "the process's own records"),
    # fifth outside battery: a part of pram reached or rebound by its path, out of sight
    ("import pkgutil\nraw = pkgutil.resolve_name('pram.engine.core:_raw_of')\n",
     "import pkgutil"),
    ("import pydoc\nraw = pydoc.locate('pram.engine.core._raw_of')\n", "import pydoc"),
    ("from unittest import mock\np = mock.patch('pram.engine.refusals.MAX_ACCESSES', 4096)\n",
     "from unittest import mock"),
    ("def test(monkeypatch):\n    monkeypatch.setattr('pram.engine.fast.MAX_ACCESSES', 8)\n",
     "'pram.engine.fast.MAX_ACCESSES' names a part of pram by its path"),
    ("import pram.engine.conflicts as c\ndef test(monkeypatch):\n"
     "    monkeypatch.setattr(c, 'distinct_cells', all)\n", "monkeypatch.setattr on pram's c"),
])
def test_lint_flags_what_reaches_under_objects(source: str, what: str) -> None:
    found = findings(source, "p.py")
    assert any(what in f for f in found), found


def test_lint_leaves_what_a_program_makes_from_pram_alone() -> None:
    """A machine made by a call is the program's own: its settings and its arrays' items are
    assigned honestly (only parts of pram itself, reached by names, are pram's)."""
    source = ("import pram\nm = pram.Machine('erew')\nm.mode = 'collect'\n"
              "rows = [0, 1]\nrows[0] = 2\nx = pram.iota(4)\n")
    assert findings(source, "p.py") == []


def test_lint_leaves_honest_format_strings_getattr_and_numpy_alone() -> None:
    """Public fields, items with underscores, a named getattr and reading numpy's callables
    are not cheats."""
    source = ('import numpy as np\ns = "{0.size} {0[_key]} {x:>{width}}".format(a, x=1, '
              'width=3)\ny = getattr(x, "size")\nf = np.take\nt = "{"\n')
    assert findings(source, "p.py") == []


def test_lint_leaves_a_class_of_ones_own_alone() -> None:
    source = ("import operator\nclass A(dict):\n    def __init__(self):\n"
              "        super().__init__()\n        self.__init__\n"
              "y = operator.attrgetter('size')(x)\n")
    assert findings(source, "p.py") == []


#: Deliberate cheats run time cannot stop, as their source: the lint must name each.
DELIBERATE = {
    "gc": "import gc\ndef f(x):\n    return gc.get_referents(x)\n",
    "ctypes": "import ctypes\ndef f(p):\n    return ctypes.string_at(p, 8)\n",
    "frames": "import sys\ndef f():\n    return sys._getframe(1).f_back.f_locals\n",
    "profile hook": "import sys\nsys.setprofile(lambda frame, e, a: frame.f_locals)\n",
    "monkey-patching": "import pram\npram.Register.__array__ = lambda self: None\n",
    "patched run": "from pram import Machine\nMachine.run = lambda self, p: None\n",
    "private attributes": "def f(x):\n    return x._values\n",
    "computed getattr": "def f(x, n):\n    return getattr(x, n)\n",
    "object.__getattribute__": "def f(x):\n    return object.__getattribute__(x, 'v')\n",
    "driving by hand": "def f(m, g):\n    return m.execute([next(g)])\n",
    "tracemalloc": "import tracemalloc\ntracemalloc.start()\n",
    "getsizeof": "import sys\ndef f(x):\n    return sys.getsizeof(x)\n",
    "exec": "exec('print(1)')\n",
    "hidden import": "import importlib\nimportlib.import_module('gc')\n",
    "observer": "from pram import Machine\nm = Machine(observer=print)\n",
}


@pytest.mark.parametrize("name", sorted(DELIBERATE))
def test_every_deliberate_cheat_is_flagged_by_the_lint(name: str) -> None:
    """Each names file and line."""
    found = findings(DELIBERATE[name], "cheat.py")
    assert found and all(f.startswith("cheat.py:") for f in found)
