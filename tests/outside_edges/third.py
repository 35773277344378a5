#!/usr/bin/env python3
# ruff: noqa
"""A third outside edge battery (800 cases on --module, --instances, traces, floats, files,
signals, environments and the Python API), written from the docs by a tester who had not
seen the code or the tests, kept as written but for where it writes. It takes about half an
hour, so the suite does not run it: tests/test_outside_edges.py holds the cases it found
bad, each as a test. Run it as `python tests/outside_edges/third.py --pram PRAM --python PY`.

Edge-case battery for pram's input handling (outside tester; black box).

python battery.py --pram PRAM --python PYTHON [--only ID,...] [--jobs 2]

Every case runs in a subprocess (its own folder under a temporary folder, or $BATTERY_RUNS), with a timeout, and is judged
automatically against the contract of docs/reference/common.md, docs/howto/*.md and the
--help texts.  Prints `ID VERDICT WHY` per case, then `COUNTS {...}`.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.environ.get("BATTERY_RUNS") or __import__("tempfile").mkdtemp(prefix="edges-")
CASES = []
PRAM = PY = None


def C(id, desc, cmd, expect=(2,), files=None, setup=None, env=None, json_out=False,
      check=None, cwd=None, timeout=60, names=None, extra_stderr_ok=False, shell=False,
      sig=None, may_change=(), unset=(), stdin=None, kind="cli", code=None, no_left=False):
    assert id not in {c["id"] for c in CASES}, id
    CASES.append(dict(id=id, desc=desc, cmd=cmd, expect=tuple(expect), files=files or {},
                      setup=setup, env=env or {}, json_out=json_out, check=check, cwd=cwd,
                      timeout=timeout, names=names, extra_stderr_ok=extra_stderr_ok,
                      shell=shell, sig=sig, may_change=set(may_change), unset=unset,
                      stdin=stdin, kind=kind, code=code, no_left=no_left))


# --------------------------------------------------------------------------- modules
def mod(build="return rng.integers(0, 100, n)", prog_pre="", prog_ret="return b",
        ref="return a.copy()", load="return np.load(path)", name="copy",
        bounds='{"work": "n", "time": "1"}', kw="", pre="", post="", bdtype="",
        var="copy"):
    ind = lambda s: textwrap.indent(textwrap.dedent(s).strip("\n"), "    ") if s else "    pass"
    return f"""import numpy as np, pram, sys, os, time, signal
from pram import Read, Step, Write, iota
{textwrap.dedent(pre)}
def _build(n, rng):
{ind(build)}
def _prog(m, a):
{ind(prog_pre) if prog_pre else ''}
    n = len(a)
    b = m.array("b", n{bdtype})
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    yield Step(pid, writes=[Write(b, iota(n), x)])
{ind(prog_ret)}
def _ref(a):
{ind(ref)}
def _load(path):
{ind(load)}
{var} = pram.Algorithm(name={name!r}, build=_build, program=_prog, reference=_ref, load=_load, bounds={bounds}{kw})
{textwrap.dedent(post)}
"""


BASE = mod()
FLOATMOD = mod(build="return rng.standard_normal(n)", bdtype=", dtype=float", kw=", tolerance=1e-9")


def npy(arr_expr):
    def f(path):
        import numpy as np
        with open(path, "wb") as fh:
            np.save(fh, eval(arr_expr, {"np": np}), allow_pickle=True)
    return f


def sh(s):
    return s


# helpers for checks
def exists(p):
    return lambda rc, out, err, d: None if os.path.exists(os.path.join(d, p)) else f"{p} not written"


def not_exists(p):
    return lambda rc, out, err, d: f"{p} was created" if os.path.lexists(os.path.join(d, p)) else None


def stderr_has(s):
    return lambda rc, out, err, d: None if s.lower() in err.lower() else f"stderr lacks {s!r}"


def both(*fs):
    def f(rc, out, err, d):
        for g in fs:
            r = g(rc, out, err, d)
            if r:
                return r
    return f


R = ["{P}", "run", "--module", "m.py", "copy", "--n", "8"]
RJ = R + ["--json"]


def modcase(id, desc, src, expect=(2,), extra=(), json_out=False, **kw):
    cmd = R + list(extra) + (["--json"] if json_out else [])
    files = {"m.py": src}
    files.update(kw.pop("files", {}))
    C(id, desc, cmd, expect=expect, files=files, json_out=json_out, **kw)


# ---- module files: odd files -------------------------------------------------------
modcase("mod-empty", "empty module file: no declarations -> exit 2 naming the file", "", names=["m.py"])
modcase("mod-comments", "only comments", "# nothing\n# here\n", names=["m.py"])
modcase("mod-syntax", "syntax error: exit 2 with its line", "import pram\ndef f(:\n", names=["m.py", "2"])
modcase("mod-indent", "indentation error", "import pram\nif True:\npass\n", names=["m.py"])
modcase("mod-import-raise", "import raises ValueError", "raise ValueError('boom at import')\n", names=["m.py"])
modcase("mod-import-exit0", "sys.exit(0) at import must not be a silent success", "import sys\nsys.exit(0)\n", names=["m.py"])
modcase("mod-import-exit3", "sys.exit(3) at import", "import sys\nsys.exit(3)\n", names=["m.py"])
modcase("mod-import-exitstr", "sys.exit('message') at import", "import sys\nsys.exit('bye bye')\n", names=["m.py"])
modcase("mod-import-osexit0", "os._exit(0) at import: exit 2 per declare.md", "import os\nos._exit(0)\n", names=["m.py"])
modcase("mod-import-osexit1", "os._exit(1) at import: exit 2 per declare.md", "import os\nos._exit(1)\n", names=["m.py"])
modcase("mod-import-kbint", "KeyboardInterrupt raised by the import: exit 2", "raise KeyboardInterrupt\n", names=["m.py"])
modcase("mod-import-recursion", "RecursionError at import", "def f(): return f()\nf()\n", names=["m.py"])
modcase("mod-import-memerr", "MemoryError at import", "raise MemoryError('no memory')\n", names=["m.py"])
modcase("mod-import-multiline", "exception with a multi-line message: still one line",
        "raise RuntimeError('line one\\nline two\\nline three')\n", names=["m.py"])
modcase("mod-import-badstr", "exception whose __str__ raises",
        "class E(Exception):\n    def __str__(self): raise RuntimeError('no str')\nraise E()\n", names=["m.py"])
modcase("mod-import-hugemsg", "exception with a 1 MB message: one line",
        "raise RuntimeError('x' * 1000000)\n", names=["m.py"])
modcase("mod-import-missing-dep", "imports a package that does not exist",
        "import no_such_package_xyz\n", names=["m.py"])
modcase("mod-import-baseexc", "raises a bare BaseException subclass at import",
        "class B(BaseException): pass\nraise B('odd')\n", names=["m.py"])
modcase("mod-import-generatorexit", "raises GeneratorExit at import",
        "raise GeneratorExit('g')\n", names=["m.py"])
modcase("mod-nul-bytes", "source file with NUL bytes", b"import pram\n\x00\x00\n", names=["m.py"])
modcase("mod-latin1-nocookie", "latin-1 bytes without coding cookie (SyntaxError)",
        b"# caf\xe9\nimport pram\n", names=["m.py"])
modcase("mod-latin1-cookie", "latin-1 with a coding cookie is valid Python: runs",
        ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + BASE).encode("latin-1"), expect=(0,))
modcase("mod-bom", "UTF-8 BOM at the start: valid Python, runs", b"\xef\xbb\xbf" + BASE.encode(), expect=(0,))
modcase("mod-crlf", "CRLF line endings: valid Python, runs", BASE.replace("\n", "\r\n").encode(), expect=(0,))
modcase("mod-utf16", "UTF-16 encoded file: not decodable, exit 2", BASE.encode("utf-16"), names=["m.py"])
modcase("mod-huge", "10 MB of comments then a valid declaration: runs",
        ("#" + "x" * 99 + "\n") * 100000 + BASE, expect=(0,), timeout=60)
modcase("mod-binary", "random binary file named .py", os.urandom(4096) if False else bytes(range(256)) * 16,
        names=["m.py"])
modcase("mod-print-import-json", "module prints on stdout at import; --json stays one object",
        "print('hello from import')\n" + BASE, expect=(0,), json_out=True)
modcase("mod-print-build-json", "build prints on stdout; --json one object",
        mod(build="print('in build'); return rng.integers(0, 100, n)"), expect=(0,), json_out=True)
modcase("mod-print-prog-json", "program prints on stdout; --json one object",
        mod(prog_pre="print('in program', flush=True)"), expect=(0,), json_out=True)
modcase("mod-print-ref-json", "reference prints lots; --json one object",
        mod(ref="print('{\"fake\": 1}'); print('x'*100000); return a.copy()"), expect=(0,), json_out=True)
modcase("mod-print-dunder-stdout", "module writes to sys.__stdout__ (demanding: 'whatever the user's code prints')",
        mod(build="sys.__stdout__.write('raw\\n'); sys.__stdout__.flush(); return rng.integers(0, 100, n)"),
        expect=(0,), json_out=True)
modcase("mod-print-fd1", "module os.write(1, ...) (demanding: 'whatever the user's code prints')",
        mod(build="os.write(1, b'fd1 text\\n'); return rng.integers(0, 100, n)"),
        expect=(0,), json_out=True)
modcase("mod-replace-stdout", "module rebinds sys.stdout to devnull at import: --json still prints the object",
        "import sys, os\nsys.stdout = open(os.devnull, 'w')\n" + BASE, expect=(0,), json_out=True,
        check=lambda rc, out, err, d: None if out.strip() else "no JSON on stdout")
modcase("mod-close-stdout", "module closes sys.stdout at import",
        "import sys\nsys.stdout.close()\n" + BASE, expect=(0, 2), json_out=True,
        check=lambda rc, out, err, d: None if rc == 2 or out.strip() else "exit 0 yet nothing printed")
modcase("mod-print-stderr-json", "module prints to stderr; json unaffected",
        "import sys\nprint('warn', file=sys.stderr)\n" + BASE, expect=(0,), json_out=True)
modcase("mod-warning", "module issues a warnings.warn at import", "import warnings\nwarnings.warn('careful')\n" + BASE,
        expect=(0,), json_out=True)
modcase("mod-main-guard", "module with a __main__ guard that exits: not run on import -> 0",
        BASE + "\nif __name__ == '__main__':\n    sys.exit(1)\n", expect=(0,))
modcase("mod-fork", "module forks at import, child exits at once",
        "import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)\n" + BASE, expect=(0,))
modcase("mod-fork-child-lives", "module forks at import and the child continues running (returns) — must not print twice / corrupt JSON",
        "import os\nif os.fork() == 0:\n    pass\n" + BASE, expect=(0, 2), json_out=True, timeout=60, no_left=True)
modcase("mod-thread-daemon", "daemon thread sleeping at import: run still finishes",
        "import threading, time\nthreading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n" + BASE, expect=(0,))
modcase("mod-thread-nondaemon", "non-daemon thread sleeping 1000 s (demanding: the command should not hang)",
        "import threading, time\nthreading.Thread(target=time.sleep, args=(1000,)).start()\n" + BASE, expect=(0,), timeout=40)
modcase("mod-chdir", "module chdirs to / at import; relative --output must land in the caller's cwd",
        "import os\nos.chdir('/')\n" + BASE, expect=(0,), extra=["--output", "o.npy"], check=exists("o.npy"))
modcase("mod-chdir-input", "module chdirs to / at import; relative --input must still be the caller's file",
        "import os\nos.chdir('/tmp')\n" + BASE, expect=(0,), extra=[],
        files={"in.npy": npy("np.arange(10)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-sigint-ign", "module ignores SIGINT at import, then run finishes normally", 
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n" + BASE, expect=(0,))
modcase("mod-sigpipe-dfl", "module resets SIGPIPE at import", 
        "import signal\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\n" + BASE, expect=(0,))
modcase("mod-alarm", "module sets an alarm of 1 s at import and the build sleeps 3 s (user's own signal kills it): no traceback",
        "import signal\nsignal.alarm(1)\n" + mod(build="time.sleep(3); return rng.integers(0, 100, n)")[0:],
        expect=(1, 2, 142, -14), extra_stderr_ok=False)
modcase("mod-atexit", "module registers an atexit that prints to stdout; --json one object",
        "import atexit\natexit.register(lambda: print('atexit says hi'))\n" + BASE, expect=(0,), json_out=True)
modcase("mod-setrecursion", "module sets recursion limit to 50", "import sys\nsys.setrecursionlimit(60)\n" + BASE, expect=(0, 2))
modcase("mod-sysexit-in-build", "sys.exit(0) in build: exit 2, never silent success",
        mod(build="sys.exit(0)"), names=["m.py"])
modcase("mod-sysexit-in-prog", "sys.exit(0) in program", mod(prog_pre="sys.exit(0)"), names=["m.py"])
modcase("mod-sysexit-in-ref", "sys.exit(0) in reference", mod(ref="sys.exit(0)"), names=["m.py"])
modcase("mod-osexit-in-build", "os._exit(0) in build: exit 2 per declare.md", mod(build="os._exit(0)"), names=["m.py"])
modcase("mod-osexit-in-prog", "os._exit(0) in program", mod(prog_pre="os._exit(0)"), names=["m.py"])
modcase("mod-osexit-in-ref", "os._exit(0) in reference", mod(ref="os._exit(0)"), names=["m.py"])
modcase("mod-osexit-in-ref-json", "os._exit(0) in reference with --json: exit 2, stdout nothing or one object",
        mod(ref="os._exit(0)"), json_out=True, names=["m.py"])
modcase("mod-kbint-in-prog", "KeyboardInterrupt raised by program: exit 2", mod(prog_pre="raise KeyboardInterrupt"), names=["m.py"])
modcase("mod-raise-build", "build raises ValueError: one line naming file:line", mod(build="raise ValueError('bad build')"), names=["m.py:"])
modcase("mod-raise-prog", "program raises", mod(prog_pre="raise ValueError('bad prog')"), names=["m.py:"])
modcase("mod-raise-ref", "reference raises", mod(ref="raise ValueError('bad ref')"), names=["m.py:"])
modcase("mod-raise-load", "load raises with --input", mod(load="raise OSError('cannot load')"), names=["m.py"],
        files={"in.npy": npy("np.arange(8)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-raise-ref-json", "reference raises with --json", mod(ref="raise ValueError('bad ref')"), json_out=True, names=["m.py"])
modcase("mod-build-str", "build returns a string", mod(build="return 'hello'"), names=["build"])
modcase("mod-build-none", "build returns None", mod(build="return None"))
modcase("mod-build-strarr", "build returns an array of strings (other kinds refused)", mod(build="return np.array(['a']*n)"))
modcase("mod-build-complex", "build returns complex", mod(build="return np.ones(n, dtype=complex)"))
modcase("mod-build-object", "build returns an object array", mod(build="return np.array([object()]*n)"))
modcase("mod-build-bigint", "build returns Python ints beyond int64 (object array)", mod(build="return np.array([2**70]*n, dtype=object)"))
modcase("mod-build-uint64-huge", "build returns uint64 2**64-1: may not be silently turned into int64 -1",
        mod(build="return np.full(n, 2**64-1, dtype=np.uint64)"), expect=(2,))
modcase("mod-build-uint64-small", "build returns small uint64: converted losslessly, runs", mod(build="return np.arange(n, dtype=np.uint64)"), expect=(0,))
modcase("mod-build-float32", "build returns float32: runs as float64", mod(build="return rng.standard_normal(n).astype(np.float32)", bdtype=", dtype=float",
        kw=", tolerance=1e-6"), expect=(0,))
modcase("mod-build-float16", "build returns float16", mod(build="return np.arange(n, dtype=np.float16)", bdtype=", dtype=float"), expect=(0,))
modcase("mod-build-bool", "build returns bool: int64", mod(build="return np.arange(n) % 2 == 0", ref="return a.astype(np.int64)"), expect=(0,))
modcase("mod-build-nan", "float input with NaN; reference the same: NaN == NaN counts equal (documented)",
        mod(build="x = rng.standard_normal(n); x[0] = np.nan; return x", bdtype=", dtype=float"), expect=(0,))
modcase("mod-build-inf", "float input with +-inf: copy equals reference",
        mod(build="x = rng.standard_normal(n); x[0] = np.inf; x[1] = -np.inf; return x", bdtype=", dtype=float"), expect=(0,))
modcase("mod-build-negzero", "-0.0 input copied: equal", mod(build="return np.full(n, -0.0)", bdtype=", dtype=float"), expect=(0,))
modcase("mod-build-negzero-out", "-0.0 written to --output must stay -0.0 (sign bit kept)",
        mod(build="return np.full(n, -0.0)", bdtype=", dtype=float"), expect=(0,), extra=["--output", "o.npy"],
        check=lambda rc, out, err, d: None if (lambda a: all(str(v) == "-0.0" for v in a))(__import__('numpy').load(os.path.join(d, 'o.npy')).tolist()) else "sign of -0.0 lost")
modcase("mod-nan-tolerance", "NaN in answer only (reference finite) with tolerance: wrong -> exit 1",
        mod(build="return rng.standard_normal(n)", bdtype=", dtype=float", kw=", tolerance=1e-3",
            ref="r = a.copy(); r[0] = 1.0; return r", prog_pre="pass"), expect=(1,))
modcase("mod-float-no-tol-mismatch", "float answer differing by 1 ulp without tolerance: exit 1",
        mod(build="return rng.standard_normal(n)", bdtype=", dtype=float", ref="return np.nextafter(a, np.inf)"), expect=(1,))
modcase("mod-ref-inf-vs-finite", "reference inf vs answer finite with huge tolerance: must be wrong (exit 1)",
        mod(build="return rng.standard_normal(n)", bdtype=", dtype=float", kw=", tolerance=1e300",
            ref="r = a.copy(); r[0] = np.inf; return r"), expect=(1,))
modcase("mod-build-3d", "build returns a 3-D array", mod(build="return np.zeros((n, 2, 2), dtype=np.int64)"))
modcase("mod-build-empty", "build returns an empty array", mod(build="return np.zeros(0, dtype=np.int64)"), expect=(0, 1, 2))
modcase("mod-build-0d", "build returns a 0-d array", mod(build="return np.int64(5)"), expect=(2,))
modcase("mod-build-dict-badkey", "build returns a dict whose key is not an identifier",
        mod(build="return {'not valid': np.arange(n)}"))
modcase("mod-build-dict-empty", "build returns an empty dict", mod(build="return {}"))
modcase("mod-build-int64max", "build values int64 max; copy is exact", mod(build="return np.full(n, 2**63-1)"), expect=(0, 2))
modcase("mod-build-list", "build returns a plain list of ints", mod(build="return list(range(n))"), expect=(0, 2))
modcase("mod-prog-notgen", "program is a plain function returning an Array (not a generator)",
        mod().replace("def _prog(m, a):", "def _prog(m, a):\n    return m.array('z', 4)\ndef _unused(m, a):"))
modcase("mod-prog-ret-none", "program returns None", mod(prog_ret="return None"), expect=(1, 2))
modcase("mod-prog-ret-numpy", "program returns numpy data (HonestyError)", mod(prog_ret="return np.arange(n)"), expect=(1, 2))
modcase("mod-prog-yield-junk", "program yields a non-Step", mod(prog_pre="yield 42"), expect=(1, 2))
modcase("mod-prog-mrun", "program calls m.run (refused)", mod(prog_pre="m.run(iter(()))"), expect=(1, 2))
modcase("mod-ref-wronglen", "reference of another length: wrong answer exit 1 (or 2)", mod(ref="return a[:-1].copy()"), expect=(1, 2))
modcase("mod-ref-wrongval", "reference with other values: exit 1", mod(ref="return a + 1"), expect=(1,))
modcase("mod-ref-none", "reference returns None", mod(ref="return None"), expect=(1, 2))
modcase("mod-ref-str", "reference returns a string", mod(ref="return 'abc'"), expect=(1, 2))
modcase("mod-ref-wrongval-json", "wrong reference with --json: exit 1 with one object", mod(ref="return a + 1"), expect=(1,), json_out=True)
modcase("mod-ref-wrongval-nocheck", "wrong reference with --no-check: exit 0", mod(ref="return a + 1"), expect=(0,), extra=["--no-check"])
# declaration fields
for i, (b, why) in enumerate([('{"work": "n**2"}', "python power"), ('{"work": "n^"}', "dangling ^"),
                              ('{"work": "__import__(\'os\').system(\'touch PWNED\')"}', "code injection"),
                              ('{"work": "x"}', "unknown variable"), ('{"bogus": "n"}', "unknown measure"),
                              ('{"work": 5}', "non-text formula"), ('"n"', "bounds not a mapping"),
                              ('{"work": "n" * 1001}', "1,001 characters"),
                              ('{"work": "(" * 101 + "n" + ")" * 101}', "nested 101 deep"),
                              ('{"work": ""}', "empty formula"), ('{"work": "log2()"}', "empty log"),
                              ('{"work": "exp(n)"}', "unknown function")]):
    modcase(f"mod-bounds-{i}", f"declaration bounds {why}: exit 2 (python power '**' is read as '^': accepted)", mod(bounds=b),
            check=not_exists("PWNED"), expect=(0, 2) if i == 0 else (2,))
for i, (b, why) in enumerate([('{"work": "n - n"}', "a formula that is 0"), ('{"work": "-n"}', "negative formula"),
                              ('{"work": "n / 0"}', "division by zero"), ('{"work": "sqrt(0 - n)"}', "sqrt of negative"),
                              ('{"work": "n^10000"}', "overflowing formula"), ('{"work": "1e400"}', "number overflowing a float")]):
    modcase(f"mod-bounds-float-{i}", f"bounds {why}: either refused (2) or judged without a traceback; no NaN verdict silently 0 (demanding)",
            mod(bounds=b), expect=(0, 1, 2), json_out=True)
    C(f"sweep-bounds-float-{i}", f"sweep with declared bounds {why}: refused (2) or a verdict (0/1), never a traceback",
      ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64,128"], expect=(0, 1, 2), files={"m.py": mod(bounds=b)})
for i, (kw, why) in enumerate([(", model='bogus'", "unknown model"), (", model=5", "model not text"),
                               (", tolerance=-1.0", "negative tolerance"), (", tolerance=float('nan')", "NaN tolerance"),
                               (", tolerance=float('inf')", "infinite tolerance"), (", tolerance='1e-9'", "tolerance as text"),
                               (", n=0", "n = 0"), (", n=-5", "negative n"), (", n='64'", "n as text"), (", n=8.5", "n = 8.5"),
                               (", n=True", "n = True"),
                               (", sizes=[]", "no sizes"), (", sizes=[0, 8]", "size 0"), (", sizes='16,32'", "sizes as text"),
                               (", title=5", "title not text")]):
    modcase(f"mod-decl-{i}", f"declaration with {why}: exit 2 one line", mod(kw=kw))
modcase("mod-name-space", "declaration name with a space", mod(name="my copy"))
modcase("mod-name-builtin", "declaration named like a built-in (sort)", mod(name="sort"))
modcase("mod-name-empty", "declaration name empty", mod(name=""))
modcase("mod-name-slash", "declaration name with a slash (would be a folder in report)", mod(name="../evil"))
modcase("mod-name-unicode", "declaration name with non-ASCII letters", mod(name="kopi\u00e9"), expect=(0, 2))
modcase("mod-two-same", "two declarations of one name: refused", mod() + "\ncopy2 = pram.Algorithm(name='copy', build=_build, program=_prog, reference=_ref)\n")
modcase("mod-no-such-name", "NAME not in the module: lists declarations", BASE, names=["copy"])
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "nosuch", "--n", "8"]
modcase("mod-name-notalg", "NAME is a function, not an Algorithm", BASE, names=["_build"])
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "_build", "--n", "8"]
modcase("mod-name-twice", "FILE:NAME and NAME both given", BASE)
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py:copy", "copy", "--n", "8"]
modcase("mod-name-missing", "NAME missing", BASE)
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "--n", "8"]
modcase("mod-name-emptystr", "NAME ''", BASE)
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "", "--n", "8"]
modcase("mod-colon-form", "FILE:NAME form runs", BASE, expect=(0,))
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py:copy", "--n", "8"]
modcase("mod-colon-empty", "FILE: with empty NAME", BASE)
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py:", "--n", "8"]
modcase("mod-by-name-attr", "NAME found through the declaration's name (variable differs)", mod(var="segmented", name="copy"), expect=(0,))
modcase("mod-declare-deco", "@pram.declare on the program", """import numpy as np, pram
from pram import Read, Step, Write, iota
@pram.declare(build=lambda n, rng: rng.integers(0, 9, n), reference=lambda a: a.copy(), bounds={"work": "n"})
def copy(m, a):
    n = len(a); b = m.array("b", n); pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    yield Step(pid, writes=[Write(b, iota(n), x)])
    return b
""", expect=(0,))
modcase("mod-sig-build", "build with a wrong signature: refused naming it", mod().replace("def _build(n, rng):", "def _build(n):"), names=["build"])
modcase("mod-sig-prog", "program with a wrong signature", mod().replace("def _prog(m, a):", "def _prog(m):\n    a = None"), names=["program"])
modcase("mod-sig-ref", "reference with a wrong signature", mod().replace("def _ref(a):", "def _ref():"), names=["reference"])
modcase("mod-sig-load", "load with a wrong signature, --input", mod().replace("def _load(path):", "def _load():\n    path = 'x'"),
        names=["load"], files={"in.npy": npy("np.arange(8)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-noload-input", "--input for a declaration without load", BASE.replace(", load=_load", ""),
        files={"in.npy": npy("np.arange(8)")}, names=["load"])
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-load-badtype", "load returns a string", mod(load="return 'x'"), files={"in.npy": npy("np.arange(8)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-load-ok", "load works; input file unchanged", BASE, expect=(0,), files={"in.npy": npy("np.arange(8)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-load-mutates-file", "load that deletes its input file: user's own doing, no traceback",
        mod(load="x = np.load(path); return x"), expect=(0,), files={"in.npy": npy("np.arange(8)")})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--input", "in.npy"]
modcase("mod-keys-opt", "--keys word given to a declaration: refused (documented)", BASE, extra=["--keys", "word"], names=["--keys"])
modcase("mod-d-opt", "--d given to a declaration: refused", BASE, extra=["--d", "8"], names=["--d"])
modcase("mod-n-and-input", "--n with --input: refused", BASE, files={"in.npy": npy("np.arange(8)")}, names=["--n"])
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--input", "in.npy"]
modcase("mod-model-erew-concurrent", "crew declaration run under --model erew with concurrent reads: exit 1",
        mod(prog_pre="(y,) = yield Step(m.processors(len(a)), reads=[Read(a, np.zeros(len(a), dtype=np.int64))])", kw=", model='crew'"),
        expect=(1,), extra=["--model", "erew"])
modcase("mod-helper-import", "module imports a sibling helper.py next to it (demanding: as `python m.py` would)",
        "from helper import K\n" + BASE, expect=(0,), files={"helper.py": "K = 1\n"})
modcase("mod-helper-import-otherdir", "module in sub/ imports its sibling sub/helper.py, run from cwd (demanding)",
        "", expect=(0,), files={"sub/m.py": "from helper import K\n" + BASE, "sub/helper.py": "K = 1\n"})
CASES[-1]["cmd"] = ["{P}", "run", "--module", "sub/m.py", "copy", "--n", "8"]

# ---- module paths ---------------------------------------------------------------------
def mk_fifo(d):
    os.mkfifo(os.path.join(d, "fifo.py"))


C("modpath-missing", "--module file missing", ["{P}", "run", "--module", "nope.py", "copy"], names=["nope.py"])
C("modpath-dir", "--module is a directory", ["{P}", "run", "--module", "sub", "copy"], setup=lambda d: os.mkdir(os.path.join(d, "sub")), names=["sub"])
C("modpath-dirpy", "--module is a directory named x.py", ["{P}", "run", "--module", "x.py", "copy"], setup=lambda d: os.mkdir(os.path.join(d, "x.py")), names=["x.py"])
C("modpath-txt", "--module is a .txt", ["{P}", "run", "--module", "m.txt", "copy"], files={"m.txt": BASE}, names=["m.txt"])
C("modpath-fifo", "--module is a FIFO named .py: refused, no hang", ["{P}", "run", "--module", "fifo.py", "copy"], setup=mk_fifo, timeout=30, names=["fifo.py"])
C("modpath-devnull", "--module /dev/null", ["{P}", "run", "--module", "/dev/null", "copy"], names=["/dev/null"])
C("modpath-devzero-py", "--module symlink x.py -> /dev/zero: refused, no hang/memory blowup",
  ["{P}", "run", "--module", "x.py", "copy"], setup=lambda d: os.symlink("/dev/zero", os.path.join(d, "x.py")), timeout=30)
C("modpath-symlink", "--module symlink to a valid module: runs", ["{P}", "run", "--module", "l.py", "copy", "--n", "8"],
  files={"real.py": BASE}, setup=lambda d: os.symlink("real.py", os.path.join(d, "l.py")), expect=(0,))
C("modpath-dangling", "--module dangling symlink", ["{P}", "run", "--module", "l.py", "copy"],
  setup=lambda d: os.symlink("gone.py", os.path.join(d, "l.py")), names=["l.py"])
C("modpath-symloop", "--module symlink loop", ["{P}", "run", "--module", "l.py", "copy"],
  setup=lambda d: (os.symlink("k.py", os.path.join(d, "l.py")), os.symlink("l.py", os.path.join(d, "k.py"))), names=["l.py"])
C("modpath-spaces", "--module path with spaces and unicode", ["{P}", "run", "--module", "my m\u00f6d ule.py", "copy", "--n", "8"],
  files={"my m\u00f6d ule.py": BASE}, expect=(0,))
C("modpath-hyphen", "--module file named with hyphens (not an identifier)", ["{P}", "run", "--module", "my-mod.py", "copy", "--n", "8"],
  files={"my-mod.py": BASE}, expect=(0,))
C("modpath-dotted", "--module file named a.b.py", ["{P}", "run", "--module", "a.b.py", "copy", "--n", "8"],
  files={"a.b.py": BASE}, expect=(0,))
C("modpath-nonutf8", "--module path with non-UTF-8 bytes: runs (or refuses with an escaped name), never a traceback",
  [b"{P}", b"run", b"--module", b"m\xff.py", b"copy", b"--n", b"8"], files={b"m\xff.py": BASE}, expect=(0,))
C("modpath-nonutf8-missing", "--module non-UTF-8 missing path: one line, escaped",
  [b"{P}", b"run", b"--module", b"z\xfe.py", b"copy"])
C("modpath-pramname", "module file named pram.py (shadows the package?)", ["{P}", "run", "--module", "pram.py", "copy", "--n", "8"],
  files={"pram.py": BASE}, expect=(0, 2))
C("modpath-numpyname", "module file named numpy.py", ["{P}", "run", "--module", "numpy.py", "copy", "--n", "8"],
  files={"numpy.py": BASE}, expect=(0, 2))
C("modpath-empty", "--module ''", ["{P}", "run", "--module", "", "copy"])
C("modpath-pkg", "package.module:NAME importable from cwd", ["{P}", "run", "--module", "pkg.mm:copy", "--n", "8"],
  files={"pkg/__init__.py": "", "pkg/mm.py": BASE}, expect=(0,))
C("modpath-pkg-sep", "package.module NAME form", ["{P}", "run", "--module", "pkg.mm", "copy", "--n", "8"],
  files={"pkg/__init__.py": "", "pkg/mm.py": BASE}, expect=(0,))
C("modpath-nspkg", "namespace package (no __init__)", ["{P}", "run", "--module", "nspkg.mm:copy", "--n", "8"],
  files={"nspkg/mm.py": BASE}, expect=(0,))
C("modpath-pkg-relimport", "package module with a relative import", ["{P}", "run", "--module", "pkg.mm:copy", "--n", "8"],
  files={"pkg/__init__.py": "", "pkg/helper.py": "K=1\n", "pkg/mm.py": "from .helper import K\n" + BASE}, expect=(0,))
C("modpath-pkg-initraise", "package whose __init__ raises", ["{P}", "run", "--module", "pkg.mm:copy", "--n", "8"],
  files={"pkg/__init__.py": "raise RuntimeError('init boom')\n", "pkg/mm.py": BASE}, names=["pkg"])
C("modpath-pkg-missing", "package.module that does not exist", ["{P}", "run", "--module", "nosuchpkg.mod:copy"], names=["nosuchpkg"])
C("modpath-pkg-os", "os.path:sep (not an Algorithm)", ["{P}", "run", "--module", "os.path:sep"], names=["sep"])
C("modpath-pram-machine", "pram:Machine (not an Algorithm)", ["{P}", "run", "--module", "pram:Machine"], names=["Machine"])
C("modpath-pkg-only", "a package (no module) as --module", ["{P}", "run", "--module", "pkg:copy", "--n", "8"],
  files={"pkg/__init__.py": BASE}, expect=(0, 2))
C("modpath-dotdot", "package.module with empty parts ('..')", ["{P}", "run", "--module", "pkg..mm:copy"], files={"pkg/__init__.py": ""})
C("modpath-pkg-sysexit", "package module calling sys.exit(0) at import", ["{P}", "run", "--module", "pkg.mm:copy"],
  files={"pkg/__init__.py": "", "pkg/mm.py": "import sys\nsys.exit(0)\n"}, names=["mm"])
C("modpath-pkg-syntax", "package module with a syntax error", ["{P}", "run", "--module", "pkg.mm:copy"],
  files={"pkg/__init__.py": "", "pkg/mm.py": "def (\n"}, names=["mm.py"])
C("modpath-stdlib-shadow", "package.module where cwd has json/ package shadowing stdlib? (json.mm)", ["{P}", "run", "--module", "json.mm:copy"],
  files={}, names=["json"])
C("modpath-trace", "pram trace --module works", ["{P}", "trace", "--module", "m.py", "copy", "--n", "8", "--html", "t.html"],
  files={"m.py": BASE}, expect=(0,), check=exists("t.html"))
C("modpath-sweep-workers-print", "sweep --module --workers 2 --json with a printing module: one object",
  ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64,128", "--workers", "2", "--json"],
  files={"m.py": "print('imported')\n" + mod(build="print('b'); return rng.integers(0, 100, n)")}, expect=(0,), json_out=True)
C("modpath-sweep-workers-raise", "sweep --workers 2 where build raises at n=64: exit 2 one line",
  ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64,128", "--workers", "2"],
  files={"m.py": mod(build="if n == 64: raise ValueError('n64')\nreturn rng.integers(0, 100, n)")}, names=["m.py"])
C("modpath-sweep-workers-osexit", "sweep --workers 2 where program os._exit()s in a worker: exit 2 one line, no hang",
  ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64,128", "--workers", "2"],
  files={"m.py": mod(prog_pre="if len(a) == 64: os._exit(0)")}, names=["m.py"])
C("modpath-sweep-workers-changed", "module changed to raise on second import (workers import again): clean error",
  ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64,128", "--workers", "2"],
  files={"m.py": "import os\nif os.path.exists('mark'):\n    raise RuntimeError('second import')\nopen('mark','w').close()\n" + BASE},
  expect=(0, 2), may_change={"mark"})
C("modpath-report", "pram report --module writes DIR/copy", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep"],
  files={"m.py": BASE}, expect=(0,), check=exists("rep/copy/summary.md"), timeout=60)
C("modpath-report-quick", "pram report --module --quick: refused (documented)", ["{P}", "report", "--module", "m.py", "copy", "--quick"],
  files={"m.py": BASE}, names=["--quick"])
C("modpath-report-out-is-file", "pram report --module --out is a file", ["{P}", "report", "--module", "m.py", "copy", "--out", "m.py"],
  files={"m.py": BASE}, names=["m.py"])
C("modpath-report-dotdot-name", "report of a declaration named '..' style (name validated)", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep"],
  files={"m.py": mod(name="..")})

# ---- instances ------------------------------------------------------------------------
for v in ["0", "-1", "abc", "1.5", "", "1e3", "0x10", "99999999999999999999999"]:
    C(f"inst-bad-{v or 'empty'}", f"--instances {v!r}: refused", ["{P}", "run", "sort", "--n", "8", "--instances", v], names=["--instances"])
C("inst-huge", "--instances 10**12: refused by the guard before work, no hang", ["{P}", "run", "sort", "--n", "8", "--instances", "1000000000000"], timeout=30, names=["--instances"])
C("inst-huge-mqar-mem", "--instances 1024 --max-memory 1G mqar: refused (documented)", ["{P}", "run", "mqar", "--instances", "1024", "--max-memory", "1G"], names=["--instances", "--max-memory"])
C("inst-input", "--instances with --input: refused", ["{P}", "run", "sort", "--input", "v.npy", "--instances", "3"], files={"v.npy": npy("np.arange(8)")})
C("inst-output", "--instances with --output: refused", ["{P}", "run", "sort", "--n", "8", "--instances", "3", "--output", "o.npy"], check=not_exists("o.npy"))
C("inst-weakest", "--instances with --weakest-model: refused", ["{P}", "run", "sort", "--n", "8", "--instances", "3", "--weakest-model"])
C("inst-workers-alone", "--workers 2 without --instances: refused", ["{P}", "run", "sort", "--n", "8", "--workers", "2"])
for v in ["0", "-1", "abc", "1.5", "100000000000"]:
    C(f"inst-workers-{v}", f"--instances 4 --workers {v}: refused (or clamped, 0) never a hang", ["{P}", "run", "sort", "--n", "8", "--instances", "4", "--workers", v],
      expect=(2,) if v != "100000000000" else (0, 2), timeout=45)
C("inst-ok-json", "--instances 3 --json: one object", ["{P}", "run", "sort", "--n", "8", "--instances", "3", "--json"], expect=(0,), json_out=True)
C("inst-workers-json", "--instances 5 --workers 2 --json", ["{P}", "run", "sort", "--n", "16", "--instances", "5", "--workers", "2", "--json"], expect=(0,), json_out=True)
C("inst-naive-json", "pbs-naive --instances 3 --json: exit 1 one object", ["{P}", "run", "pbs-naive", "--n", "16", "--instances", "3", "--json"], expect=(1,), json_out=True)
C("inst-raise-json", "pbs-naive --instances 3 --mode raise --json: exit 1 one object", ["{P}", "run", "pbs-naive", "--n", "16", "--instances", "3", "--mode", "raise", "--json"], expect=(1,), json_out=True)
C("inst-2000", "--instances 2000 (two batches)", ["{P}", "run", "sort", "--n", "8", "--instances", "2000", "--json"], expect=(0,), json_out=True,
  check=lambda rc, out, err, d: None if json.loads(out).get("instances") == 2000 else "instances field not 2000")
C("inst-seed-neg", "--instances with --seed -1", ["{P}", "run", "sort", "--n", "8", "--instances", "3", "--seed", "-1"], names=["--seed"])
C("inst-seed-huge", "--instances 3 --seed 2**64-2: seeds overflow past 2**64? refused or ok", ["{P}", "run", "sort", "--n", "8", "--instances", "3", "--seed", str(2**64 - 2)], expect=(0, 2))
C("inst-seqential", "mqar-sequential --instances 3 (off the machine)", ["{P}", "run", "mqar-sequential", "--n", "64", "--instances", "3", "--json"], expect=(0,), json_out=True)
C("inst-module", "--module with --instances 3", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--instances", "3", "--json"], files={"m.py": BASE}, expect=(0,), json_out=True)
C("inst-module-workers-print", "--module printing, --instances 4 --workers 2 --json", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--instances", "4", "--workers", "2", "--json"],
  files={"m.py": "print('imp')\n" + BASE}, expect=(0,), json_out=True)
C("inst-module-wrong-one", "--module whose reference is wrong for seed 2 only: exit 1", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--instances", "4", "--json"],
  files={"m.py": mod(build="return rng.integers(0, 100, n)", ref="return a.copy() if a[0] != 33 else a + 1")}, expect=(0, 1), json_out=True)
C("inst-module-build-raise", "--module build raises under --instances: exit 2 one line", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--instances", "4"],
  files={"m.py": mod(build="raise ValueError('x')")}, names=["m.py"])
C("inst-sweep-bound", "sweep --instances with --bound: refused (documented 'not yet')", ["{P}", "sweep", "sort", "--n", "8,16", "--instances", "2", "--bound", "work=n"], names=["--bound"])
C("inst-sweep-workers-json", "sweep --instances 2 --workers 2 --json", ["{P}", "sweep", "sort", "--n", "8,16,32", "--instances", "2", "--workers", "2", "--json"], expect=(0,), json_out=True)
C("inst-dask-closed", "--dask tcp://127.0.0.1:1 (nothing listening): one line, exit 2, within seconds", ["{P}", "run", "sort", "--n", "8", "--instances", "2", "--dask", "tcp://127.0.0.1:1"], timeout=40)
C("inst-dask-http", "--dask http://127.0.0.1:1", ["{P}", "run", "sort", "--n", "8", "--instances", "2", "--dask", "http://127.0.0.1:1"], timeout=40)
C("inst-dask-garbage", "--dask 'not an address'", ["{P}", "run", "sort", "--n", "8", "--instances", "2", "--dask", "not an address"], timeout=40)
C("inst-dask-and-workers", "--dask and --workers both", ["{P}", "run", "sort", "--n", "8", "--instances", "2", "--dask", "tcp://127.0.0.1:1", "--workers", "2"], timeout=40, expect=(2,))
C("inst-bits-workers", "mqar --keys bits --instances 2 --workers 2 --json (one machine per instance)", ["{P}", "run", "mqar", "--n", "64", "--keys", "bits", "--instances", "2", "--workers", "2", "--json"], expect=(0,), json_out=True)
for v in ["", "0", "0.5", "-1", "abc", "1K", "8GiB", "8g", "inf", "nan", "1e3", "99999999999999999999T", "8 G"]:
    ex = (2,) if v not in ("8g", "8GiB", "8 G", "99999999999999999999T") else (0, 2)
    C(f"mem-{v.replace(' ', '_') or 'empty'}", f"--max-memory {v!r}: strict (documented refusals), else runs", ["{P}", "run", "sort", "--n", "8", "--max-memory", v], expect=ex)
C("mem-sweep-huge-n", "sweep --n 8,10**12: refused by guard before any run", ["{P}", "sweep", "sort", "--n", "8,1000000000000", "--max-memory", "1G"], timeout=30, names=["--n"])
C("mem-circuit-huge", "circuit sort --n 10**12: refused quickly", ["{P}", "circuit", "sort", "--n", "1000000000000"], timeout=30)
C("mem-example-huge", "example tokens --n 10**13 --max-memory 1G: refused, nothing written", ["{P}", "example", "tokens", "t.npy", "--n", "10000000000000", "--max-memory", "1G"], check=not_exists("t.npy"), timeout=30)
C("mem-zoology", "zoology --max-memory 1K", ["{P}", "zoology", "b.npz", "--max-memory", "1K"], setup=lambda d: subprocess.run([PRAM, "example", "batch", os.path.join(d, "b.npz"), "--n", "16"], capture_output=True))
C("mem-trace-huge-n", "trace sort --n 10**9: refused (trace cells / memory) quickly", ["{P}", "trace", "sort", "--n", "1000000000", "--html", "t.html"], timeout=30, check=not_exists("t.html"))

# ---- traces ---------------------------------------------------------------------------
T = ["{P}", "trace", "sort", "--n", "8"]
C("tr-ok", "trace sort --html", T + ["--html", "t.html"], expect=(0,), check=exists("t.html"))
C("tr-naive", "trace pbs-naive exits 0 (documented)", ["{P}", "trace", "pbs-naive", "--n", "16", "--html", "t.html"], expect=(0,))
C("tr-json", "trace --json --html: one object", T + ["--html", "t.html", "--json"], expect=(0,), json_out=True)
C("tr-json-steps", "trace --json --steps: one object (tables must not leak on stdout)", T + ["--steps", "1-2", "--json"], expect=(0,), json_out=True)
C("tr-dir", "--html is a directory", T + ["--html", "out"], setup=lambda d: os.mkdir(os.path.join(d, "out")), names=["out"])
C("tr-nodir", "--html in a missing folder", T + ["--html", "no/such/t.html"], names=["no/such"])
C("tr-same-module", "--html is the --module file: refused, module unchanged", ["{P}", "trace", "--module", "m.py", "copy", "--n", "8", "--html", "m.py"], files={"m.py": BASE}, names=["m.py"])
C("tr-link-module", "--html is a link to the module: refused", ["{P}", "trace", "--module", "m.py", "copy", "--n", "8", "--html", "l.html"], files={"m.py": BASE},
  setup=lambda d: os.symlink("m.py", os.path.join(d, "l.html")), names=["l.html"])
C("tr-same-input", "--html is the --input file", ["{P}", "trace", "sort", "--input", "v.npy", "--html", "v.npy"], files={"v.npy": npy("np.arange(8)")}, names=["v.npy"])
C("tr-hardlink-input", "--html is a hard link to the --input file (same inode)", ["{P}", "trace", "sort", "--input", "v.npy", "--html", "h.html"], files={"v.npy": npy("np.arange(8)")},
  setup=lambda d: os.link(os.path.join(d, "v.npy"), os.path.join(d, "h.html")))
C("tr-fifo", "--html is a FIFO: refused, no hang", T + ["--html", "f.html"], setup=lambda d: os.mkfifo(os.path.join(d, "f.html")), timeout=30, names=["f.html"])
C("tr-devfull", "--html /dev/full: refused (a device)", T + ["--html", "/dev/full"], names=["/dev/full"])
C("tr-txt", "--html x.txt: refused or written as named", T + ["--html", "x.txt"], expect=(0, 2))
C("tr-keep-old", "trace refused by --trace-cells 10: previous t.html kept", T + ["--html", "t.html", "--trace-cells", "10"], files={"t.html": "OLD PAGE"}, names=["--trace-cells"])
for v in ["0", "-1", "abc", "1.5", "", "1e6"]:
    C(f"tr-cells-{v or 'empty'}", f"--trace-cells {v!r}", T + ["--html", "t.html", "--trace-cells", v], names=["--trace-cells"], check=not_exists("t.html"))
for i, v in enumerate(["0", "5-1", "abc", "", "-1", "1,,2", "1-", "99999", "1-99999999999999999999", "2.5"]):
    C(f"tr-steps-{i}", f"--steps {v!r}: refused in one line (99999: beyond the run, refused or nothing, never a traceback)", T + ["--steps", v],
      expect=(2,) if v not in ("99999", "1-99999999999999999999", "1-") else (0, 2))
C("tr-seq", "trace mqar-sequential: refused (documented)", ["{P}", "trace", "mqar-sequential", "--n", "8", "--html", "t.html"])
C("tr-nonutf8", "--html with a non-UTF-8 name", [b"{P}", b"trace", b"sort", b"--n", b"8", b"--html", b"t\xff.html"], expect=(0,),
  check=lambda rc, out, err, d: None if os.path.exists(os.path.join(os.fsencode(d), b"t\xff.html")) else "not written under its name")
C("tr-upper", "--html T.HTML written under exactly that name", T + ["--html", "T.HTML"], expect=(0, 2),
  check=lambda rc, out, err, d: None if rc == 2 or os.listdir(d) == ["T.HTML"] else f"files: {os.listdir(d)}")
C("tr-depth", "trace --depth --html", ["{P}", "trace", "mqar", "--n", "16", "--depth", "--html", "t.html"], expect=(0,))
C("tr-html-steps-json-naive", "trace pbs-naive --mode raise --json: one object", ["{P}", "trace", "pbs-naive", "--n", "16", "--mode", "raise", "--json", "--html", "t.html"], expect=(0, 1), json_out=True)
C("tr-instances", "trace --instances: not an option of trace, one line", T + ["--instances", "3"])
C("tr-module-raise", "trace of a module whose program raises: exit 2 one line", ["{P}", "trace", "--module", "m.py", "copy", "--n", "8", "--html", "t.html"],
  files={"m.py": mod(prog_pre="raise ValueError('p')")}, names=["m.py"], check=not_exists("t.html"))
C("tr-readonly-dir", "--html into a read-only folder (ro tmpfs): refused before work", T + ["--html", "ro/t.html"], setup="ro")
C("tr-full-disk", "--html onto a full disk (tiny tmpfs): one line naming the disk, old file whole", ["{P}", "trace", "mqar", "--n", "256", "--html", "full/t.html"],
  setup="full", expect=(1, 2), check=stderr_has("t.html"))

# ---- files: inputs --------------------------------------------------------------------
S = ["{P}", "run", "sort", "--input", "v.npy"]
for name, expr, ex in [
    ("float", "np.array([3.0, 1.0, 2.0])", (2,)), ("nan", "np.array([np.nan, 1.0, 2.0])", (2,)),
    ("inf", "np.array([np.inf, 1.0])", (2,)), ("negzero", "np.array([-0.0, 0.0, 1.0])", (2,)),
    ("int64max", "np.array([2**63-1, 1])", (2,)), ("bit62", "np.array([2**62, 1])", (2,)),
    ("bit61", "np.array([2**61, 1, 5])", (0,)), ("negative", "np.array([-5, 3, -1])", (0, 2)),
    ("int64min", "np.array([-2**63, 0])", (2,)), ("uint64", "np.array([2**64-1, 1], dtype=np.uint64)", (2,)),
    ("uint64small", "np.array([3, 1, 2], dtype=np.uint64)", (0,)), ("bool", "np.array([True, False, True])", (0, 2)),
    ("object", "np.array([1, 'a', None], dtype=object)", (2,)), ("complex", "np.array([1+2j, 3])", (2,)),
    ("str", "np.array(['a', 'b'])", (2,)), ("struct", "np.zeros(3, dtype=[('a', 'i8'), ('b', 'f8')])", (2,)),
    ("zerod", "np.array(5)", (2,)), ("empty", "np.zeros(0, dtype=np.int64)", (2,)),
    ("twod", "np.arange(6).reshape(2, 3)", (2,)), ("bigendian", "np.array([3, 1, 2, 9], dtype='>i8')", (0,)),
    ("int8", "np.array([3, -1, 2], dtype=np.int8)", (0, 2)), ("float32int", "np.array([3, 1, 2], dtype=np.float32)", (2,)),
    ("fortran", "np.asfortranarray(np.arange(8))", (0,)), ("one", "np.array([7])", (0, 2)),
    ("datetime", "np.array(['2020-01-01'], dtype='datetime64[D]')", (2,)), ("timedelta", "np.array([1, 2], dtype='timedelta64[s]')", (2,)),
    ("float128", "np.array([1.0, 2.0], dtype=np.longdouble)", (2,)), ("masked-like", "np.array([[1, 2]], dtype=np.int64)[0]", (0,)),
    ("noncontig", "np.arange(16)[::2]", (0,)), ("float-huge", "np.array([1e300, 1.0])", (2,)),
]:
    chk = None
    if name in ("bigendian", "uint64small", "bit61", "noncontig", "fortran"):
        def chk(rc, out, err, d, expr=expr):
            import numpy as np
            o = np.load(os.path.join(d, "o.npy"))
            want = np.sort(np.asarray(eval(expr, {"np": np})).astype(np.int64))
            return None if o.tolist() == want.tolist() else f"answers {o.tolist()[:6]} != sorted input {want.tolist()[:6]} (silently changed)"
    C(f"in-{name}", f"sort --input .npy of {name}: refused with the fix, or run on the exact values", S + ["--output", "o.npy"], files={"v.npy": npy(expr)}, expect=ex, check=chk)
C("in-float-json", "float input refused with --json: stdout empty, one line", S + ["--json"], files={"v.npy": npy("np.array([1.5])")}, json_out=True)
C("in-pickle", "a pickled object saved as .npy (allow_pickle) is never loaded", S, files={"v.npy": npy("np.array([{'a': 1}], dtype=object)")})
def w_trunc(d):
    import numpy as np
    np.save(os.path.join(d, "full.npy"), np.arange(1000))
    b = open(os.path.join(d, "full.npy"), "rb").read()
    open(os.path.join(d, "v.npy"), "wb").write(b[:len(b) // 2])
C("in-truncated", "truncated .npy", S, setup=w_trunc, names=["v.npy"])
def w_hugehdr(d):
    hdr = "{'descr': '<i8', 'fortran_order': False, 'shape': (1000000000000,), }"
    hdr = hdr + " " * (118 - len(hdr)) + "\n"
    open(os.path.join(d, "v.npy"), "wb").write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode() + b"\0" * 64)
C("in-hugeheader", "npy header declaring 10**12 elements, small file: refused at once", S, setup=w_hugehdr, timeout=30)
def w_badhdr(d):
    open(os.path.join(d, "v.npy"), "wb").write(b"\x93NUMPY\x01\x00\x10\x00{'descr': evil}\n")
C("in-badheader", "npy with a corrupt header", S, setup=w_badhdr)
def w_evalhdr(d):
    hdr = "{'descr': __import__('os').system('touch PWNED'), 'fortran_order': False, 'shape': (3,), }"
    hdr = hdr + " " * (((len(hdr) + 11) // 64 + 1) * 64 - len(hdr) - 11) + "\n"
    open(os.path.join(d, "v.npy"), "wb").write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode() + b"\0" * 24)
C("in-evalheader", "npy header with code: never executed", S, setup=w_evalhdr, check=not_exists("PWNED"))
C("in-text", "a text file named .npy", S, files={"v.npy": "1 2 3\n"})
C("in-empty-file", "an empty .npy file", S, files={"v.npy": b""})
C("in-missing", "--input missing", S, names=["v.npy"])
C("in-dir", "--input is a directory", S, setup=lambda d: os.mkdir(os.path.join(d, "v.npy")), names=["v.npy"])
C("in-fifo", "--input is a FIFO: refused, no hang", S, setup=lambda d: os.mkfifo(os.path.join(d, "v.npy")), timeout=30, names=["v.npy"])
C("in-devzero", "--input /dev/zero: refused, no hang", ["{P}", "run", "sort", "--input", "/dev/zero"], timeout=30, names=["/dev/zero"])
C("in-devnull", "--input /dev/null", ["{P}", "run", "sort", "--input", "/dev/null"], names=["/dev/null"])
C("in-symlink", "--input symlink to a valid file", ["{P}", "run", "sort", "--input", "l.npy"], files={"v.npy": npy("np.arange(8)")},
  setup=lambda d: os.symlink("v.npy", os.path.join(d, "l.npy")), expect=(0,))
C("in-dangling", "--input dangling symlink", ["{P}", "run", "sort", "--input", "l.npy"], setup=lambda d: os.symlink("x.npy", os.path.join(d, "l.npy")), names=["l.npy"])
C("in-ext-npz-for-sort", "sort --input .npz", ["{P}", "run", "sort", "--input", "v.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "v.npz"), values=__import__("numpy").arange(8)), expect=(0, 2))
C("in-npz-empty", "pbs --input with an empty .npz", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "s.npz")))
C("in-npz-wrongkeys", "pbs --input .npz with wrong keys", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "s.npz"), a=__import__("numpy").arange(4)), names=["s.npz"])
C("in-npz-unsorted", "pbs --input with unsorted keys", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "s.npz"), queries=__import__("numpy").array([3, 1]), keys=__import__("numpy").array([5, 2, 9])), expect=(2,))
C("in-npz-float", "pbs --input with float queries", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "s.npz"), queries=__import__("numpy").array([1.5, 2.0]), keys=__import__("numpy").array([1, 2, 3])))
C("in-npz-nan", "pbs --input with NaN keys", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "s.npz"), queries=__import__("numpy").array([1, 2]), keys=__import__("numpy").array([np_nan() for _ in range(3)])))
def w_zipbomb(d):
    import zipfile
    with zipfile.ZipFile(os.path.join(d, "s.npz"), "w", compression=zipfile.ZIP_DEFLATED) as z:
        hdr = "{'descr': '<i8', 'fortran_order': False, 'shape': (500000000,), }"
        hdr = hdr + " " * (118 - len(hdr)) + "\n"
        with z.open("queries.npy", "w", force_zip64=True) as f:
            f.write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr.encode())
            chunk = b"\0" * (1 << 20)
            for _ in range(60):
                f.write(chunk)
        z.writestr("keys.npy", b"")
C("in-zipbomb", "npz whose member declares 4 GB (small zip): refused at once", ["{P}", "run", "pbs", "--input", "s.npz", "--max-memory", "1G"], setup=w_zipbomb, timeout=30)
C("in-zip-notnpz", "a zip of text files named .npz", ["{P}", "run", "pbs", "--input", "s.npz"], setup=lambda d: __import__("zipfile").ZipFile(os.path.join(d, "s.npz"), "w").writestr("a.txt", "hi"))
C("in-n-and-input", "--n with --input", ["{P}", "run", "sort", "--n", "8", "--input", "v.npy"], files={"v.npy": npy("np.arange(8)")}, names=["--n"])
C("in-mqar-d-small", "mqar --input tokens wider than --d", ["{P}", "run", "mqar", "--input", "t.npy", "--d", "2"], files={"t.npy": npy("np.arange(64) * 1000")}, names=["--d"])
C("in-mqar-float", "mqar --input float tokens", ["{P}", "run", "mqar", "--input", "t.npy"], files={"t.npy": npy("np.arange(64) * 1.0")})
C("in-mqar-odd", "mqar --input of odd length (key/value pairs?)", ["{P}", "run", "mqar", "--input", "t.npy"], files={"t.npy": npy("np.arange(7)")}, expect=(0, 2))
C("in-mqar-neg", "mqar --input negative tokens", ["{P}", "run", "mqar", "--input", "t.npy"], files={"t.npy": npy("-np.arange(64)")}, expect=(0, 2))
# ---- files: outputs -------------------------------------------------------------------
O = ["{P}", "run", "sort", "--input", "v.npy", "--output"]
VF = {"v.npy": npy("np.array([5, 3, 9, 1])")}
C("out-same-input", "--output equal to --input: refused, input intact", O + ["v.npy"], files=VF, names=["v.npy"])
C("out-same-input-dotslash", "--output ./v.npy vs --input v.npy (same file, other spelling)", O + ["./v.npy"], files=VF)
C("out-same-input-abs", "--output absolute path of the input", O + ["{D}/v.npy"], files=VF)
C("out-symlink-input", "--output a symlink to the input", O + ["l.npy"], files=VF, setup=lambda d: os.symlink("v.npy", os.path.join(d, "l.npy")), names=["l.npy"])
C("out-hardlink-input", "--output a hard link of the input (same inode: is an input)", O + ["h.npy"], files=VF, setup=lambda d: os.link(os.path.join(d, "v.npy"), os.path.join(d, "h.npy")))
C("out-symlink-module", "--output a link to the --module file", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--output", "l.npy"],
  files={"m.py": BASE}, setup=lambda d: os.symlink("m.py", os.path.join(d, "l.npy")))
C("out-is-module", "--output is the module (renamed .npy module?) m.npy? -> module named m.py; output m.py refused", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--output", "m.py"], files={"m.py": BASE})
C("out-dir", "--output is a directory", O + ["d.npy"], files=VF, setup=lambda d: os.mkdir(os.path.join(d, "d.npy")), names=["d.npy"])
C("out-nodir", "--output in a missing folder", O + ["no/o.npy"], files=VF, names=["no/o.npy"])
C("out-fifo", "--output a FIFO: refused, no hang", O + ["f.npy"], files=VF, setup=lambda d: os.mkfifo(os.path.join(d, "f.npy")), timeout=30)
C("out-devfull", "--output /dev/full", O + ["/dev/full"], files=VF)
C("out-noext", "--output without .npy: refused with a fix (documented by its message)", O + ["o.txt"], files=VF, check=not_exists("o.txt"))
C("out-upper", "--output ANSWERS.NPY kept exactly (documented)", O + ["ANSWERS.NPY"], files=VF, expect=(0,), check=exists("ANSWERS.NPY"))
C("out-dangling-link", "--output a dangling symlink (to a new file)", O + ["l.npy"], files=VF, setup=lambda d: os.symlink("target.npy", os.path.join(d, "l.npy")), expect=(0, 2))
C("out-link-to-dir", "--output a symlink to a directory", O + ["l.npy"], files=VF, setup=lambda d: (os.mkdir(os.path.join(d, "dd")), os.symlink("dd", os.path.join(d, "l.npy"))))
C("out-overwrite", "--output over an existing file: replaced (0)", O + ["o.npy"], files=dict(VF, **{"o.npy": npy("np.arange(3)")}), expect=(0,), may_change={"o.npy"})
C("out-failed-run-keeps", "--output on a run refused (bad --n): the old file is whole", ["{P}", "run", "sort", "--n", "-3", "--output", "o.npy"], files={"o.npy": "OLD"})
C("out-nonutf8", "--output with a non-UTF-8 name", [b"{P}", b"run", b"sort", b"--n", b"8", b"--output", b"o\xff.npy"], expect=(0,),
  check=lambda rc, out, err, d: None if os.path.exists(os.path.join(os.fsencode(d), b"o\xff.npy")) else "not written under its name")
C("out-readonly", "--output into a read-only folder: refused before work", ["{P}", "run", "sort", "--n", "8", "--output", "ro/o.npy"], setup="ro")
C("out-readonly-existing", "--output replacing a file in a read-only folder: refused, file intact", ["{P}", "run", "sort", "--n", "8", "--output", "ro/old.npy"], setup="ro")
C("out-fulldisk", "--output on a full disk: one line naming it, nothing half-written", ["{P}", "run", "sort", "--n", "100000", "--output", "full/o.npy"],
  setup="full", expect=(1, 2), check=stderr_has("o.npy"), timeout=60)
C("out-fulldisk-old", "--output replacing a file on a full disk: old file whole", ["{P}", "run", "sort", "--n", "100000", "--output", "full/old.npy"],
  setup="full", expect=(1, 2), timeout=60)
C("out-json", "--output with --json: one object", ["{P}", "run", "sort", "--n", "8", "--output", "o.npy", "--json"], expect=(0,), json_out=True)
C("out-failcheck", "--output of a run with a violation (exit 1): no traceback", ["{P}", "run", "pbs-naive", "--n", "16", "--output", "o.npy"], expect=(1,))
C("out-float-module", "float declaration --output keeps float64", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--output", "o.npy"], files={"m.py": FLOATMOD}, expect=(0,),
  check=lambda rc, out, err, d: None if str(__import__("numpy").load(os.path.join(d, "o.npy")).dtype) == "float64" else "not float64")
C("out-nan-module", "float declaration with NaN --output: NaN kept", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--output", "o.npy"],
  files={"m.py": mod(build="x = np.full(n, np.nan); return x", bdtype=", dtype=float")}, expect=(0,),
  check=lambda rc, out, err, d: None if __import__("numpy").isnan(__import__("numpy").load(os.path.join(d, "o.npy"))).all() else "NaN lost")
# plots
P = ["{P}", "sweep", "sort", "--n", "8,16,32", "--plot"]
C("plot-ok", "--plot p.png", P + ["p.png"], expect=(0,), check=exists("p.png"))
C("plot-svg", "--plot p.svg", P + ["p.svg"], expect=(0,), check=exists("p.svg"))
C("plot-txt", "--plot p.txt refused", P + ["p.txt"], names=["p.txt"])
C("plot-dir", "--plot a directory", P + ["d.png"], setup=lambda d: os.mkdir(os.path.join(d, "d.png")))
C("plot-nodir", "--plot in a missing folder", P + ["no/p.png"])
C("plot-module", "--plot a link to the module", ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16", "--plot", "l.png"], files={"m.py": BASE},
  setup=lambda d: os.symlink("m.py", os.path.join(d, "l.png")))
C("plot-fifo", "--plot a FIFO", P + ["f.png"], setup=lambda d: os.mkfifo(os.path.join(d, "f.png")), timeout=30)
C("plot-mplbogus", "MPLBACKEND=bogus with --plot (demanding: pram picks its own backend, or one line)", P + ["p.png"], env={"MPLBACKEND": "bogus"}, expect=(0, 2))
C("plot-mpltk", "MPLBACKEND=TkAgg without a display", P + ["p.png"], env={"MPLBACKEND": "TkAgg", "DISPLAY": ""}, expect=(0, 2))
C("plot-mplconfig-ro", "MPLCONFIGDIR unwritable (a file)", P + ["p.png"], env={"MPLCONFIGDIR": "{D}/cfgfile"}, files={"cfgfile": "x"}, expect=(0,))
C("plot-readonly", "--plot into a read-only folder", P + ["ro/p.png"], setup="ro")
C("plot-fulldisk", "--plot onto a full disk", ["{P}", "sweep", "sort", "--n", "8,16,32", "--plot", "full/p.png"], setup="full", expect=(1, 2))
C("plot-upper", "--plot P.PNG accepted (case) and named exactly", P + ["P.PNG"], expect=(0, 2))
# example / circuit / zoology / lint files
C("ex-dir", "example to a directory", ["{P}", "example", "tokens", "d"], setup=lambda d: os.mkdir(os.path.join(d, "d")))
C("ex-kind", "example of an unknown KIND", ["{P}", "example", "bogus", "x.npy"])
C("ex-n0", "example --n 0", ["{P}", "example", "tokens", "x.npy", "--n", "0"], check=not_exists("x.npy"))
C("ex-ext", "example tokens to a .npz (wrong kind of file)", ["{P}", "example", "tokens", "x.npz"], expect=(0, 2))
C("ex-fifo", "example to a FIFO", ["{P}", "example", "tokens", "f.npy"], setup=lambda d: os.mkfifo(os.path.join(d, "f.npy")), timeout=30)
C("ex-devfull", "example to /dev/full", ["{P}", "example", "tokens", "/dev/full"])
C("ex-fulldisk", "example batch onto a full disk", ["{P}", "example", "tokens", "full/t.npy", "--n", "100000"], setup="full", expect=(1, 2))
C("ex-seed-neg", "example --seed -1", ["{P}", "example", "tokens", "x.npy", "--seed", "-1"])
C("zoo-missing", "zoology missing file", ["{P}", "zoology", "nope.npz"], names=["nope.npz"])
C("zoo-npy", "zoology on a .npy", ["{P}", "zoology", "v.npy"], files={"v.npy": npy("np.arange(4)")})
C("zoo-badkeys", "zoology npz missing labels", ["{P}", "zoology", "b.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "b.npz"), inputs=__import__("numpy").zeros((2, 8), dtype="i8")))
C("zoo-float", "zoology npz with float inputs", ["{P}", "zoology", "b.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "b.npz"), inputs=__import__("numpy").zeros((2, 8)), labels=__import__("numpy").zeros((2, 8)), num_kv_pairs=__import__("numpy").array(2)))
C("zoo-neg-kv", "zoology num_kv_pairs -1", ["{P}", "zoology", "b.npz"], setup=lambda d: __import__("numpy").savez(os.path.join(d, "b.npz"), inputs=__import__("numpy").zeros((2, 8), dtype="i8"), labels=__import__("numpy").zeros((2, 8), dtype="i8"), num_kv_pairs=__import__("numpy").array(-1)))
C("zoo-json-bad", "zoology --json on a bad file: stdout empty", ["{P}", "zoology", "--json", "b.npz"], files={"b.npz": "junk"}, json_out=True)
C("circ-merge-n6", "circuit merge --n 6 (not a power of two)", ["{P}", "circuit", "merge", "--n", "6"], names=["--n"])
C("circ-input-float", "circuit sort --input float", ["{P}", "circuit", "sort", "--input", "v.npy"], files={"v.npy": npy("np.array([1.5, 2.0])")})
C("circ-export-input", "circuit --export same as --input", ["{P}", "circuit", "sort", "--input", "v.npy", "--export", "v.npy"], files={"v.npy": npy("np.arange(8)")})
C("circ-output-input", "circuit --output same as --input", ["{P}", "circuit", "sort", "--input", "v.npy", "--output", "v.npy"], files={"v.npy": npy("np.arange(8)")})
C("circ-format-noexport", "circuit --format dot without --export", ["{P}", "circuit", "sort", "--n", "8", "--format", "dot"], expect=(2,))
C("circ-export-dir", "circuit --export a directory", ["{P}", "circuit", "sort", "--n", "8", "--export", "dd"], setup=lambda d: os.mkdir(os.path.join(d, "dd")))
C("circ-export-json", "circuit --json --export: one object", ["{P}", "circuit", "sort", "--n", "8", "--export", "c.json", "--json"], expect=(0,), json_out=True)
C("circ-d0", "circuit compare --d 0", ["{P}", "circuit", "compare", "--d", "0"])
C("circ-input-wide", "circuit compare --input tokens wider than --d", ["{P}", "circuit", "compare", "--d", "4", "--input", "v.npy"], files={"v.npy": npy("np.array([1000, 3])")})
C("lint-missing", "lint a missing path", ["{P}", "lint", "nope.py"], names=["nope.py"])
C("lint-empty", "lint an empty file: 0", ["{P}", "lint", "e.py"], files={"e.py": ""}, expect=(0,))
C("lint-binary", "lint a binary file", ["{P}", "lint", "b.py"], files={"b.py": bytes(range(256))}, expect=(1, 2))
C("lint-latin1", "lint a latin-1 file without cookie", ["{P}", "lint", "b.py"], files={"b.py": b"x = '\xe9'\n"}, expect=(1, 2))
C("lint-syntax", "lint a file with a syntax error", ["{P}", "lint", "b.py"], files={"b.py": "def (:\n"}, expect=(1, 2))
C("lint-fifo", "lint a FIFO: no hang", ["{P}", "lint", "f.py"], setup=lambda d: os.mkfifo(os.path.join(d, "f.py")), timeout=30, expect=(0, 2))
C("lint-dir", "lint a directory of mixed files", ["{P}", "lint", "dd"], files={"dd/a.py": "x = 1\n", "dd/b.py": b"\xff\xfe\x00", "dd/c.txt": "no"}, expect=(0, 1, 2))
C("lint-symloop", "lint a directory with a symlink loop", ["{P}", "lint", "dd"], files={"dd/a.py": "x=1\n"}, setup=lambda d: os.symlink(".", os.path.join(d, "dd", "loop")), timeout=30, expect=(0, 1, 2))
C("lint-devzero", "lint /dev/zero: no hang", ["{P}", "lint", "/dev/zero"], timeout=30)
C("lint-nonutf8-name", "lint a file with a non-UTF-8 name", [b"{P}", b"lint", b"a\xff.py"], files={b"a\xff.py": "x = 1\n"}, expect=(0,))

# ---- numbers on the command line -----------------------------------------------------
for v in ["0", "-1", "abc", "1e3", "8.0", "nan", "inf", "99999999999999999999", " 8", "0x10", "\u0668"]:
    C(f"num-n-{v.strip() or 'sp'}", f"run sort --n {v!r}: refused (strictly positive integer)", ["{P}", "run", "sort", "--n", v], names=["--n"],
      expect=(2,) if v != " 8" else (0, 2))
for v in ["-1", "abc", "1.5", "nan", str(2**64), str(2**128)]:
    C(f"num-seed-{v[:8]}", f"run sort --seed {v!r}", ["{P}", "run", "sort", "--n", "8", "--seed", v], expect=(2,) if v in ("-1", "abc", "1.5", "nan") else (0, 2))
for v in ["-1", "8", "1000", "abc"]:
    C(f"num-k-{v}", f"selection --n 8 --k {v}", ["{P}", "run", "selection", "--n", "8", "--k", v], names=["--k"])
for v in ["0", "63", "1000", "-2"]:
    C(f"num-d-{v}", f"mqar --d {v}", ["{P}", "run", "mqar", "--n", "64", "--d", v], names=["--d"])
for v in ["-1", "abc", "0"]:
    C(f"num-phases-{v}", f"--phases {v}", ["{P}", "run", "mqar", "--n", "64", "--phases", v], expect=(2,) if v != "0" else (0, 2))
for i, v in enumerate(["", "8,,16", "16,8", "8,8,16", "8, 16", "8;16", "0,8", ",8", "8,"]):
    C(f"sw-n-{i}", f"sweep --n {v!r}: refused or (unsorted/duplicate) handled, never a traceback", ["{P}", "sweep", "sort", "--n", v],
      expect=(2,) if i not in (2, 3, 4) else (0, 2))
for i, v in enumerate(["nan", "inf", "-1", "abc", "0", "1e30"]):
    C(f"sw-predict-{i}", f"sweep --predict {v!r}", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--predict", v], expect=(2,) if i < 5 else (0, 2))
for i, v in enumerate(["work=", "foo=n", "work=n**2", "work=nan", "work=inf", "work=1/0", "work=0", "work=-n", "time=log2(0)", "=n", "work", "work=n=n",
                       "work=__import__('os')", "work=n^1e9"]):
    C(f"sw-bound-{i}", f"sweep --bound {v!r}: refused naming it, or a verdict without a traceback", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--bound", v],
      expect=(2,) if i in (0, 1, 3, 4, 9, 10, 11, 12) else (0, 1, 2))
C("sw-bound-json-zero", "sweep --bound work=0 --json: exactly one object (no NaN/Infinity tokens invalid in JSON)",
  ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--bound", "work=0", "--json"], expect=(0, 1, 2), json_out=True,
  check=lambda rc, out, err, d: "stdout has NaN/Infinity (not JSON)" if any(t in out for t in ("NaN", "Infinity")) else None)
C("sw-bound-json-neg", "sweep --bound work=-n --json: strict JSON",
  ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--bound", "work=-n", "--json"], expect=(0, 1, 2), json_out=True,
  check=lambda rc, out, err, d: "stdout has NaN/Infinity (not JSON)" if any(t in out for t in ("NaN", "Infinity")) else None)
C("sw-measure-bound", "sweep --measure rounds with --bound rounds=log2(n)", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--measure", "rounds", "--bound", "rounds=log2(n)^2"], expect=(0, 1))
C("sw-d-list-bad", "sweep mqar --d 0,8", ["{P}", "sweep", "mqar", "--n", "64", "--d", "0,8"])
C("sw-json-nan-floats", "run --module float with NaN and --json: strict JSON", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--json"],
  files={"m.py": mod(build="return np.full(n, np.nan)", bdtype=", dtype=float", ref="return np.zeros(len(a))")}, expect=(1,), json_out=True,
  check=lambda rc, out, err, d: "stdout has NaN/Infinity (not JSON)" if any(t in out for t in ("NaN", "Infinity")) else None)
C("sw-json-inf-mismatch", "run --module float, answer inf vs reference 0, --json: strict JSON in the mismatch", ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--json"],
  files={"m.py": mod(build="return np.full(n, np.inf)", bdtype=", dtype=float", ref="return np.zeros(len(a))")}, expect=(1,), json_out=True,
  check=lambda rc, out, err, d: "stdout has NaN/Infinity (not JSON)" if any(t in out for t in ("NaN", "Infinity")) else None)

# ---- environments --------------------------------------------------------------------
Q = ["{P}", "run", "sort", "--n", "8"]
C("env-home-missing", "HOME=/nonexistent", Q, env={"HOME": "/nonexistent"}, expect=(0,))
C("env-home-unset", "HOME unset", Q, unset=("HOME",), expect=(0,))
C("env-home-file", "HOME is a file", Q, env={"HOME": "{D}/hf"}, files={"hf": "x"}, expect=(0,))
C("env-tmpdir-missing", "TMPDIR=/nonexistent with --output", Q + ["--output", "o.npy"], env={"TMPDIR": "/nonexistent"}, expect=(0,))
C("env-tmpdir-file", "TMPDIR a file, sweep --workers 2", ["{P}", "sweep", "sort", "--n", "8,16,32", "--workers", "2"], env={"TMPDIR": "{D}/tf"}, files={"tf": "x"}, expect=(0,))
C("env-lang-c", "LANG=C LC_ALL=C with non-ASCII module path", ["{P}", "run", "--module", "m\u00e9.py", "copy", "--n", "8"], env={"LANG": "C", "LC_ALL": "C"}, files={"m\u00e9.py": BASE}, expect=(0,))
C("env-lang-c-err", "LC_ALL=C, missing non-ASCII module path: one line (escaped)", ["{P}", "run", "--module", "\u00e9\u00e9.py", "copy"], env={"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": ""})
C("env-lang-bogus", "LC_ALL=xx_YY.UTF-8 (not installed)", Q, env={"LC_ALL": "xx_YY.UTF-8", "LANG": "xx_YY.UTF-8"}, expect=(0,))
C("env-lang-tr", "LC_ALL=tr_TR.UTF-8 (dotless i) with --model CREW uppercase? (argparse choices)", Q, env={"LC_ALL": "tr_TR.UTF-8"}, expect=(0,))
C("env-ioenc-ascii", "PYTHONIOENCODING=ascii and a sweep with non-ASCII output (table rules)", ["{P}", "sweep", "sort", "--n", "8,16,32"], env={"PYTHONIOENCODING": "ascii"}, expect=(0,))
C("env-ioenc-ascii-run", "PYTHONIOENCODING=ascii and run (table ─ characters)", Q, env={"PYTHONIOENCODING": "ascii"}, expect=(0,))
C("env-lcall-c-run", "LC_ALL=C LANG=C run prints a table with box characters", Q, env={"LC_ALL": "C", "LANG": "C"}, expect=(0,))
C("env-term-dumb", "TERM=dumb", Q, env={"TERM": "dumb"}, expect=(0,))
C("env-term-unset", "TERM unset", Q, unset=("TERM",), expect=(0,))
C("env-nocolor", "NO_COLOR=1", Q, env={"NO_COLOR": "1"}, expect=(0,))
C("env-forcecolor", "FORCE_COLOR=1 with --json: stdout still JSON", Q + ["--json"], env={"FORCE_COLOR": "1", "CLICOLOR_FORCE": "1"}, expect=(0,), json_out=True)
for v in ["0", "-5", "abc", "1", "10", "100000", "", "3.5"]:
    C(f"env-columns-{v or 'empty'}", f"COLUMNS={v!r} with a sweep (tables)", ["{P}", "sweep", "sort", "--n", "8,16,32"], env={"COLUMNS": v}, expect=(0,), timeout=60)
C("env-columns-1-run", "COLUMNS=1 with run", Q, env={"COLUMNS": "1"}, expect=(0,))
C("env-lines-bogus", "LINES=abc", Q, env={"LINES": "abc"}, expect=(0,))
C("env-pywarn-error", "PYTHONWARNINGS=error (demanding: a warning pram triggers must not become a traceback)", Q, env={"PYTHONWARNINGS": "error"}, expect=(0,))
C("env-pywarn-error-sweep", "PYTHONWARNINGS=error with sweep --workers 2", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--workers", "2"], env={"PYTHONWARNINGS": "error"}, expect=(0,))
C("env-pywarn-error-plot", "PYTHONWARNINGS=error with sweep --plot", ["{P}", "sweep", "sort", "--n", "8,16,32", "--plot", "p.png"], env={"PYTHONWARNINGS": "error"}, expect=(0,))
C("env-pywarn-garbage", "PYTHONWARNINGS=garbage::: ", Q, env={"PYTHONWARNINGS": "garbage:::"}, expect=(0,))
C("env-pywarn-error-module", "PYTHONWARNINGS=error with a --module run", ["{P}", "run", "--module", "m.py", "copy", "--n", "8"], files={"m.py": BASE}, env={"PYTHONWARNINGS": "error"}, expect=(0,))
C("env-pywarn-error-instances", "PYTHONWARNINGS=error with --instances --workers", ["{P}", "run", "sort", "--n", "8", "--instances", "4", "--workers", "2"], env={"PYTHONWARNINGS": "error"}, expect=(0,))
C("env-pydevmode", "PYTHONDEVMODE=1 (ResourceWarnings visible): no traceback", ["{P}", "sweep", "sort", "--n", "8,16,32", "--workers", "2"], env={"PYTHONDEVMODE": "1"}, expect=(0,))
C("env-ro-cwd", "read-only cwd: run prints", Q, setup="rocwd", expect=(0,))
C("env-ro-cwd-sweep-workers", "read-only cwd: sweep --workers 2", ["{P}", "sweep", "sort", "--n", "8,16,32", "--workers", "2"], setup="rocwd", expect=(0,))
C("env-ro-cwd-report", "read-only cwd: report --module default out (pram-report/ cannot be made): one line", ["{P}", "report", "--module", "m.py", "copy"], setup="rocwd", expect=(2,))
C("env-deleted-cwd", "cwd deleted before the run", "cd {D}/gone && rmdir {D}/gone && {P} run sort --n 8", shell=True, setup=lambda d: os.mkdir(os.path.join(d, "gone")), expect=(0, 2))
C("env-stdout-closed", "stdout closed: one line, nonzero", "{P} run sort --n 8 >&-", shell=True, expect=(1, 2, 120, 141))
C("env-stdout-full", "stdout /dev/full: one line, nonzero", "{P} run sort --n 8 > /dev/full", shell=True, expect=(1, 2, 120))
C("env-stdout-full-json", "stdout /dev/full with --json", "{P} run sort --n 8 --json > /dev/full", shell=True, expect=(1, 2, 120))
C("env-stderr-full", "stderr /dev/full on an error: exit 2 no hang", "{P} run sort --n -1 2> /dev/full; echo rc=$? >&1", shell=True, expect=(0,),
  check=lambda rc, out, err, d: None if "rc=2" in out else f"inner {out.strip()}")
C("env-stdout-head", "stdout to `head -c 10`: quiet 141 (documented)", "set -o pipefail; {P} sweep sort --n 8,16,32,64,128 | head -c 10 >/dev/null", shell=True, expect=(141, 0))
C("env-stdin-closed", "stdin closed", "{P} run sort --n 8 <&-", shell=True, expect=(0,))
C("env-pythonpath-bogus", "PYTHONPATH with nonexistent entries", Q, env={"PYTHONPATH": "/nonexistent:/also"}, expect=(0,))
C("env-pythonpath-shadow-helper", "cwd holds a file named 'reports.py' / 'algorithms.py' (shadowing?)", Q, files={"reports.py": "raise SystemExit('shadowed!')\n", "algorithms.py": "raise SystemExit('shadowed!')\n"}, expect=(0,))
C("env-cwd-numpy-shadow", "cwd holds numpy.py while running a built-in (python -P not used?)", Q, files={"numpy.py": "raise SystemExit('numpy shadowed')\n"}, expect=(0,))
C("env-omp", "OMP_NUM_THREADS=abc", Q, env={"OMP_NUM_THREADS": "abc"}, expect=(0,))
C("env-hashseed", "PYTHONHASHSEED=123 with --workers (same counts)", ["{P}", "sweep", "sort", "--n", "8,16,32", "--workers", "2", "--json"], env={"PYTHONHASHSEED": "123"}, expect=(0,), json_out=True)
C("env-safepath", "PYTHONSAFEPATH=1 with package.module from cwd (documented 'importable from the current folder')", ["{P}", "run", "--module", "pkg.mm:copy", "--n", "8"],
  files={"pkg/__init__.py": "", "pkg/mm.py": BASE}, env={"PYTHONSAFEPATH": "1"}, expect=(0,))

# ---- signals --------------------------------------------------------------------------
SLEEPMOD = mod(build="open('started', 'w').close(); time.sleep(50); return rng.integers(0, 100, n)")
for sname, signo in [("INT", signal.SIGINT), ("TERM", signal.SIGTERM), ("HUP", signal.SIGHUP)]:
    C(f"sig-{sname}-run", f"SIG{sname} during a --module run (build sleeping): exit {128 + signo}, one line",
      ["{P}", "run", "--module", "m.py", "copy", "--n", "8"], files={"m.py": SLEEPMOD}, sig=(signo, "started"), expect=(128 + signo,), may_change={"started"})
    C(f"sig-{sname}-sweep-workers", f"SIG{sname} during sweep --workers 2 (workers sleeping): exit {128 + signo}, no process left",
      ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32", "--workers", "2"], files={"m.py": SLEEPMOD}, sig=(signo, "started"), expect=(128 + signo,), may_change={"started"})
    C(f"sig-{sname}-instances-workers", f"SIG{sname} during --instances 4 --workers 2: exit {128 + signo}",
      ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--instances", "4", "--workers", "2"], files={"m.py": SLEEPMOD}, sig=(signo, "started"), expect=(128 + signo,), may_change={"started"})
    C(f"sig-{sname}-output-kept", f"SIG{sname} during a run with --output over an existing file: old file whole",
      ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--output", "o.npy"], files={"m.py": SLEEPMOD, "o.npy": "OLD"}, sig=(signo, "started"), expect=(128 + signo,), may_change={"started"})
    C(f"sig-{sname}-json", f"SIG{sname} during --json run: stdout empty or one object",
      ["{P}", "run", "--module", "m.py", "copy", "--n", "8", "--json"], files={"m.py": SLEEPMOD}, sig=(signo, "started"), expect=(128 + signo,), json_out=True, may_change={"started"})
C("sig-INT-builtin-sweep", "SIGINT 3 s into a built-in sweep --workers 2", ["{P}", "sweep", "mqar", "--n", "49152,196608,786432", "--workers", "2"], sig=(signal.SIGINT, 3.0), expect=(130,))
C("sig-TERM-builtin-trace", "SIGTERM 2 s into a big trace writing over an old page: old page whole", ["{P}", "trace", "mqar", "--n", "12288", "--trace-cells", "5000000", "--html", "t.html"], files={"t.html": "OLD"}, sig=(signal.SIGTERM, 2.0), expect=(143, 0), may_change={"t.html"},
  check=lambda rc, out, err, d: None if rc == 0 or open(os.path.join(d, "t.html")).read() == "OLD" else "old page changed after the signal")
C("sig-INT-ignored", "SIGINT ignored by the caller (nohup-like) stays ignored: run finishes 0", ["{P}", "run", "--module", "m.py", "copy", "--n", "8"],
  files={"m.py": mod(build="open('started', 'w').close(); time.sleep(3); return rng.integers(0, 100, n)")}, sig=(signal.SIGINT, "started", "ignore"), expect=(0,), may_change={"started"})
C("sig-INT-module-handler", "module installs its own SIGINT handler that raises ValueError: a real Ctrl-C must still end cleanly (no traceback)",
  ["{P}", "run", "--module", "m.py", "copy", "--n", "8"], files={"m.py": "import signal\ndef h(*a): raise ValueError('my handler')\nsignal.signal(signal.SIGINT, h)\n" + SLEEPMOD},
  sig=(signal.SIGINT, "started"), expect=(130, 2), may_change={"started"})
C("sig-TERM-module-ignores", "module sets SIGTERM to SIG_IGN at import; SIGTERM then: ends (143) or is ignored by the user's choice; never a traceback",
  ["{P}", "run", "--module", "m.py", "copy", "--n", "8"], files={"m.py": "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" + mod(build="open('started', 'w').close(); time.sleep(5); return rng.integers(0, 100, n)")},
  sig=(signal.SIGTERM, "started"), expect=(143, 0), may_change={"started"})
C("sig-PIPE-json", "SIGPIPE: --json into a closed pipe reader (head -c 1)", "set -o pipefail; {P} sweep sort --n 8,16,32,64,128 --json | head -c 1 > /dev/null", shell=True, expect=(141, 0))
C("sig-early", "SIGTERM 0.05 s after start: exit 143 (documented: may be without the line)", Q, sig=(signal.SIGTERM, 0.05), expect=(143,), extra_stderr_ok=True)

# ---- Python API -----------------------------------------------------------------------
def A(id, desc, code, expect="err", pre=""):
    C("api-" + id, desc, None, kind="api", code=(pre, code), expect=(expect,))


for i, c in enumerate(['pram.Machine("bogus")', 'pram.Machine(5)', 'pram.Machine(None)', 'pram.Machine("EREW ")', 'pram.Machine(mode="bad")',
                       'pram.Machine(mode=None)', 'pram.Machine(seed=-1)', 'pram.Machine(seed="x")', 'pram.Machine(seed=1.5)', 'pram.Machine(seed=2**70)',
                       'pram.Machine(seed=float("nan"))', 'pram.Machine(trace_cells=-1)', 'pram.Machine(trace_cells="x")', 'pram.Machine(trace_cells=float("inf"))',
                       'pram.Machine(batch=0)', 'pram.Machine(batch=-1)', 'pram.Machine(batch=1.5)', 'pram.Machine(batch="2")', 'pram.Machine(batch=True)',
                       'pram.Machine(batch=10**15)', 'pram.Machine(distinct_processors=False)', 'pram.Machine(strict="yes")', 'pram.Machine(observer=5)',
                       'pram.Machine(trace="yes")', 'pram.Machine(depth=1.5)', 'pram.Machine(fast_path=None)', 'pram.Machine("erew", "raise")']):
    A(f"machine-{i}", f"{c}: pram error with a clear message", c)
A("machine-ok", "pram.Machine('crew') works", 'pram.Machine("crew")', expect="ok")
MA = 'm = pram.Machine()\n'
for i, c in enumerate(['m.array("a", -1)', 'm.array("a", 1.5)', 'm.array("a", "3")', 'm.array("", 3)', 'm.array(5, 3)', 'm.array("a")',
                       'm.array("a", 3, values=[1, 2])', 'm.array("a", values=[1.5, 2.5])', 'm.array("a", values=np.array([np.nan]))',
                       'm.array("a", values=[2**70])', 'm.array("a", values=np.array(["x"]))', 'm.array("a", values=[[1], [2, 3]])',
                       'm.array("a", 3, dtype="complex")', 'm.array("a", 3, dtype=str)', 'm.array("a", shape=(0, 3))', 'm.array("a", shape=(-1, 2))',
                       'm.array("a", shape=(2,))', 'm.array("a", shape=(2, 2, 2))', 'm.array("a", values=np.zeros((2, 2, 2), dtype=np.int64))',
                       'm.array("a", 3); m.array("a", 3)', 'm.array("a", 10**13)', 'm.array("a", values=np.array([2**64 - 1], dtype=np.uint64))',
                       'm.array("a", values=np.array([object()]))', 'm.array("a", values={"x": 1})', 'm.array("a", values="123")',
                       'm.array("a", values=np.array([1 + 1j]))', 'm.array("a", 0)', 'm.array("a", True)', 'm.array("a", values=np.array([np.inf]))',
                       'm.array("a", values=[1.5], dtype=int)', 'm.array("a", values=np.array([1, 2]), dtype=float, shape=(3, 3))',
                       'm.array("a", shape=(2.5, 2))', 'm.array("a", values=np.array(["2020"], dtype="datetime64[D]"))', 'm.array(None, 3)',
                       'm.array("a b", 3)', 'm.array("a", values=None, size=None, dtype=float)', 'm.array("a", values=np.arange(4), size=4, shape=(2, 2))']):
    A(f"array-{i}", f"m.{c.split('m.', 1)[1] if 'm.' in c else c}: pram error with a clear message", c, pre=MA)
A("array-inf-float", "m.array(values=[inf], dtype=float): accepted (reals) or a pram error", 'try:\n    m.array("a", values=np.array([np.inf]), dtype=float)\nexcept pram.PRAMError:\n    pass', pre=MA, expect="ok")
A("array-negzero-float", "-0.0 stored as float keeps its sign", 'a = m.array("a", values=np.array([-0.0]), dtype=float)\nassert str(a.to_numpy()[0]) == "-0.0", a.to_numpy()', pre=MA, expect="ok")
A("array-bigendian", "big-endian values stored exactly", 'a = m.array("a", values=np.array([1, 2, 300], dtype=">i8"))\nassert a.to_numpy().tolist() == [1, 2, 300]', pre=MA, expect="ok")
A("array-batch-shape", "batch=3 with values of 2 rows", 'm = pram.Machine(batch=3)\nm.array("a", values=np.zeros((2, 4), dtype=np.int64))')
DECL = """
from pram import Read, Step, Write, iota
def _prog(m, a):
    n = len(a); b = m.array("b", n); pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    yield Step(pid, writes=[Write(b, iota(n), x)])
    return b
D = pram.Algorithm(name="cp", build=lambda n, rng: rng.integers(0, 9, n), program=_prog, reference=lambda a: a.copy(), bounds={"work": "n"})
"""
for i, c in enumerate(['pram.sweep(D, [])', 'pram.sweep(D, "16,32")', 'pram.sweep(D, [8.5])', 'pram.sweep(D, [0])', 'pram.sweep(D, [-4])',
                       'pram.sweep(D, [8, 16], seed=-1)', 'pram.sweep(D, [8, 16], seed="x")', 'pram.sweep(D, [8, 16], bounds={"work": "n**2"})',
                       'pram.sweep(D, [8, 16], bounds={"bogus": "n"})', 'pram.sweep(D, [8, 16], bounds="n")', 'pram.sweep(D, [8, 16], model="bogus")',
                       'pram.sweep(5, [8])', 'pram.sweep(lambda: None, [8])', 'pram.sweep(D, [True, 8])', 'pram.sweep(D, [float("nan")])',
                       'pram.sweep(D, [10**20])', 'pram.sweep(D, None)', 'pram.sweep(D, 16)', 'pram.sweep(lambda n: 5, [8, 16])',
                       'pram.sweep(lambda n: pram.Machine(), [8, 16], model="crew")', 'pram.sweep(lambda m, n, rng, extra: None, [8])',
                       'pram.sweep(D, [8, 16], seed=1.5)', 'pram.sweep(D, [8, 16], bounds={"work": 5})', 'pram.sweep(D, [8, 16], seed=2**70)']):
    A(f"sweep-{i}", f"{c}: pram error", c, pre=DECL)
A("sweep-npint", "pram.sweep(D, [np.int64(8), 16]) works", 'pram.sweep(D, [np.int64(8), np.int64(16)])', pre=DECL, expect="ok")
A("sweep-bound-zero", "pram.sweep(D, sizes, bounds={'work': 'n - n'}) : a pram error or a verdict, not ZeroDivisionError", 
  'try:\n    pram.sweep(D, [8, 16, 32, 64, 128], bounds={"work": "n - n"}).text()\nexcept pram.PRAMError:\n    pass', pre=DECL, expect="ok")
for i, c in enumerate(['pram.check("work", pram.formula("n"), [])', 'pram.check("bogus", pram.formula("n"), [({"n": 8}, 16.0)])',
                       'pram.check("work", "n", [({"n": 8}, 16.0), ({"n": 16}, 32.0)])', 'pram.check("work", pram.formula("n"), [({"n": 8}, float("nan")), ({"n": 16}, 32.0)])',
                       'pram.check("work", pram.formula("n"), [({"n": 8}, float("inf")), ({"n": 16}, 32.0)])', 'pram.check("work", pram.formula("n"), [({"n": 8}, -5.0), ({"n": 16}, 32.0)])',
                       'pram.check("work", pram.formula("n"), [({"n": 8}, 16.0)], limit=-1)', 'pram.check("work", pram.formula("n"), [({"n": 8}, 16.0)], limit=float("nan"))',
                       'pram.check("work", pram.formula("n"), [(8, 16.0)])', 'pram.check("work", pram.formula("n"), [({"m": 8}, 16.0)])',
                       'pram.check("work", pram.formula("n"), [({"n": -8}, 16.0), ({"n": 16}, 32.0)])', 'pram.check("work", pram.formula("n"), [({"n": 8}, "16")])',
                       'pram.check("work", pram.formula("n"), None)', 'pram.check("work", pram.formula("n - n"), [({"n": 8}, 16.0), ({"n": 16}, 32.0)])',
                       'pram.check("work", 5, [({"n": 8}, 16.0)])', 'pram.check("work", pram.formula("n"), [({"n": 0}, 0.0), ({"n": 16}, 32.0)])']):
    A(f"check-{i}", f"{c}: pram error (or a documented verdict for odd-but-legal data), never a bare TypeError/ZeroDivisionError", c,
      expect="err" if i not in (2, 13) else "errok")
ALG = "from pram import Read, Step, Write, iota\ndef P(m, a):\n    yield from ()\n    return a\nB = lambda n, rng: rng.integers(0, 9, n)\nRF = lambda a: a\n"
for i, c in enumerate(['pram.Algorithm(name="", build=B, program=P, reference=RF)', 'pram.Algorithm(name=5, build=B, program=P, reference=RF)',
                       'pram.Algorithm(name="x", build=5, program=P, reference=RF)', 'pram.Algorithm(name="x", build=B, program="x", reference=RF)',
                       'pram.Algorithm(name="x", build=B, program=P, reference=None)', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, model="x")',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, bounds={"work": 5})', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, tolerance=-1)',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, tolerance=float("nan"))', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, n=0)',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, n=1.5)', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, sizes=[])',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, sizes=[0])', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, title=5)',
                       'pram.Algorithm(name="sort", build=B, program=P, reference=RF)', 'pram.Algorithm(name="a b", build=B, program=P, reference=RF)',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, bounds={"work": "n**2"})', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, bounds={"space": "n"})',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, load=5)', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, sizes="16")',
                       'pram.Algorithm(name="x", build=B, program=P, reference=RF, bounds=["n"])', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, n=True)',
                       'pram.Algorithm("x", B, P, RF, "erew", None, None, "tol")', 'pram.Algorithm(name="x", build=B, program=P, reference=RF, sizes=[8, 8.5])']):
    A(f"alg-{i}", f"{c}: pram error", c, pre=ALG)
A("alg-instance-neg", "declaration.instance(-1, 0): pram error", 'pram.Algorithm(name="x", build=B, program=P, reference=RF).instance(-1, 0)', pre=ALG)
for i, c in enumerate(['pram.formula("")', 'pram.formula("n**2")', 'pram.formula("(" * 200 + "n" + ")" * 200)', 'pram.formula("n" * 2000)', 'pram.formula(5)',
                       'pram.formula(None)', 'pram.formula("n")({"n": "x"})', 'pram.formula("n")({})', 'pram.formula("log2(n) / (n - n)")({"n": 8})',
                       'pram.formula("n ^ n ^ n ^ n")({"n": 64})', 'pram.formula("n")(5)', 'pram.formula("n\\x00")', 'pram.formula("n" + " " * 5000)',
                       'pram.formula("1e999")', 'pram.formula("sqrt(n - 100)")({"n": 8})', 'pram.formula("n")({"n": float("nan")})']):
    A(f"formula-{i}", f"{c}: pram error (or a value) never a bare Python error", c,
      expect="err" if i not in (9, 14, 15) else "errok")


def np_nan():
    return float("nan")



# ---- second wave -----------------------------------------------------------------------
for cmdname, cmd in [("run-inst", ["{P}", "run", "sort", "--n", "8", "--instances", "4", "--workers", "2147483648"]),
                     ("sweep", ["{P}", "sweep", "sort", "--n", "8,16", "--workers", "2147483648"]),
                     ("sweep-inst-json", ["{P}", "sweep", "sort", "--n", "8,16", "--instances", "2", "--workers", "2147483648", "--json"]),
                     ("report-module", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep", "--workers", "2147483648"])]:
    C(f"workers-2p31-{cmdname}", "--workers 2**31 (too many processes): refused in one line, or clamped; never a traceback", cmd,
      files={"m.py": BASE}, expect=(0, 2), timeout=60, json_out=cmd[-1] == "--json")
for where in ("build", "prog", "ref"):
    body = "class E(Exception):\n    def __str__(self): raise RuntimeError('no str')\nraise E()"
    kw = {"build": dict(build=body), "prog": dict(prog_pre=body), "ref": dict(ref=body)}[where]
    modcase(f"mod-badstr-{where}", f"{where} raises an exception whose __str__ raises: one line, exit 2", mod(**kw), names=["m.py"])
modcase("mod-badrepr-import", "exception whose __str__ and __repr__ raise, at import",
        "class E(Exception):\n    def __str__(self): raise RuntimeError('s')\n    def __repr__(self): raise RuntimeError('r')\nraise E()\n", names=["m.py"])
modcase("mod-surrogate-msg", "exception message with a lone surrogate: one line, no UnicodeEncodeError", mod(build="raise ValueError('bad \\udcff byte')"), names=["m.py"])
modcase("mod-module-getattr", "module-level __getattr__ that raises for every name (declaration lookup must not crash)",
        BASE + "\ndef __getattr__(name):\n    raise RuntimeError('no attribute ' + name)\n", expect=(0,))
modcase("mod-evil-class", "a module global whose __class__ property raises (isinstance scan)",
        BASE + "\nclass Evil:\n    @property\n    def __class__(self): raise RuntimeError('evil')\nx = Evil()\n", expect=(0,))
modcase("mod-evil-class-missing", "a global whose __class__ raises, NAME missing: the list of declarations still one line",
        BASE + "\nclass Evil:\n    @property\n    def __class__(self): raise RuntimeError('evil')\nx = Evil()\n", names=["copy"])
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "nosuch", "--n", "8"]
modcase("mod-alias", "the same declaration under two variable names (alias = copy) is one declaration: runs", BASE + "\nalias = copy\n", expect=(0,))
modcase("mod-alias-byname", "alias, selected by the alias variable", BASE + "\nalias = copy\n", expect=(0,))
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py", "alias", "--n", "8"]
modcase("mod-subclass", "a subclass instance of pram.Algorithm", BASE + "\nclass A2(pram.Algorithm):\n    pass\n", expect=(0,))
modcase("mod-colon3", "--module m.py:copy:extra", BASE)
CASES[-1]["cmd"] = ["{P}", "run", "--module", "m.py:copy:extra", "--n", "8"]
C("modpath-colon-in-name", "module file whose name contains ':' (we:ird.py) named with NAME separately", ["{P}", "run", "--module", "we:ird.py", "copy", "--n", "8"],
  files={"we:ird.py": BASE}, expect=(0, 2))
C("modpath-abs-dotdot", "absolute module path with '..'", ["{P}", "run", "--module", "{D}/sub/../m.py", "copy", "--n", "8"], files={"m.py": BASE, "sub/x": ""}, expect=(0,))
C("modpath-deletes-itself", "module removes its own file at import, sweep --workers 2 (workers load it again): one line", 
  ["{P}", "sweep", "--module", "m.py", "copy", "--n", "8,16,32,64", "--workers", "2"], files={"m.py": "import os\ntry:\n    os.remove(__file__)\nexcept OSError:\n    pass\n" + BASE},
  expect=(0, 2), may_change={"m.py"})
C("tr-hardlink-module", "--html a hard link to the module (same inode, .html name): refused", ["{P}", "trace", "--module", "m.py", "copy", "--n", "8", "--html", "h.html"],
  files={"m.py": BASE}, setup=lambda d: os.link(os.path.join(d, "m.py"), os.path.join(d, "h.html")))
C("rep-module-inside-out", "report --module whose file lives in OUT/copy/: the module must not be lost", ["{P}", "report", "--module", "rep/copy/m.py", "copy", "--out", "rep"],
  files={"rep/copy/m.py": BASE}, expect=(0, 2), may_change={"rep/copy/summary.md", "rep/copy/measurements.json", "rep/copy/measurements.csv", "rep/copy/ratios.png"})
C("rep-out-keep-rest", "report --out DIR keeps the rest of DIR (documented)", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep"],
  files={"m.py": BASE, "rep/mine.txt": "keep me", "rep/other/x.md": "keep"}, expect=(0,))
C("rep-out-name-is-file", "report where OUT/copy exists as a regular file: one line", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep"],
  files={"m.py": BASE, "rep/copy": "I am a file"})
C("rep-out-name-is-link", "report where OUT/copy is a symlink to a folder outside: refused, or written without losing the outside folder's files", ["{P}", "report", "--module", "m.py", "copy", "--out", "rep"],
  files={"m.py": BASE, "outside/keep.txt": "keep"}, setup=lambda d: (os.makedirs(os.path.join(d, "rep")), os.symlink("../outside", os.path.join(d, "rep", "copy"))), expect=(0, 2))
C("rep-input-as-out", "report --out is the module file's folder with the module named like the section", ["{P}", "report", "--module", "copy.py", "copy", "--out", "."],
  files={"copy.py": BASE}, expect=(0,))
C("circ-export-output-same", "circuit --export and --output the same file", ["{P}", "circuit", "sort", "--input", "v.npy", "--export", "o.npy", "--output", "o.npy"], files={"v.npy": npy("np.arange(8)")})
C("circ-export-nonutf8", "circuit --export with a non-UTF-8 name", [b"{P}", b"circuit", b"sort", b"--n", b"8", b"--export", b"c\xff.json"], expect=(0,))
C("circ-export-fulldisk", "circuit --export onto a full disk", ["{P}", "circuit", "sort", "--n", "1024", "--export", "full/c.json"], setup="full", expect=(1, 2))
C("circ-export-readonly", "circuit --export into a read-only folder", ["{P}", "circuit", "sort", "--n", "8", "--export", "ro/c.json"], setup="ro")
C("circ-bristol-words", "circuit --format bristol with word keys: refused or written", ["{P}", "circuit", "sort", "--n", "8", "--export", "c.txt", "--format", "bristol"], expect=(0, 2))
C("zoo-huge-header", "zoology npz declaring a huge inputs array: refused at once", ["{P}", "zoology", "b.npz", "--max-memory", "1G"], timeout=30,
  setup=lambda d: (w_zipbomb(d), os.rename(os.path.join(d, "s.npz"), os.path.join(d, "b.npz"))))
C("ex-same-name-upper", "example batch to B.NPZ: written under exactly that name", ["{P}", "example", "batch", "B.NPZ", "--n", "16"], expect=(0, 2),
  check=lambda rc, out, err, d: None if rc == 2 or os.listdir(d) == ["B.NPZ"] else f"files: {os.listdir(d)}")
C("ex-symlink-out", "example to a symlink pointing at an existing regular file elsewhere: replaces the link or the file, never both lost", ["{P}", "example", "tokens", "l.npy", "--n", "16"],
  files={"real.npy": "OLD"}, setup=lambda d: os.symlink("real.npy", os.path.join(d, "l.npy")), expect=(0, 2), may_change={"real.npy"},
  check=lambda rc, out, err, d: None if os.path.exists(os.path.join(d, "l.npy")) else "l.npy gone")
# Python API: steps, reads, processors, run
MM = "from pram import Read, Step, Write, iota\nm = pram.Machine()\na = m.array('a', values=np.arange(4))\ndef g(f):\n    yield f()\n"
for i, c in enumerate(["m.processors(-1)", "m.processors(1.5)", "m.processors('4')", "m.processors(10**15)", "iota(-1)", "iota(1.5)",
                       "m.run(5)", "m.run(None)", "m.run(g(lambda: 5))", "m.run(g(lambda: Step(m.processors(4), reads=[Read(a, [1.5, 0, 0, 0])])))",
                       "m.run(g(lambda: Step(m.processors(4), reads=[Read(a, iota(3))])))", "m.run(g(lambda: Step(m.processors(4), reads=[Read(a, iota(4) + 10)])))",
                       "m.run(g(lambda: Step(m.processors(4), writes=[Write(a, iota(4), np.array([1.5] * 4))])))",
                       "m.run(g(lambda: Step(m.processors(4), writes=[Write(a, iota(4), np.array([2**63 - 1] * 4))])))",
                       "m.run(g(lambda: Step(m.processors(4), reads=[Read(5, iota(4))])))", "m.run(g(lambda: Step(m.processors(4), writes=[Write(a, iota(4), 'x')])))", "m.run(g(lambda: Step('x')))", "Step(m.processors(4), reads=5)",
                       "m.run(g(lambda: Step(m.processors(4), reads=[Read(a, -iota(4) - 1)])))",
                       "m.run(g(lambda: Step(np.array([0, 0, 1, 2]), reads=[Read(a, iota(4))])))",
                       "m.run(g(lambda: Step(m.processors(4), reads=[Read(a, np.array([np.nan] * 4))])))"]):
    A(f"step-{i}", f"{c}: a pram error (InputError/StepError/AddressError...), never a bare TypeError/IndexError", c, pre=MM)


# ---- third wave: huge integers everywhere -------------------------------------------
BIG = "1000000000000000000000000000000"
for id_, cmd, ex in [
    ("trace-cells", ["{P}", "trace", "sort", "--n", "8", "--trace-cells", BIG, "--html", "t.html"], (0, 2)),
    ("k", ["{P}", "run", "selection", "--n", "8", "--k", BIG], (2,)),
    ("m", ["{P}", "run", "pbs", "--n", "8", "--m", BIG], (2,)),
    ("d", ["{P}", "run", "mqar", "--n", "64", "--d", BIG], (2,)),
    ("phases", ["{P}", "run", "mqar", "--n", "64", "--phases", BIG], (0, 2)),
    ("n-2p63", ["{P}", "run", "sort", "--n", str(2**63)], (2,)),
    ("n-2p64", ["{P}", "run", "sort", "--n", str(2**64 + 1)], (2,)),
    ("n-big-json", ["{P}", "run", "sort", "--n", BIG, "--json"], (2,)),
    ("predict-int", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--predict", BIG], (0, 2)),
    ("predict-1e400", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--predict", "1" + "0" * 400], (0, 2)),
    ("predict-json", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--predict", BIG, "--json"], (0, 2)),
    ("bound-10p400", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--bound", "work=10^400"], (0, 1, 2)),
    ("bound-bignum", ["{P}", "sweep", "sort", "--n", "8,16,32,64,128", "--bound", "work=" + "9" * 500], (0, 1, 2)),
    ("circuit-d", ["{P}", "circuit", "compare", "--d", BIG], (2,)),
    ("circuit-n", ["{P}", "circuit", "sort", "--n", str(2**62)], (2,)),
    ("example-n", ["{P}", "example", "tokens", "x.npy", "--n", str(2**70)], (2,)),
    ("example-seed", ["{P}", "example", "tokens", "x.npy", "--n", "8", "--seed", BIG], (0, 2)),
    ("instances-maxmem", ["{P}", "run", "sort", "--n", "8", "--instances", BIG, "--max-memory", "1G"], (2,)),
    ("maxmem-bytes", ["{P}", "run", "sort", "--n", "8", "--max-memory", BIG], (0, 2)),
    ("sweep-n-big", ["{P}", "sweep", "sort", "--n", "8," + BIG], (2,)),
    ("sweep-d-big", ["{P}", "sweep", "mqar", "--n", "64", "--d", "8," + BIG], (2,)),
    ("workers-big", ["{P}", "run", "sort", "--n", "8", "--instances", "2", "--workers", BIG], (0, 2)),
]:
    C(f"big-{id_}", f"10**30-sized value ({id_}): refused in one line (or handled), never OverflowError", cmd, expect=ex, timeout=60,
      json_out="--json" in cmd, check=(lambda rc, out, err, d: "stdout has NaN/Infinity (not JSON)" if any(t in out for t in ("NaN", "Infinity")) else None))
for v in ["1000000000000", BIG]:
    C(f"env-columns-huge-{len(v)}", f"COLUMNS={v}: no memory blow-up, no hang", ["{P}", "sweep", "sort", "--n", "8,16,32"], env={"COLUMNS": v}, expect=(0,), timeout=60)
A("machine-tracecells-big", "Machine(trace_cells=10**30): accepted or InputError", "pram.Machine(trace=True, trace_cells=10**30)", expect="errok")
A("machine-seed-big", "Machine(seed=10**30)", "pram.Machine(seed=10**30)", expect="errok")
A("array-size-big", "m.array('a', 10**30)", "pram.Machine().array('a', 10**30)")
A("array-values-bigint-list", "m.array('a', values=[10**30])", "pram.Machine().array('a', values=[10**30])")
A("sweep-size-2p63", "pram.sweep(D, [2**63])", "pram.sweep(D, [2**63])", pre=DECL)
A("formula-eval-bigint", "formula('n')({'n': 10**400}): value or InputError", "pram.formula('n^2')({'n': 10**400})", expect="errok")
A("check-bigint", "check with a measurement of 10**400 (int beyond float)", 'pram.check("work", pram.formula("n"), [({"n": 8}, 10**400), ({"n": 16}, 32.0)])', expect="errok")

# Re-checked by hand: legal-but-lenient calls (accepting them is no defect), see the report.
LENIENT = {"api-machine-9": "seed 2**70 is a valid numpy seed", "api-array-14": "a 0 x 3 array", "api-array-26": "a 0-cell array",
           "api-array-34": "array names are free text", "api-sweep-7": "'**' is read as '^'", "api-sweep-16": "sizes=None: the declaration's sizes (signature default)",
           "api-sweep-23": "seed 2**70 valid", "api-check-5": "a negative measurement is odd but not malformed",
           "api-alg-16": "'**' is read as '^'", "api-formula-1": "'**' is read as '^'", "api-formula-13": "1e999 refused at evaluation with InputError", "api-step-13": "2**63-1 is a legal int64"}
for _c in CASES:
    if _c["id"] in LENIENT:
        _c["expect"] = ("errok",)
CASES[:] = [_c for _c in CASES if _c["id"] not in ("api-machine-26", "mod-fork-child-lives")]  # Python's own keyword-only signature error; a fork whose child goes on is two runs  # Python's own keyword-only signature error at the call site


# ============================================================================= runner
def sha(p):
    with open(p, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def snapshot(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if os.path.isfile(p) and not os.path.islink(p):
                try:
                    out[os.path.relpath(p, d)] = sha(p)
                except OSError:
                    pass
    return out


def sub(x, d):
    if isinstance(x, bytes):
        return x.replace(b"{P}", os.fsencode(PRAM)).replace(b"{PY}", os.fsencode(PY)).replace(b"{D}", os.fsencode(d))
    return x.replace("{P}", PRAM).replace("{PY}", PY).replace("{D}", d)


def mount_special(c, d):
    kind = c["setup"]
    mnt = os.path.join(d, {"ro": "ro", "full": "full", "rocwd": "cwd"}[kind])
    os.mkdir(mnt)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], check=True)
    if kind == "ro":
        open(os.path.join(mnt, "old.npy"), "w").write("OLD")
        subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
    elif kind == "full":
        open(os.path.join(mnt, "old.npy"), "w").write("OLD")
        open(os.path.join(mnt, "t.html"), "w").write("OLD")
        try:
            with open(os.path.join(mnt, "filler"), "wb") as f:
                while True:
                    f.write(b"\0" * 1024)
                    f.flush()
        except OSError:
            pass
    elif kind == "rocwd":
        with open(os.path.join(mnt, "m.py"), "w") as f:
            f.write(BASE)
        subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
    return mnt


def leftovers(sid):
    r = subprocess.run(["ps", "-eo", "pid=,sid=,args="], capture_output=True, text=True)
    return [l.strip() for l in r.stdout.splitlines() if l.split() and l.split()[1] == str(sid)]


API_WRAP = r'''
import sys, traceback
import numpy as np
import pram
{pre}
try:
    exec(compile({code!r}, "<case>", "exec"))
except pram.PRAMError as e:
    print("PRAMERR", type(e).__name__, str(e).replace("\n", " | ")[:300]); sys.exit(3)
except Exception as e:
    tb = traceback.extract_tb(e.__traceback__)[-1]
    print("OTHER", type(e).__name__, str(e).replace("\n", " | ")[:300], "@", tb.filename.split("site-packages/")[-1], tb.lineno); sys.exit(4)
print("NOERR"); sys.exit(5)
'''


def run_case(c):
    d = os.path.join(RUNS, c["id"])
    if os.path.exists(d):
        subprocess.run(["umount", "-l", os.path.join(d, "ro")], capture_output=True)
        subprocess.run(["umount", "-l", os.path.join(d, "full")], capture_output=True)
        subprocess.run(["umount", "-l", os.path.join(d, "cwd")], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    mnt = None
    try:
        for rel, content in c["files"].items():
            p = os.path.join(os.fsencode(d), rel if isinstance(rel, bytes) else os.fsencode(rel))
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if callable(content):
                content(p)
            else:
                with open(p, "wb") as f:
                    f.write(content if isinstance(content, bytes) else content.encode())
        cwd = d
        if isinstance(c["setup"], str):
            mnt = mount_special(c, d)
            if c["setup"] == "rocwd":
                cwd = mnt
        elif c["setup"]:
            c["setup"](d)
        before = snapshot(d)
        env = dict(os.environ)
        env.pop("COLUMNS", None)
        for k in c["unset"]:
            env.pop(k, None)
        for k, v in c["env"].items():
            env[k] = sub(v, d)
        if c["kind"] == "api":
            pre, code = c["code"]
            script = os.path.join(d, "case.py")
            open(script, "w").write(API_WRAP.format(pre=pre, code=code))
            cmd = [PY, script]
        elif c["shell"]:
            cmd = ["bash", "-c", sub(c["cmd"], d)]
        else:
            cmd = [sub(x, d) for x in c["cmd"]]
        pre_exec = lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
        if c["sig"] and len(c["sig"]) > 2:
            pre_exec = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)
        t0 = time.time()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=pre_exec)
        out_b = []
        err_b = []
        to = threading.Thread(target=lambda: out_b.append(p.stdout.read()))
        te = threading.Thread(target=lambda: err_b.append(p.stderr.read()))
        to.start(); te.start()
        sig_sent = None
        if c["sig"]:
            signo, when = c["sig"][0], c["sig"][1]
            if isinstance(when, str):
                mark = os.path.join(cwd, when)
                while not os.path.exists(mark) and p.poll() is None and time.time() - t0 < 40:
                    time.sleep(0.05)
                time.sleep(0.3)
            else:
                time.sleep(when)
            if p.poll() is None:
                os.kill(p.pid, signo)
                sig_sent = time.time()
            else:
                return "BAD", f"exited {p.returncode} before the signal could be sent (battery timing?)"
        try:
            rc = p.wait(timeout=c["timeout"] if not sig_sent else 15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return "BAD", ("hang: no exit within 15 s of the signal" if sig_sent else f"hang: timeout {c['timeout']} s")
        finally:
            to.join(5); te.join(5)
        took = time.time() - (sig_sent or t0)
        out = (out_b[0] if out_b else b"").decode("utf-8", "replace")
        err = (err_b[0] if err_b else b"").decode("utf-8", "replace")
        left = []
        if c["kind"] != "api":
            time.sleep(0.5 if c["sig"] else 0)
            left = leftovers(p.pid)
            if left:
                subprocess.run(["kill", "-9"] + [l.split()[0] for l in left], capture_output=True)
        after = snapshot(d)
        return judge(c, rc, out, err, d, before, after, left, took, sig_sent)
    finally:
        if mnt:
            subprocess.run(["umount", "-l", mnt], capture_output=True)


def lastline(s):
    ls = [l for l in s.strip().splitlines() if l.strip()]
    return ls[-1][:220] if ls else "(empty)"


def judge(c, rc, out, err, d, before, after, left, took, sig_sent):
    if c["kind"] == "api":
        want = c["expect"][0]
        line = lastline(out) if out.strip() else lastline(err)
        if "Traceback" in err and rc not in (3, 4, 5):
            return "BAD", f"crashed: {lastline(err)}"
        if rc == 4:
            return "BAD", f"non-pram exception: {line}"
        if want == "err" and rc == 5:
            return "BAD", "accepted without a pram error"
        if want == "ok" and rc == 3:
            return "BAD", f"refused a legal call: {line}"
        if rc not in (3, 4, 5):
            return "BAD", f"script exit {rc}: {lastline(err)}"
        return "ok", line[:120]
    errlines = [l for l in err.splitlines() if l.strip()]
    if "Traceback (most recent call last)" in err or "Traceback (most recent call last)" in out:
        return "BAD", f"traceback (exit {rc}): {lastline(err)}"
    if rc not in c["expect"]:
        return "BAD", f"exit {rc}, expected {'/'.join(map(str, c['expect']))}: {lastline(err)}"
    if sig_sent and took > 5 and rc >= 128:
        return "BAD", f"took {took:.1f} s after the signal"
    if left and not c["no_left"]:
        return "BAD", f"processes left after exit: {left[:2]}"
    if rc == 2 and not c["extra_stderr_ok"]:
        own = [l for l in errlines if l.strip() not in ("hello from import", "imported", "in build", "warn", "b", "imp", "in program", "fd1 text", "raw")]
        if len(own) != 1:
            return "BAD", f"exit 2 with {len(own)} stderr lines: {' | '.join(own[:3])[:200]}"
        if c["names"] and not any(n.lower() in err.lower() for n in c["names"]):
            return "BAD", f"message names none of {c['names']}: {own[0][:200]}"
    if sig_sent and not c["extra_stderr_ok"] and rc >= 128:
        if len(errlines) != 1:
            return "BAD", f"{len(errlines)} stderr lines after the signal: {' | '.join(errlines[:3])[:200]}"
    if c["json_out"]:
        s = out.strip()
        if not (rc in (2,) and s == "") and not (sig_sent and s == ""):
            try:
                obj = json.loads(s)
                if not isinstance(obj, dict):
                    return "BAD", "--json stdout is not an object"
            except Exception as e:
                return "BAD", f"--json stdout not one JSON object ({e.__class__.__name__}): {s[:120]!r}"
    for k, h in before.items():
        if k in c["may_change"]:
            continue
        if k not in after:
            return "BAD", f"input/existing file {k} lost"
        if after[k] != h:
            return "BAD", f"input/existing file {k} changed"
    if c["check"]:
        r = c["check"](rc, out, err, d)
        if r:
            return "BAD", r
    return "ok", (lastline(err)[:120] if rc else "")


def main():
    global PRAM, PY
    ap = argparse.ArgumentParser()
    ap.add_argument("--pram", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    PRAM, PY = os.path.abspath(a.pram), os.path.abspath(a.python)
    cases = CASES
    if a.only:
        ids = a.only.split(",")
        cases = [c for c in CASES if c["id"] in ids or any(i.endswith("*") and c["id"].startswith(i[:-1]) for i in ids)]
    if a.list:
        for c in cases:
            print(c["id"], "-", c["desc"])
        return
    os.makedirs(RUNS, exist_ok=True)
    bad = 0

    def one(c):
        try:
            return c, run_case(c)
        except Exception as e:
            return c, ("BAD", f"battery error: {e!r}")

    with ThreadPoolExecutor(max(1, min(a.jobs, 2))) as ex:
        for c, (v, why) in ex.map(one, cases):
            if v != "ok":
                bad += 1
            print(f"{c['id']} {v} {why}", flush=True)
    print("COUNTS " + json.dumps({"cases": len(cases), "bad": bad}))


if __name__ == "__main__":
    main()
