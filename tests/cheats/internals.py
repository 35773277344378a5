#!/usr/bin/env python3
# ruff: noqa
"""A third outside honesty battery, written from the docs by a tester who had not seen the code
or the tests: of its 254 plausible cheats, 22 deliberate ones and 35 idioms, the cases that
passed before its round's fixes are kept here as written (with its prelude and runner, but for
where it writes); tests/test_cheats.py runs them. After the fixes the whole battery
passed no plausible cheat and refused no idiom.

Outside honesty battery for pram: python tests/cheats/internals.py --python PY --pram PRAM [--only ID,ID] [--jobs 2]

Each case is a small script run in a subprocess (30 s timeout) that prints RESULT {...}.
Verdicts: cheat/deliberate -> PASSES (got what it wanted) or ok (refused / learned nothing);
idiom -> ok or BAD; ERR when the case itself broke. Deliberate cases (and cheats that pass)
also get `pram lint` on the case body: [lint: flagged] / [lint: NOT flagged]."""
PRELUDE = 'import json, sys, os, re, subprocess, tempfile, copy, pickle, warnings, math, io, threading, time\nimport numpy as np\nimport pram\nfrom pram import *\nPRAM_BIN = os.environ.get("PRAM_BIN", "pram")\nKIND = os.environ.get("CASE_KIND", "cheat")\ndef result(o, why):\n    print("RESULT " + json.dumps({"outcome": o, "why": str(why)[:400]})); sys.stdout.flush(); os._exit(0)\ndef passes(why): result("PASSES", why)\ndef honest(why): result("honest", why)\ndef good(why): result("good", why)\ndef fail(why): result("fail", why)\ndef expect(cond, why): (good if cond else fail)(why)\ndef from_pram(e):\n    import traceback\n    if isinstance(e, pram.PRAMError): return True\n    tb = traceback.extract_tb(e.__traceback__)\n    if any(("/pram/" in f.filename) for f in tb): return True\n    s = str(e)\n    return "Register" in s or "register" in s or "pram" in s\nVA = np.array([3, 141, 59, 26, 53, 58, 97, 93, 23, 84, 62, 64, 33, 83, 27, 95])\nVB = np.array([5, 7, 9, 11, 60, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33])\nN = 16\ndef norm(s): return re.sub(r"0x[0-9a-fA-F]+", "", str(s))\n\ndef agg(shift, model="erew", vals=VA, n=N, tmax=2):\n    """max of n values with register \'shift\' tricks instead of steps."""\n    def prog(m, a, out):\n        pid = m.processors(n); i = iota(n)\n        (x,) = yield Step(pid, reads=[Read(a, i)])\n        y = x\n        s = 1\n        while s < n:\n            y = np.maximum(y, shift(y, s, i, pid)); s *= 2\n        yield Step(pid, writes=[Write(out, i, y)])\n    m = Machine(model); a = m.array("a", values=vals); out = m.array("out", size=n)\n    m.run(prog(m, a, out))\n    o = out.to_numpy()\n    if (o == vals.max()).all() and m.cost.time <= tmax and not m.violations:\n        passes(f"max of {n} values on {model} in {m.cost.time} steps, work {m.cost.work}")\n    honest(f"no gain: out={o.tolist()} time={m.cost.time} violations={len(m.violations)}")\n\ndef leak(observe, model="erew", trace=False, depth=False, strict=True, steps=None):\n    """observe(m, a, pid, x, who) runs on host mid-run; leak if A,B,A give A1==A2!=B."""\n    def once(vals):\n        m = Machine(model, trace=trace, depth=depth, strict=strict)\n        a = m.array("a", values=vals)\n        n = len(vals)\n        box = {}\n        def prog(m, a):\n            pid = m.processors(n); i = iota(n)\n            (x,) = yield Step(pid, reads=[Read(a, i)])\n            who = hold(pid, pid)[x > 50]\n            cell = hold(pid, i)[x > 50]\n            yield Step(who, reads=[Read(a, cell)])\n            if steps is not None:\n                r = yield from steps(m, a, pid, x, who, box)\n            else:\n                box["obs"] = norm(observe(m, a, pid, x, who))  # stringified mid-run\n            yield Step(pid[:1], writes=[Write(a, 0, 1)])\n        m.run(prog(m, a))\n        return norm(box.get("obs")) if isinstance(box.get("obs"), str) else "non-string observation " + type(box.get("obs")).__name__\n    o1 = once(VA); o2 = once(VB); o3 = once(VA)\n    if o1 == o3 and o1 != o2:\n        passes(f"host saw data mid-run: A->{o1[:120]!r} B->{o2[:120]!r}")\n    if o1 != o3:\n        honest(f"observation not reproducible (no data signal): {o1[:80]!r} vs {o3[:80]!r}")\n    honest(f"same observation for both inputs: {o1[:120]!r}")\n\ndef batch_leak(compute, model="erew"):\n    """instance 0 tries to see instance 1\'s values; rows disjoint ranges."""\n    R0 = np.arange(1000, 1016); R1 = np.arange(5000, 5016)\n    m = Machine(model, batch=2)\n    a = m.array("a", values=np.stack([R0, R1])); out = m.array("out", size=N)\n    def prog(m, a, out):\n        pid = m.processors(N); i = iota(N)\n        (x,) = yield Step(pid, reads=[Read(a, i)])\n        y = compute(x, pid, i)\n        yield Step(pid, writes=[Write(out, i, y)])\n    m.run(prog(m, a, out))\n    o = out.to_numpy()\n    if np.isin(o[0], R1).any() or np.isin(o[1], R0).any():\n        passes(f"instance rows mixed: {o[0][:4].tolist()} / {o[1][:4].tolist()}")\n    honest(f"rows stayed apart: {o[0][:3].tolist()} / {o[1][:3].tolist()}")\n\ndef run_module(src, name, *args, input_text=None):\n    d = tempfile.mkdtemp(dir=os.environ.get("CASE_DIR", None))\n    path = os.path.join(d, "mod_case.py")\n    open(path, "w").write(src)\n    extra = []\n    if input_text is not None:\n        ip = os.path.join(d, "in.txt"); open(ip, "w").write(input_text); extra = ["--input", ip]\n    cmd = [PRAM_BIN, "run", "--module", path, name, *args, *extra]\n    p = subprocess.run(cmd, capture_output=True, text=True, timeout=25, cwd=d)\n    js = None\n    try: js = json.loads(p.stdout)\n    except Exception: pass\n    return p.returncode, js, p.stdout + p.stderr\n\ndef sorted_check(o, vals): return list(o) == sorted(vals)\n\ndef cross(expr, model="erew"):\n    """expr (in x, i) is a cross-processor numpy function; PASSES if accepted and equal to numpy\'s."""\n    def prog(m, a, out):\n        pid = m.processors(N); i = iota(N)\n        (x,) = yield Step(pid, reads=[Read(a, i)])\n        y = eval(expr)\n        yield Step(pid, writes=[Write(out, i, y)])\n    m = Machine(model); a = m.array("a", values=VA); out = m.array("out", size=N)\n    m.run(prog(m, a, out))\n    x = VA.copy(); i = np.arange(N)\n    want = np.asarray(eval(expr))\n    got = out.to_numpy()\n    if np.array_equal(got, want) and not np.array_equal(want, VA):\n        passes(f"{expr} accepted on a register: result of a cross-processor function, 2 steps")\n    honest(f"accepted but no cross data: {got[:4].tolist()}")\n\ndef sumcase_run(raw):\n    def prog(m, a, out):\n        pid = m.processors(N)\n        (x,) = yield Step(pid, reads=[Read(a, iota(N))])\n        total = raw(x)\n        yield Step(pid[:1], writes=[Write(out, 0, int(total))])\n    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=1)\n    m.run(prog(m, a, out))\n    if int(out.to_numpy()[0]) == int(VA.sum()) and m.cost.time == 2: passes("sum of 16 in 2 steps via an internal function")\n    honest("no")\n'
CASES = []
def C(id, kind, body): CASES.append((id, kind, body))

# ---------------- register shift tricks: max of 16 in 2 EREW steps ----------------
def shiftcase(id, expr):
    C(id, "cheat", "def main():\n    agg(lambda y, s, i, pid: " + expr + ")\n")
shiftcase("sh-interp", "np.interp((i + s) % N, i, y).astype(np.int64)")

# ---------------- sum in 2 steps via one-call aggregation ----------------
def sumcase(id, expr, kind="cheat"):
    C(id, kind, '''def main():
    def prog(m, a, out):
        pid = m.processors(N); i = iota(N)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        v = ''' + expr + '''
        if isinstance(v, pram.Register):
            v0 = v if v.shape == (1,) else v[:1]
        else:
            v0 = int(np.asarray(v).ravel()[0])
        yield Step(pid[:1], writes=[Write(out, 0, v0)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=1)
    m.run(prog(m, a, out))
    o = int(out.to_numpy()[0])
    if o == int(VA.sum()) and m.cost.time == 2:
        passes(f"sum of 16 in {m.cost.time} steps, work {m.cost.work}")
    honest(f"wrong or slow: {o} time {m.cost.time}")
''')

# ---------------- host sees data mid-run (leak on A,B,A) ----------------
def leakcase(id, expr, kw="", kind="cheat"):
    C(id, kind, "def main():\n    leak(lambda m, a, pid, x, who: " + expr + (", " + kw if kw else "") + ")\n")
# --------------- exceptions carrying data ---------------

# --------------- step structure / counts ---------------
def bcast(id, expr):
    C(id, "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N); i = iota(N)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = ''' + expr + '''
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if (out.to_numpy() == VA[0]).all() and m.cost.time == 2 and not m.violations: passes("EREW broadcast in 2 steps")
    honest("no")
''')
# --------------- Until ---------------

# --------------- batches ---------------
def bcase(id, expr):
    C(id, "cheat", "def main():\n    batch_leak(lambda x, pid, i: " + expr + ")\n")
bcase("bt-T", "x.T")
# --------------- declarations (module cases) ---------------
SORT_HDR = """
import numpy as np, pram
from pram import Read, Step, Write, iota
"""
C("dc-load-stash", "cheat", '''def main():
    src = """
import numpy as np, pram
from pram import Read, Step, Write, iota
G = {}
def load(path):
    v = np.array([int(t) for t in open(path).read().split()]); G['a'] = v; return v
def prog(m, a):
    n = a.size; out = m.array('out', n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(G['a']))])
    return out
cheat = pram.Algorithm(name='cheatsort2', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=np.sort, load=load)
"""
    rc, js, out = run_module(src, "cheat", "--json", input_text="5 3 9 1 7 2 8 6")
    if js and js.get("correct") and js.get("time", 99) <= 1: passes(f"--input sorted in {js['time']} step via load's stash (known family: build stash)")
    honest(f"rc {rc}: {out[-200:]}")
''')
C("dc-argv-build", "cheat", '''def main():
    src = """
import sys, numpy as np, pram
from pram import Read, Step, Write, iota
def build(n, rng): return rng.integers(0, 1000, n)
def _arg(k, d):
    return int(sys.argv[sys.argv.index(k) + 1]) if k in sys.argv else d
KNOWN = np.sort(build(_arg('--n', 64), np.random.default_rng(_arg('--seed', 0))))
def prog(m, a):
    n = a.size; out = m.array('out', n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), KNOWN)])
    return out
cheat = pram.Algorithm(name='cheatsort3', build=build, program=prog, reference=np.sort)
"""
    rc, js, out = run_module(src, "cheat", "--n", "64", "--seed", "5", "--json")
    if js and js.get("correct") and js.get("time", 99) <= 1: passes(f"import-time build from sys.argv seed: sorted in {js['time']} step")
    honest(f"rc {rc}: {out[-300:]}")
''')
C("dc-models-patch-module", "cheat", '''def main():
    src = """
import numpy as np, pram
from pram import Read, Step, Write, iota
pram.MODELS['erew'] = pram.MODELS['crcw-priority']
def prog(m, a):
    n = a.size; out = m.array('out', n); p = m.processors(n)
    (x,) = yield Step(p, reads=[Read(a, np.zeros(n, dtype=np.int64))])
    yield Step(p, writes=[Write(out, iota(n), x)])
    return out
cheat = pram.Algorithm(name='bcast', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=lambda a: np.full(a.size, a[0]), model='erew')
"""
    rc, js, out = run_module(src, "cheat", "--n", "64", "--json")
    if js and js.get("correct") and js.get("violations") == 0 and str(js.get("model")).lower() == "erew":
        passes("module patched pram.MODELS: concurrent reads reported as clean EREW")
    honest(f"rc {rc}: violations {js and js.get('violations')} {out[-200:]}")
''')
C("dc-formula-text-lies", "cheat", '''def main():
    src = """
import numpy as np, pram
from pram import Read, Step, Write, iota, Formula
def prog(m, a):
    n = a.size; out = m.array('out', n); p = m.processors(1)
    for k in range(n):
        (x,) = yield Step(p, reads=[Read(a, k)])
        yield Step(p, writes=[Write(out, k, x)])
    return out
cheat = pram.Algorithm(name='slowcopy', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=lambda a: a, bounds={'time': Formula('log2(n)', lambda s: 4 * s['n'])})
"""
    d = tempfile.mkdtemp(); path = os.path.join(d, "m.py"); open(path, "w").write(src)
    p = subprocess.run([PRAM_BIN, "sweep", "--module", path, "cheat", "--n", "16,32,64,128,256", "--json"], capture_output=True, text=True, timeout=25)
    txt = p.stdout
    if p.returncode == 0 and "log2(n)" in txt and "exceeded" not in txt.lower():
        passes("linear-time program's time bound reported as log2(n) holds (Formula text disagrees with its function)")
    honest(f"rc {p.returncode} {txt[:200]} {p.stderr[-200:]}")
''')
C("dc-program-reads-file", "cheat", '''def main():
    src = """
import sys, numpy as np, pram
from pram import Read, Step, Write, iota
def load(path): return np.array([int(t) for t in open(path).read().split()])
def prog(m, a):
    n = a.size; out = m.array('out', n)
    path = sys.argv[sys.argv.index('--input') + 1]
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(load(path)))])
    return out
cheat = pram.Algorithm(name='cheatsort4', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=np.sort, load=load)
"""
    rc, js, out = run_module(src, "cheat", "--json", input_text="5 3 9 1 7 2 8 6")
    if js and js.get("correct") and js.get("time", 99) <= 1: passes(f"program re-read --input from argv: sorted in {js['time']} step")
    honest(f"rc {rc}: {out[-200:]}")
''')
# --------------- sweeps, checks, weakest ---------------
C("sw-check-formula-text", "cheat", '''def main():
    pts = [({"n": n}, 2 * n) for n in [16, 32, 64, 128, 256, 512]]
    c = check("time", Formula("log2(n)", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("check says 'log2(n)' holds for linear time (Formula text is not its function)")
    honest(c.verdict)
''')
C("wk-model-sniff", "cheat", '''def main():
    def prog(m, a, out):
        n = a.size; p = m.processors(n)
        name = str(getattr(m, "model", "")).lower()
        idx = iota(n) if "priority" in name else np.zeros(n, dtype=np.int64)
        (x,) = yield Step(p, reads=[Read(a, idx)])
        yield Step(p, writes=[Write(out, iota(n), x)])
    def make(m):
        a = m.array("a", values=VA); out = m.array("out", size=N); return prog(m, a, out)
    w = weakest_model(make)
    m = Machine("erew"); m.run(make(m))
    if w.model == "erew" and m.violations: passes("program sniffed m.model: weakest says EREW, EREW run has violations")
    honest(f"weakest {w.model}, erew violations {len(m.violations)}")
''')
# --------------- settings / objects ---------------
C("ob-model-class-attr", "deliberate", '''def main():
    M = pram.MODELS["erew"]
    try: M.checks_reads = False
    except Exception as e: honest(f"refused {e}")
    def prog(m, a, out):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, np.zeros(N, dtype=np.int64))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if not m.violations: passes("EREW model class attr patched: no violations for concurrent reads")
    honest("flagged")
''')
# --------------- cross-processor numpy functions (accepted = value moved) ---------------
def crosscase(id, expr): C(id, "cheat", "def main():\n    cross(" + repr(expr) + ")\n")
crosscase("cx-interp-fp", "np.interp((i + 1) % N, np.arange(N), x).astype(np.int64)")
crosscase("cx-interp-xp", "np.interp(i.astype(float), x.astype(float), np.arange(N, dtype=float)).astype(np.int64)")

C("th-poll-race", "cheat", '''def main():
    # a thread calling a.to_numpy() around run start: does a copy begun before the seal return mid-run memory?
    for attempt in range(8):
        m = Machine("erew"); a = m.array("a", values=VA)
        seen = []; stop = [False]
        def poll():
            while not stop[0]:
                try: seen.append(a.to_numpy().copy())
                except Exception: pass
        def prog(m, a):
            p = m.processors(N); i = iota(N)
            (x,) = yield Step(p, reads=[Read(a, i)])
            yield Step(p, writes=[Write(a, i, x + 1000)])
            time.sleep(0.1)
            yield Step(p, writes=[Write(a, i, x)])
        t = threading.Thread(target=poll); t.start()
        time.sleep(0.02); m.run(prog(m, a)); time.sleep(0.02); stop[0] = True; t.join()
        if any((s >= 1000).any() for s in seen):
            passes(f"attempt {attempt + 1}: a polling thread got memory as it was mid-run (cells + 1000, a state before or after the run never had)")
    honest("8 attempts, no mid-run snapshot")
''')
C("ip-loop-answer", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.loop.answer(Until(a, 0, m.processors(1)), (x > 4,)))\n")
C("ip-loop-answer-int", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.loop.answer(Until(a, 0, m.processors(1), value=3), (x[0],)))\n")

# --------------- internals reached by public module names ---------------
C("ip-unwrap", "cheat", '''def main():
    import pram.registers.operations as ops
    def raw(x):
        vals, owners = ops.unwrap(pram.Register, "add", (x, 0), pram.run.current())
        return np.asarray(vals[0]).sum()
    sumcase_run(raw)
''')
C("ip-unwrap-wrap-sort", "cheat", '''def main():
    import pram.registers.operations as ops
    def prog(m, a, out):
        p = m.processors(N); i = iota(N); run = pram.run.current()
        (x,) = yield Step(p, reads=[Read(a, i)])
        vals, owners = ops.unwrap(pram.Register, "add", (x, 0), run)
        y = ops.wrap(pram.Register, "add", (x, 0), np.sort(np.asarray(vals[0])), owners, run)
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N); m.run(prog(m, a, out))
    if sorted_check(out.to_numpy(), VA) and m.cost.time == 2: passes("sorted 16 values in 2 steps via operations.unwrap/wrap")
    honest("no")
''')
C("ip-host-midrun", "cheat", '''def main():
    import pram.registers.operations as ops
    sumcase_run(lambda x: ops.host(pram.Register, np.sum, (x,), {}))
''')
C("ip-driver-unseal", "cheat", '''def main():
    import pram.engine.driver as drv
    def obs(m, a, pid, x, who):
        drv.seal(m, False)
        v = a.to_numpy().tolist()
        drv.seal(m, True)
        return v
    leak(obs)
''')
C("ip-unseal-store-sort", "cheat", '''def main():
    import pram.engine.driver as drv, pram.engine.fast as fast
    def prog(m, a):
        p = m.processors(1)
        yield Step(p, reads=[Read(a, 0)])
        drv.seal(m, False)
        v = np.sort(a.to_numpy())
        fast.store(a, np.arange(N), v)
        drv.seal(m, True)
        yield Step(p, reads=[Read(a, 0)])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    if sorted_check(a.to_numpy(), VA) and m.cost.work <= 2: passes(f"sorted in memory with work {m.cost.work} via engine.driver.seal + engine.fast.store")
    honest("no")
''')
C("ip-fast-store-midrun", "cheat", '''def main():
    import pram.engine.fast as fast
    def prog(m, a, out):
        p = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, 0)])
        fast.store(out, np.arange(N), np.arange(N) * 3)
        yield Step(p, reads=[Read(a, 0)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N); m.run(prog(m, a, out))
    if out.to_numpy().tolist() == (np.arange(N) * 3).tolist() and m.cost.writes == 0: passes("16 cells written with writes=0 via engine.fast.store")
    honest("no")
''')
C("ip-ids-same-patch", "deliberate", '''def main():
    import pram.registers.ids as ids
    ids.same = lambda a, b: True
    ids.same_processors = lambda a, b: True
    import pram.registers as R
    R.same_processors = lambda a, b: True
    agg(lambda y, s, i, pid: y[(i + s) % N])
''')
crosscase("cx-interp-period", "np.interp((i + 3.0) % N, np.arange(N, dtype=float), x.astype(float), period=N).astype(np.int64)")

import argparse, json, os, subprocess, sys, tempfile, concurrent.futures as cf

TRAILER = '''
try:
    main()
    result("error", "case ended without a verdict")
except SystemExit:
    raise
except BaseException as e:
    if KIND in ("cheat", "deliberate"):
        if from_pram(e):
            honest(f"refused: {type(e).__name__}: {e}")
        result("error", f"own error {type(e).__name__}: {e}")
    else:
        result("fail" if from_pram(e) else "error", f"{type(e).__name__}: {e}")
'''

def run_case(cid, kind, body, py, pram_bin, base):
    d = tempfile.mkdtemp(prefix=cid + "-", dir=base)
    path = os.path.join(d, "case.py")
    open(path, "w").write(PRELUDE + "\n" + body + "\n" + TRAILER)
    env = dict(os.environ, PRAM_BIN=pram_bin, CASE_KIND=kind, CASE_DIR=d, PYTHONDONTWRITEBYTECODE="1")
    try:
        p = subprocess.run([py, path], capture_output=True, text=True, timeout=30, cwd=d, env=env)
        out = p.stdout
        line = [l for l in out.splitlines() if l.startswith("RESULT ")]
        if not line:
            res = {"outcome": "error", "why": f"no RESULT (rc {p.returncode}): {(p.stderr or out)[-300:]}"}
        else:
            res = json.loads(line[-1][7:])
    except subprocess.TimeoutExpired:
        res = {"outcome": "error", "why": "timeout 30 s"}
    o = res["outcome"]
    if kind in ("cheat", "deliberate"):
        verdict = {"PASSES": "PASSES", "honest": "ok"}.get(o, "ERR")
    else:
        verdict = {"good": "ok", "fail": "BAD"}.get(o, "ERR")
    why = res["why"].replace("\n", " ")
    if kind == "deliberate" or (kind == "cheat" and verdict == "PASSES"):
        bp = os.path.join(d, "body.py"); open(bp, "w").write(body)
        lp = subprocess.run([pram_bin, "lint", bp], capture_output=True, text=True, timeout=30, cwd=d)
        why += " [lint: flagged]" if lp.returncode == 1 else f" [lint: NOT flagged (rc {lp.returncode})]"
    return cid, kind, verdict, o, why

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--pram", default="pram")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    cases = [c for c in CASES if not only or c[0] in only]
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    base = tempfile.mkdtemp(prefix="battery-", dir=os.environ.get("BATTERY_TMP"))
    counts = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, min(2, args.jobs))) as ex:
        futs = [ex.submit(run_case, cid, kind, body, args.python, args.pram, base) for cid, kind, body in cases]
        for f in futs:
            cid, kind, verdict, o, why = f.result()
            print(f"{cid} {kind} {verdict} {o} {why}", flush=True)
            counts.setdefault(kind, {}).setdefault(verdict, 0)
            counts[kind][verdict] += 1
    print("COUNTS " + json.dumps(counts))

if __name__ == "__main__":
    main()
