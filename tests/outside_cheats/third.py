#!/usr/bin/env python3
# ruff: noqa
"""A third outside honesty battery (254 plausible cheats, 22 deliberate, 35 idioms), written
from the docs by a tester who had not seen the code or the tests, kept as written but for
where it writes; tests/test_outside_cheats.py runs the cases of it that passed before their
round's fixes.

Outside honesty battery for pram: python battery.py --python PY --pram PRAM [--only ID,ID] [--jobs 2]

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
shiftcase("sh-concat", "np.concatenate([y[s:], y[:s]])")
shiftcase("sh-choose-table", "np.choose((i + s) % N, y)")
shiftcase("sh-fancy-index", "y[(i + s) % N]")
shiftcase("sh-resize", "np.resize(y, 2 * N)[s:s + N]")
shiftcase("sh-tile", "np.tile(y, 2)[s:s + N]")
shiftcase("sh-pad-wrap", "np.pad(y, (0, s), mode='wrap')[s:]")
shiftcase("sh-append", "np.append(y[s:], y[:s])")
shiftcase("sh-interp", "np.interp((i + s) % N, i, y).astype(np.int64)")
shiftcase("sh-broadcast-to", "np.broadcast_to(y, (N, N))[i, (i + s) % N]")
shiftcase("sh-take-along", "np.take_along_axis(y, (i + s) % N, axis=0)")
shiftcase("sh-method-take", "y.take((i + s) % N)")
shiftcase("sh-dot-perm", "np.dot(np.eye(N, dtype=np.int64)[(np.arange(N) + s) % N], y)")
shiftcase("sh-einsum", "np.einsum('ij,j->i', np.eye(N, dtype=np.int64)[(np.arange(N) + s) % N], y)")
shiftcase("sh-tensordot", "np.tensordot(np.eye(N, dtype=np.int64)[(np.arange(N) + s) % N], y, 1)")
C("sh-slice-assign-plain", "cheat", '''def main():
    def sh(y, s, i, pid):
        z = y.copy()
        z[:N - s] = y[s:]
        z[N - s:] = y[:s]
        return z
    agg(sh)
''')
shiftcase("sh-copyto", "(lambda z: (np.copyto(z, np.concatenate([y[s:], y[:s]])), z)[1])(y.copy())")
shiftcase("sh-putmask", "(lambda z: (np.putmask(z, np.ones(N, bool), y[s:]), z)[1])(y.copy())")
shiftcase("sh-where-rev", "np.where(i >= 0, y[::-1], y)")
shiftcase("sh-select-rev", "np.select([i >= 0], [y[::-1]])")
shiftcase("sh-clip-rev", "np.clip(y, y[::-1], None)")
shiftcase("sh-fill-like", "np.full_like(y, y[s % N])")
shiftcase("sh-isclose-rtol", "np.where(np.isclose(y, 0, atol=y[::-1]), y, y)")
shiftcase("sh-out-other", "np.add(y[::-1], 0, out=y.copy())")
shiftcase("sh-where-kw", "np.add(y, 0, out=y[::-1].copy(), where=(i < 0))")
shiftcase("sh-vectorize-sig", "np.vectorize(lambda v: np.roll(v, -s), signature='(n)->(n)')(y)")
shiftcase("sh-piecewise", "np.piecewise(y, [i >= 0], [lambda v: np.roll(v, -s)])")
shiftcase("sh-apply-along", "np.apply_along_axis(lambda v: np.roll(v, -s), 0, y)")
shiftcase("sh-sliding", "np.lib.stride_tricks.sliding_window_view(np.concatenate([y, y]), N)[s]")
shiftcase("sh-ma", "np.ma.masked_array(np.roll(y, -s)).filled()")
shiftcase("sh-digitize-bins", "np.digitize(y, np.sort(y))")
shiftcase("sh-isin-reg", "np.where(np.isin(y, y[::-1]), y, y)")
shiftcase("sh-inplace-sort", "(lambda z: (z.sort(), z)[1])(y.copy())")
shiftcase("sh-partition", "(lambda z: (z.partition(N - 1), z)[1])(y.copy())[N - 1] + 0 * y")
shiftcase("sh-fancy-rev-hold", "hold(pid, y[::-1])")
shiftcase("sh-repeat", "np.repeat(y[N - 1], N) ")

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
sumcase("sum-convolve", "np.convolve(x, np.ones(N, dtype=np.int64), mode='valid')")
sumcase("sum-polyval", "np.polyval(x, 1)")
sumcase("sum-norm1", "np.linalg.norm(x, 1)")
sumcase("sum-histogram", "np.histogram(np.zeros(N), bins=1, weights=x)[0]")
sumcase("sum-bincount", "np.bincount(np.zeros(N, dtype=np.int64), weights=x)")
sumcase("sum-inner", "np.inner(x, np.ones(N, dtype=np.int64))")
sumcase("sum-vdot", "np.vdot(np.ones(N, dtype=np.int64), x)")
sumcase("sum-nansum", "np.nansum(x)")
sumcase("sum-average", "np.average(x) * N")
sumcase("sum-builtin", "sum(x)")
sumcase("sum-fsum", "math.fsum(x)")
sumcase("sum-einsum", "np.einsum('i->', x)")
sumcase("sum-functools", "__import__('functools').reduce(np.add, x)")
sumcase("sum-nditer", "sum(int(v) for v in np.nditer(x))")
sumcase("sum-tolist", "sum(x.tolist())")
sumcase("sum-asarray", "np.asarray(x).sum()")
sumcase("sum-array-copy", "np.array(x, copy=True).sum()")
sumcase("sum-frombuffer", "np.frombuffer(memoryview(x), dtype=np.int64).sum()")
sumcase("sum-tobytes", "np.frombuffer(x.tobytes(), dtype=np.int64).sum()")
sumcase("sum-bytes", "np.frombuffer(bytes(x), dtype=np.int64).sum()")
sumcase("sum-view-ndarray", "x.view(np.ndarray).sum()")
sumcase("sum-struct-view", "x.view([('v', '<i8')])['v'].sum()")
sumcase("sum-void-view", "np.frombuffer(x.view('V8').tobytes(), dtype=np.int64).sum()")
sumcase("sum-astype-object", "sum(x.astype(object))")
sumcase("sum-astype-str", "sum(int(s) for s in x.astype(str))")
sumcase("sum-cumprod-method", "np.log(np.exp(x.astype(float)).cumprod())[-1:].round().astype(np.int64)")
sumcase("sum-dot-method", "x.dot(np.ones(N, dtype=np.int64))")
sumcase("sum-matrix", "(np.asmatrix(np.ones(N, dtype=np.int64)) * x.reshape(N, 1))")
sumcase("sum-flat", "sum(x.flat)")
sumcase("sum-heapq", "sum(__import__('heapq').nlargest(N, x))")
sumcase("sum-json", "sum(json.loads(json.dumps(x, default=lambda o: o.tolist())))")
sumcase("sum-out-tuple-plain", "(lambda o: (np.add(x, 0, out=(o,)), o.sum())[1])(np.zeros(N, dtype=np.int64))")
sumcase("sum-dtype-object-kw", "sum(np.add(x, 0, dtype=object))")

# ---------------- host sees data mid-run (leak on A,B,A) ----------------
def leakcase(id, expr, kw="", kind="cheat"):
    C(id, kind, "def main():\n    leak(lambda m, a, pid, x, who: " + expr + (", " + kw if kw else "") + ")\n")
leakcase("lk-format-spec", "format(x, '')")
leakcase("lk-fstring", "f'{x!s} {x!r} {x[0]}'")
leakcase("lk-percent", "'%s %r' % (x, x[0])")
leakcase("lk-percent-d", "'%d' % x[0]")
leakcase("lk-array2string", "np.array2string(x)")
leakcase("lk-array-repr", "np.array_repr(x[:3])")
leakcase("lk-print", "(lambda b: (print(x, x[0], file=b), b.getvalue())[1])(io.StringIO())")
leakcase("lk-operator-index", "__import__('operator').index(x[0])")
leakcase("lk-range", "len(range(x[0]))")
leakcase("lk-struct", "__import__('struct').pack('q', x[0])")
leakcase("lk-round", "round(x[0])")
leakcase("lk-math-floor", "math.floor(x[0])")
leakcase("lk-item", "x[0].item()")
leakcase("lk-hash", "hash(x[0]) % 1000003")
leakcase("lk-set-len", "len({x[0], x[1], x[0] + 0})")
leakcase("lk-dict-in", "x[0] in {3: 1}")
leakcase("lk-sorted-pair", "sorted([x[0], x[15]])[0] is x[0]")
leakcase("lk-max-builtin", "max(x[0], x[15]) is x[0]")
leakcase("lk-bool-and", "bool((x[0] > 4) and 1)")
leakcase("lk-array-equal", "np.array_equal(x, VA)")
leakcase("lk-allclose", "np.allclose(x, VA)")
leakcase("lk-np-any", "np.any(x > 100)")
leakcase("lk-count-nonzero", "np.count_nonzero(x > 50)")
leakcase("lk-where-1arg", "np.where(x > 50)")
leakcase("lk-argwhere", "np.argwhere(x > 50).tolist()")
leakcase("lk-isin-plain-elems", "np.isin(VA, x).tolist()")
leakcase("lk-searchsorted", "np.searchsorted(x, 50)")
leakcase("lk-testing-assert", "(lambda: (np.testing.assert_array_less(x, 100), 'ok')[1])()")
leakcase("lk-opaque-nbytes", "x[x > 50].nbytes")
leakcase("lk-opaque-strides", "(x[x > 50].strides, x[x > 50].ndim)")
leakcase("lk-opaque-broadcast", "np.broadcast(who, who).size")
leakcase("lk-opaque-emptylike-shape", "np.empty_like(x[x > 50]).shape")
leakcase("lk-opaque-list", "len(list(who))")
leakcase("lk-opaque-dunder-len", "x[x > 50].__len__()")
leakcase("lk-opaque-ones-like-sum", "np.ones_like(x[x > 50]).sum()")
leakcase("lk-opaque-widen", "pram.registers.holding.widen(x[x > 50], 0).shape")
leakcase("lk-processors-of", "len(pram.trace.processors_of(Step(who, reads=[Read(a, 0)])))")
leakcase("lk-cost-work", "m.cost.work")
leakcase("lk-cost-asdict", "m.cost.as_dict()")
leakcase("lk-cost-profile", "list(m.cost.profile)")
leakcase("lk-cost-brent", "m.cost.brent(1)")
leakcase("lk-cost-reads", "m.cost.reads")
leakcase("lk-cost-maxproc", "m.cost.max_processors")
leakcase("lk-cost-local", "m.cost.local")
leakcase("lk-cost-repr", "repr(m.cost) + str(m.cost)")
leakcase("lk-cost-fresh", "m.cost.fresh().work")
leakcase("lk-cost-deepcopy", "copy.deepcopy(m.cost).work")
leakcase("lk-cost-pickle", "pickle.loads(pickle.dumps(m.cost)).work")
leakcase("lk-cost-activity", "m.cost.activity")
leakcase("lk-cost-roundwork", "m.cost.round_work")
leakcase("lk-cost-phases", "{k: v.work for k, v in m.cost.phases.items()}")
leakcase("lk-costs-batch1", "[c.work for c in m.costs]")
leakcase("lk-trace-steps", "[len(s.processors) for s in m.trace.steps]", "trace=True")
leakcase("lk-trace-html", "(lambda p: (m.trace.to_html(p), len(open(p).read()))[1])(tempfile.mktemp(suffix='.html'))", "trace=True")
leakcase("lk-trace-str", "repr(m.trace)", "trace=True")
leakcase("lk-depths", "repr(m.depths)", "depth=True")
leakcase("lk-assert-erew-midrun", "(lambda: (pram.testing.assert_erew(m), 'clean')[1])()")
leakcase("lk-mem-asarray", "np.asarray(a).tolist()")
leakcase("lk-mem-index", "a[1]")
leakcase("lk-mem-list", "list(a)")
leakcase("lk-mem-str", "str(a) + repr(a)")
leakcase("lk-mem-eq", "np.asarray(a == 3).tolist()")
leakcase("lk-mem-tolist", "a.tolist()")
leakcase("lk-mem-npsave", "(lambda b: (np.save(b, a), len(b.getvalue()), b.getvalue()[-40:])[1:])(io.BytesIO())")
leakcase("lk-mem-array-of-array", "m.array('copy_of_a', values=a).size")
leakcase("lk-mem-free-then-read", "(m.free(a), a.to_numpy().tolist())[1]")
leakcase("lk-contents", "pram.registers.contents(x).tolist()")
C("lk-mem-copy-array-count", "cheat", '''def main():
    # allocate a copy of input memory from an Array mid-run: n cells copied at work 0
    def prog(m, a):
        pid = m.processors(1)
        c = m.array("c", values=a)
        yield Step(pid, reads=[Read(a, 0)])
        return c
    m = Machine("erew"); a = m.array("a", values=VA)
    c = m.run(prog(m, a))
    if np.array_equal(c.to_numpy(), VA) and m.cost.work < N:
        passes(f"copied 16 cells with work {m.cost.work}")
    honest("no copy")
''')
C("lk-new-array-midrun", "cheat", '''def main():
    def steps(m, a, pid, x, who, box):
        c = m.array("c", size=N)
        yield Step(pid, writes=[Write(c, iota(N), x)])
        box["obs"] = c.to_numpy().tolist()
    leak(None, steps=steps)
''')
C("lk-other-machine-array", "cheat", '''def main():
    m2 = Machine("erew"); c = m2.array("c", size=N)
    def steps(m, a, pid, x, who, box):
        yield Step(pid, writes=[Write(c, iota(N), x)])
        box["obs"] = c.to_numpy().tolist()
    leak(None, steps=steps)
''')
C("lk-other-machine-yieldfrom", "cheat", '''def main():
    def steps(m, a, pid, x, who, box):
        m2 = Machine("erew"); c = m2.array("c", size=N)
        def sub(m2, c):
            p2 = m2.processors(N)
            yield Step(p2, writes=[Write(c, iota(N), x)])
        yield from sub(m2, c)
        box["obs"] = c.to_numpy().tolist()
    leak(None, steps=steps)
''')
# --------------- exceptions carrying data ---------------
C("ex-catch-address", "cheat", '''def main():
    def steps(m, a, pid, x, who, box):
        try:
            yield Step(pid, reads=[Read(a, x)])
            box["obs"] = "no error"
        except Exception as e:
            box["obs"] = type(e).__name__ + str(getattr(e, "index", ""))
    leak(None, steps=steps)
''')
C("ex-catch-conflict", "cheat", '''def main():
    def steps(m, a, pid, x, who, box):
        try:
            yield Step(pid, writes=[Write(a, x % 8, 1)])
            box["obs"] = "no error"
        except Exception as e:
            box["obs"] = str(e)
    def once(vals):
        m = Machine("erew", mode="raise"); a = m.array("a", values=vals); box = {}
        def prog(m, a):
            pid = m.processors(N)
            (x,) = yield Step(pid, reads=[Read(a, iota(N))])
            yield from steps(m, a, pid, x, None, box)
            yield Step(pid[:1], writes=[Write(a, 0, 1)])
        m.run(prog(m, a)); return norm(box.get("obs"))
    o1, o2, o3 = once(VA), once(VB), once(VA)
    if o1 == o3 != o2: passes(f"caught conflict text: {o1[:100]}")
    honest("no signal")
''')
C("ex-catch-undefined", "cheat", '''def main():
    def once(vals):
        m = Machine("erew"); a = m.array("a", values=vals); b = m.array("b", size=200); box = {}
        def prog(m, a, b):
            pid = m.processors(N)
            (x,) = yield Step(pid, reads=[Read(a, iota(N))])
            yield Step(pid, writes=[Write(b, iota(N) + 100, 0)])
            try:
                yield Step(pid, reads=[Read(b, x)])
                box["obs"] = "fine"
            except Exception as e:
                box["obs"] = str(e)
            yield Step(pid[:1], writes=[Write(a, 0, 1)])
        m.run(prog(m, a, b)); return norm(box.get("obs"))
    o1, o2, o3 = once(VA), once(VB), once(VA)
    if o1 == o3 != o2: passes(f"caught undefined-read text: {o1[:100]}")
    honest("no signal")
''')
leakcase("ex-choose-mode-raise", "(lambda: (np.choose(x // 10, np.arange(10), mode='raise'), 'ok')[1])()")
leakcase("ex-seterr-raise", "(lambda old: (np.sqrt(100.0 - x), np.seterr(**old), 'ok')[2])(np.seterr(all='raise'))")
C("ex-seterrcall", "cheat", '''def main():
    calls = []
    def obs(m, a, pid, x, who):
        calls.clear()
        old = np.seterrcall(lambda kind, flag: calls.append(kind)); olde = np.seterr(all='call')
        np.sqrt(100.0 - x)
        np.seterr(**olde); np.seterrcall(old)
        return len(calls)
    leak(obs)
''')
C("ex-errstate-ctx", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        try:
            with np.errstate(all='raise'):
                np.log(100.0 - x)
            return "ok"
        except FloatingPointError as e:
            return "fpe"
    leak(obs)
''')
C("ex-warnings-record", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            np.sqrt(100.0 - x); (100.0 / (x - 141)).astype(np.int64)
        return len(w)
    leak(obs)
''')
C("ex-warnings-error-cast", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                (100.0 / (x - 141)).astype(np.int64); return "ok"
            except Exception as e:
                return type(e).__name__
    leak(obs)
''')
C("ex-overflow-catch", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        try:
            y = x * (2 ** 56)
            return "ok"
        except Exception as e:
            return type(e).__name__
    leak(obs)
''')
C("ex-int8-cast", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        try:
            x.astype(np.int8, casting="same_kind"); return "ok"
        except Exception as e:
            return type(e).__name__ + str(e)
    leak(obs)
''')

# --------------- step structure / counts ---------------
C("st-one-proc-many-cells", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA) and m.cost.work < 2 * N: passes(f"1 processor moved 16 cells, work {m.cost.work}")
    honest(f"work {m.cost.work}")
''')
C("st-one-proc-2d-index", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, np.arange(N).reshape(1, N))])
        yield Step(p, writes=[Write(out, np.arange(N).reshape(1, N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA) and m.cost.work < 2 * N: passes(f"work {m.cost.work} reads {m.cost.reads}")
    honest(f"work {m.cost.work}")
''')
C("st-too-many-ports", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(1)
        xs = yield Step(p, reads=[Read(a, k) for k in range(N)])
        y = xs[0]
        for v in xs[1:]: y = np.maximum(y, v)
        yield Step(p, writes=[Write(out, 0, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=1)
    m.run(prog(m, a, out))
    if out.to_numpy()[0] == VA.max(): passes(f"one processor read 16 cells in one step (MAX_ACCESSES={pram.MAX_ACCESSES})")
    honest("no")
''')
C("st-patch-max-accesses", "deliberate", '''def main():
    pram.MAX_ACCESSES = 64
    import pram.step as ps
    try: ps.MAX_ACCESSES = 64
    except Exception: pass
    def prog(m, a, out):
        p = m.processors(1)
        xs = yield Step(p, reads=[Read(a, k) for k in range(N)])
        y = xs[0]
        for v in xs[1:]: y = np.maximum(y, v)
        yield Step(p, writes=[Write(out, 0, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=1)
    m.run(prog(m, a, out))
    if out.to_numpy()[0] == VA.max(): passes("patched MAX_ACCESSES: one processor read 16 cells in one step")
    honest("no")
''')
C("st-yield-list", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N)
        r = yield [Step(p, reads=[Read(a, iota(N))]), Step(m.processors(N), reads=[Read(a, iota(N))])]
        (x,) = r[0]
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if m.cost.time < 3: passes(f"two steps in one yield, time {m.cost.time}")
    honest("counted")
''')
C("st-masked-read-free", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N); i = iota(N)
        (x,) = yield Step(p, reads=[Read(a, i, where=np.zeros(N, dtype=bool))])
        yield Step(p, writes=[Write(out, i, x)])
    m = Machine("erew", strict=False); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA) and m.cost.reads == 0: passes("masked-out reads still returned memory, reads 0")
    honest(f"masked read gave {out.to_numpy()[:3].tolist()}, reads {m.cost.reads}")
''')
C("st-bcast-hold", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N); i = iota(N)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = hold(p, x[0])
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if (out.to_numpy() == VA[0]).all() and m.cost.time == 2 and not m.violations: passes("EREW broadcast in 2 steps")
    honest("no")
''')
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
bcast("bc-full-like", "np.full_like(x, x[0])")
bcast("bc-plus-zeros", "x[0] + np.zeros(N, dtype=np.int64)")
bcast("bc-broadcast-to", "np.broadcast_to(x[0], (N,))")
bcast("bc-fancy-dup", "x[np.zeros(N, dtype=np.int64)]")
bcast("bc-where-scalar-reg", "np.where(i == 0, x, x[0])")
bcast("bc-zeros-like-fill", "np.zeros_like(x) + x[:1]")
bcast("bc-ones-like-mul", "np.ones_like(x) * x[0:1]")
C("mx-write-other-procs", "cheat", '''def main():
    def prog(m, a, out):
        p1 = m.processors(N); p2 = m.processors(N); i = iota(N)
        (x,) = yield Step(p1, reads=[Read(a, i)])
        yield Step(p2, writes=[Write(out, i, x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA): passes("p2 wrote p1's registers")
    honest("no")
''')
C("mx-index-other-procs", "cheat", '''def main():
    def prog(m, a, out):
        p1 = m.processors(N); p2 = m.processors(N); i = iota(N)
        (x,) = yield Step(p1, reads=[Read(a, i)])
        (y,) = yield Step(p2, reads=[Read(a, x % N)])
        yield Step(p2, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    passes("p2 addressed memory with p1's data")
''')
C("mx-reversed-procs", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N); i = iota(N)
        (x,) = yield Step(p, reads=[Read(a, i)])
        yield Step(p[::-1], writes=[Write(out, i, x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    o = out.to_numpy()
    if o[0] == VA[0] and o[1] == VA[1]: passes("register applied positionally to reversed processors (values moved)")
    honest(f"aligned by id: {o[:3].tolist()}")
''')
C("mx-parallel-branch-register", "cheat", '''def main():
    shared = {}
    def A(m, a, p):
        (x,) = yield Step(p, reads=[Read(a, iota(N))]); shared["x"] = x
        yield Step(p, reads=[Read(a, iota(N))])
    def B(m, out, q):
        yield Step(q, reads=[])
        yield Step(q, writes=[Write(out, iota(N), shared["x"])])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(parallel(A(m, a, m.processors(N)), B(m, out, m.processors(N))))
    if np.array_equal(out.to_numpy(), VA): passes("branch B wrote branch A's registers")
    honest("no")
''')
C("mx-hold-other", "cheat", '''def main():
    def prog(m, a, out):
        p1 = m.processors(N); p2 = m.processors(N); i = iota(N)
        (x,) = yield Step(p1, reads=[Read(a, i)])
        y = hold(p2, x)
        yield Step(p2, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA): passes("hold moved registers to other processors")
    honest("no")
''')
C("mx-mask-assign-cross", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N); i = iota(N)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = x.copy()
        y[x > 0] = x[::-1][x > 0]
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if np.array_equal(out.to_numpy(), VA[::-1]): passes("masked assignment reversed values across processors")
    honest("no")
''')
# --------------- Until ---------------
C("un-index-many", "cheat", '''def main():
    def prog(m, a, flag):
        p = m.processors(N); c = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        r = yield Until(flag, iota(N), c)
        return r
    m = Machine("erew"); a = m.array("a", values=VA); flag = m.array("flag", values=np.zeros(N, dtype=np.int64))
    m.run(prog(m, a, flag)); passes("Until read 16 cells with one control")
''')
C("un-dup-control", "cheat", '''def main():
    def prog(m, a):
        c = m.processors(1)
        r = yield Until(a, np.array([0, 1]), np.array([c[0], c[0]]))
    m = Machine("erew"); a = m.array("a", values=VA)
    m.run(prog(m, a)); passes("Until with a control listed twice")
''')
C("un-index-register-others", "cheat", '''def main():
    # control's index is a register of 16 other processors: an OR over their data
    def once(vals):
        m = Machine("erew"); a = m.array("a", values=vals)
        flag = m.array("flag", values=(np.arange(200) == 141).astype(np.int64))
        def prog(m, a, flag):
            p = m.processors(N); c = m.processors(1)
            (x,) = yield Step(p, reads=[Read(a, iota(N))])
            return (yield Until(flag, x, c))
        return m.run(prog(m, a, flag))
    r1, r2 = once(VA), once(VB)
    if r1 != r2: passes("Until on another group's index register gave an OR")
    honest("same")
''')
C("un-value-register", "cheat", '''def main():
    def prog(m, a):
        p = m.processors(N); c = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        return (yield Until(a, 0, c, value=x[0]))
    m = Machine("erew"); a = m.array("a", values=VA)
    r = m.run(prog(m, a)); passes(f"Until value= a register accepted: {r}")
''')
C("un-subclass", "cheat", '''def main():
    class U(Until): pass
    passes("subclassed Until")
''')
C("un-bool-register-flag", "cheat", '''def main():
    # control processor is a register chosen by data (size 1 only if data says so)
    def prog(m, a):
        p = m.processors(N); c = m.processors(1)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        sel = hold(p, p)[x == 141]
        return (yield Until(a, 0, sel))
    m = Machine("erew"); a = m.array("a", values=VA)
    r = m.run(prog(m, a)); passes("Until by a data-chosen control")
''')

# --------------- batches ---------------
def bcase(id, expr):
    C(id, "cheat", "def main():\n    batch_leak(lambda x, pid, i: " + expr + ")\n")
bcase("bt-index-1", "x[1] + 0 * x")
bcase("bt-choose-rows", "np.choose(np.zeros(N, dtype=np.int64), x)")
bcase("bt-flip-axis0", "np.flip(x, axis=0)")
bcase("bt-swapaxes", "np.swapaxes(x, 0, -1)")
bcase("bt-reshape", "x.reshape(-1)[:N]")
bcase("bt-ellipsis-rev", "x[..., ::-1][..., ::-1]")
bcase("bt-where-plain2d", "np.where(np.array([[True] * N, [False] * N]), x, 0)")
bcase("bt-T", "x.T")
C("bt-pass-ids", "cheat", '''def main():
    # instance 0 ends its loop after 1 round, instance 1 after 3: do the rerun pass's
    # processor ids or array identities tell instance 0 that another instance went on?
    m = Machine("erew", batch=2)
    flag = m.array("flag", values=np.array([[1, 1, 1, 1], [0, 0, 1, 1]]))
    out = m.array("out", values=np.zeros((2, 2), dtype=np.int64))
    def prog(m, flag, out):
        first = int(m.processors(1)[0])
        c = m.processors(1)
        r = 0
        while True:
            done = yield Until(flag, r, c)
            r += 1
            if done: break
        p = m.processors(1)
        yield Step(p, writes=[Write(out, 0, first), Write(out, 1, int(p[0]))])
    m.run(prog(m, flag, out))
    o = out.to_numpy()
    single = []
    for row in ([1, 1, 1, 1], [0, 0, 1, 1]):
        s = Machine("erew"); f = s.array("flag", values=np.array(row)); ou = s.array("out", values=np.zeros(2, dtype=np.int64))
        s.run(prog(s, f, ou)); single.append(ou.to_numpy().tolist())
    if o.tolist() != single: passes(f"batch ids differ from single runs: {o.tolist()} vs {single}")
    honest(f"ids as single runs: {o.tolist()}")
''')
C("bt-results-midrun", "cheat", '''def main():
    m = Machine("erew", batch=2); a = m.array("a", values=np.stack([VA, VB]))
    box = {}
    def prog(m, a):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        try: box["r"] = repr(m.results)
        except Exception as e: box["r"] = "refused " + type(e).__name__
        try: box["c"] = [c.work for c in m.costs]
        except Exception as e: box["c"] = "refused " + type(e).__name__
    m.run(prog(m, a))
    passes(str(box)) if ("refused" not in str(box["r"]) and "141" in str(box["r"])) else honest(str(box))
''')
# --------------- declarations (module cases) ---------------
SORT_HDR = """
import numpy as np, pram
from pram import Read, Step, Write, iota
"""
C("dc-reference-stash", "cheat", '''def main():
    src = """
import numpy as np, pram
from pram import Read, Step, Write, iota
G = {}
def ref(a):
    G['a'] = np.array(a); return np.sort(a)
def prog(m, a):
    n = a.size
    out = m.array('out', n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(G['a']) if 'a' in G else np.zeros(n, dtype=np.int64))])
    return out
cheat = pram.Algorithm(name='cheatsort', build=lambda n, rng: rng.integers(0, 1000, n), program=prog, reference=ref,
    bounds={'time': '1'})
"""
    rc, js, out = run_module(src, "cheat", "--n", "64", "--json", "--seed", "3")
    if js and js.get("correct") and js.get("time", 99) <= 1: passes(f"sorted in {js['time']} step via reference's stash")
    honest(f"rc {rc}: {out[-200:]}")
''')
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
C("sw-builder-two-runs", "cheat", '''def main():
    def heavy(m, a, n):
        p = m.processors(1)
        for k in range(1, n):
            x, y = yield Step(p, reads=[Read(a, 0), Read(a, k)])
            yield Step(p, writes=[Write(a, 0, x + y)])
    def trivial(m, a):
        yield Step(m.processors(1), reads=[Read(a, 0)])
    def builder(m, n):
        a = m.array("a", values=np.arange(n))
        m.run(heavy(m, a, n)); m.run(trivial(m, a))
        assert a.to_numpy()[0] == n * (n - 1) // 2
    s = pram.sweep(builder, [16, 32, 64, 128, 256, 512], bounds={"time": "1"})
    v = s.checks["time"].verdict
    if v == "holds": passes(f"sweep measured only the last run: O(1) time for an n-step sum ({s.laws['time'].text})")
    honest(f"verdict {v}")
''')
C("sw-builder-n-two-runs", "cheat", '''def main():
    def heavy(m, a, n):
        p = m.processors(1)
        for k in range(1, n):
            x, y = yield Step(p, reads=[Read(a, 0), Read(a, k)])
            yield Step(p, writes=[Write(a, 0, x + y)])
    def builder(n):
        m = Machine("erew"); a = m.array("a", values=np.arange(n))
        m.run(heavy(m, a, n)); m.run(heavy(m, a, 2))
        return m
    s = pram.sweep(builder, [16, 32, 64, 128, 256, 512], bounds={"time": "1"})
    v = s.checks["time"].verdict
    if v == "holds": passes("builder(n): sweep took only the last m.run")
    honest(f"verdict {v}")
''')
C("sw-check-formula-text", "cheat", '''def main():
    pts = [({"n": n}, 2 * n) for n in [16, 32, 64, 128, 256, 512]]
    c = check("time", Formula("log2(n)", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("check says 'log2(n)' holds for linear time (Formula text is not its function)")
    honest(c.verdict)
''')
C("sw-nlogn-vs-n", "cheat", '''def main():
    pts = [({"n": n}, int(n * math.log2(n))) for n in [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]]
    c = check("work", Formula("n", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("n log n judged O(n)")
    honest(c.verdict)
''')
C("sw-nloglogn-vs-n", "cheat", '''def main():
    pts = [({"n": n}, int(n * math.log2(math.log2(n)))) for n in [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]]
    c = check("work", Formula("n", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes(f"n loglog n judged O(n): {c.summary}")
    honest(c.verdict + " " + c.summary)
''')
C("sw-dup-sizes", "cheat", '''def main():
    pts = [({"n": 64}, 64 * 64)] * 6
    c = check("work", Formula("n", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("6 copies of one size: holds")
    honest(c.verdict)
''')
C("sw-narrow-range", "cheat", '''def main():
    pts = [({"n": n}, n * n) for n in [16, 17, 18, 19, 20, 21]]
    c = check("work", Formula("n", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("quadratic judged linear on a narrow range")
    honest(c.verdict)
''')
C("sw-step-at-top", "cheat", '''def main():
    pts = [({"n": n}, n if n < 512 else n * n) for n in [16, 32, 64, 128, 256, 512, 1024]]
    c = check("work", Formula("n", lambda s: s["n"]), pts)
    if c.verdict == "holds": passes("quadratic jump at the largest sizes ignored")
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
C("wk-two-runs", "cheat", '''def main():
    def conc(m, a, out):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, np.zeros(N, dtype=np.int64))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    def clean(m, a):
        yield Step(m.processors(1), reads=[Read(a, 0)])
    def run(m):
        a = m.array("a", values=VA); out = m.array("out", size=N)
        m.run(conc(m, a, out)); m.run(clean(m, a))
    w = weakest_model(run)
    if w.model == "erew": passes("weakest_model read only the last run: EREW for a concurrent program")
    honest(f"weakest {w.model}")
''')
C("wk-crcw-hidden-in-parallel", "cheat", '''def main():
    def br(m, out, v):
        yield Step(m.processors(1), writes=[Write(out, 0, v)])
    def run(m):
        out = m.array("out", size=1)
        return parallel(br(m, out, 1), br(m, out, 2))
    w = weakest_model(run)
    if w.model in ("erew", "crew"): passes(f"concurrent writes in parallel branches missed: {w.model}")
    honest(f"weakest {w.model}")
''')
# --------------- settings / objects ---------------
C("ob-models-patch", "deliberate", '''def main():
    pram.MODELS["erew"] = pram.MODELS["crcw-priority"]
    def prog(m, a, out):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, np.zeros(N, dtype=np.int64))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if not m.violations: passes("pram.MODELS patched: EREW machine lets concurrent reads through")
    honest("flagged")
''')
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
C("ob-settings-checks", "deliberate", '''def main():
    pram.settings.CHECKS["model"] = lambda v: pram.settings.model("crcw-priority")
    def prog(m, a, out):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, np.zeros(N, dtype=np.int64))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if not m.violations: passes(f"settings.CHECKS patched: 'erew' machine clean ({m.model})")
    honest("flagged")
''')
C("ob-cost-class-patch", "deliberate", '''def main():
    pram.Cost.work = property(lambda self: 1)
    def prog(m, a):
        yield Step(m.processors(N), reads=[Read(a, iota(N))])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    if m.cost.work == 1: passes("Cost.work patched: ledger shows work 1")
    honest(f"work {m.cost.work}")
''')
C("ob-model-midrun", "cheat", '''def main():
    def prog(m, a, out):
        p = m.processors(N)
        m.model = "crcw-priority"
        (x,) = yield Step(p, reads=[Read(a, np.zeros(N, dtype=np.int64))])
        yield Step(p, writes=[Write(out, iota(N), x)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N)
    m.run(prog(m, a, out))
    if not m.violations: passes("model swapped in program")
    honest("flagged")
''')
C("ob-trace-mutate", "cheat", '''def main():
    def prog(m, a):
        for _ in range(3): yield Step(m.processors(N), reads=[Read(a, iota(N))])
    m = Machine("erew", trace=True); a = m.array("a", values=VA); m.run(prog(m, a))
    try:
        del m.trace.steps[1:]
    except Exception as e:
        honest(f"refused {type(e).__name__}")
    if len(m.trace.steps) != m.cost.time: passes(f"machine's trace now shows {len(m.trace.steps)} steps, ledger {m.cost.time}")
    honest("trace unchanged")
''')
C("ob-cost-setattr-after", "cheat", '''def main():
    def prog(m, a): yield Step(m.processors(N), reads=[Read(a, iota(N))])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    try:
        m.cost.profile[0] = 1
    except Exception as e: honest(f"refused {type(e).__name__}")
    if m.cost.brent(1) != N or list(m.cost.profile)[0] == 1: passes(f"profile changed: brent(1)={m.cost.brent(1)}")
    honest("profile copy")
''')
C("ob-phases-dict-mutate", "cheat", '''def main():
    def prog(m, a): yield from phase("x", (s for s in [Step(m.processors(N), reads=[Read(a, iota(N))])]))
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    try: m.cost.phases.clear()
    except Exception as e: honest(f"refused {type(e).__name__}")
    if not m.cost.phases: passes("ledger phases cleared after run")
    honest("copy")
''')
# --------------- threads ---------------
C("th-thread-register", "cheat", '''def main():
    def obs(m, a, pid, x, who):
        r = {}
        def f():
            try: r["v"] = np.asarray(x).tolist()
            except Exception as e: r["v"] = "refused"
        t = threading.Thread(target=f); t.start(); t.join(); return r["v"]
    leak(obs)
''')

# --------------- deliberate ---------------
DELIB_SUM = '''
def main():
    def prog(m, a, out):
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        total = raw_total(x, m, a)
        yield Step(pid[:1], writes=[Write(out, 0, int(total))])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=1)
    m.run(prog(m, a, out))
    if int(out.to_numpy()[0]) == int(VA.sum()) and m.cost.time == 2: passes("sum of 16 in 2 steps via raw values")
    honest("no")
'''
def D(id, fn):
    C(id, "deliberate", fn + DELIB_SUM)
def _find():
    pass
D("dl-gc-referents", '''
import gc
def raw_total(x, m, a):
    for o in gc.get_referents(x):
        if isinstance(o, np.ndarray) and o.shape == (N,): return o.sum()
        if isinstance(o, (tuple, list)):
            for q in o:
                if isinstance(q, np.ndarray) and q.shape == (N,): return q.sum()
    raise RuntimeError("nothing")
''')
D("dl-gc-objects", '''
import gc
def raw_total(x, m, a):
    for o in gc.get_objects():
        if isinstance(o, np.ndarray) and o.shape == (N,) and o.dtype == np.int64 and set(o.tolist()) == set(VA.tolist()):
            return o.sum()
    for o in gc.get_objects():
        if isinstance(o, dict):
            for v in o.values():
                if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): return v.sum()
    raise RuntimeError("nothing")
''')
D("dl-getframe", '''
def raw_total(x, m, a):
    f = sys._getframe()
    while f is not None:
        for v in list(f.f_locals.values()):
            if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): return v.sum()
        f = f.f_back
    raise RuntimeError("nothing")
''')
D("dl-traceback-frames", '''
def raw_total(x, m, a):
    try:
        x.sum()
    except Exception as e:
        tb = e.__traceback__
        while tb is not None:
            for v in list(tb.tb_frame.f_locals.values()):
                if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): return v.sum()
            tb = tb.tb_next
    raise RuntimeError("nothing")
''')
D("dl-settrace", '''
FOUND = []
def tracer(frame, event, arg):
    if event in ("call", "return"):
        for v in list(frame.f_locals.values()):
            if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): FOUND.append(v.copy())
    return tracer
def raw_total(x, m, a):
    sys.settrace(tracer)
    try:
        y = x + 0
        x.sum()
    except Exception: pass
    finally: sys.settrace(None)
    if FOUND: return FOUND[0].sum()
    raise RuntimeError("nothing")
''')
D("dl-setprofile", '''
FOUND = []
def prof(frame, event, arg):
    for v in list(frame.f_locals.values()):
        if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): FOUND.append(v.copy())
def raw_total(x, m, a):
    sys.setprofile(prof)
    try:
        y = x + 1
    finally: sys.setprofile(None)
    if FOUND: return FOUND[0].sum()
    raise RuntimeError("nothing")
''')
D("dl-ctypes-slots", '''
import ctypes
def raw_total(x, m, a):
    for off in range(16, 200, 8):
        try:
            obj = ctypes.cast(id(x) + off, ctypes.POINTER(ctypes.py_object)).contents.value
        except Exception:
            continue
        if isinstance(obj, np.ndarray) and obj.shape == (N,): return obj.sum()
    raise RuntimeError("nothing")
''')
D("dl-inspect-stack", '''
import inspect
def raw_total(x, m, a):
    for fi in inspect.stack():
        for v in list(fi.frame.f_locals.values()):
            if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): return v.sum()
    raise RuntimeError("nothing")
''')
D("dl-current-frames", '''
def raw_total(x, m, a):
    for f in sys._current_frames().values():
        while f is not None:
            for v in list(f.f_locals.values()):
                if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): return v.sum()
            f = f.f_back
    raise RuntimeError("nothing")
''')
D("dl-slot-descriptors", '''
def raw_total(x, m, a):
    for k in type(x).__mro__:
        for name, d in list(vars(k).items()):
            if hasattr(d, "__get__") and type(d).__name__ == "member_descriptor":
                try: v = d.__get__(x)
                except Exception: continue
                if isinstance(v, np.ndarray) and v.shape == (N,): return v.sum()
    raise RuntimeError("nothing")
''')
D("dl-patch-running", '''
import pram.registers as R
def raw_total(x, m, a):
    R.running = lambda: False
    try: return pram.registers.contents(x).sum()
    except Exception: pass
    return x.sum()
''')
C("dl-observer", "deliberate", '''
class Spy(pram.Observer):
    seen = []
    def __getattr__(self, name):
        def f(*args, **kw):
            for v in list(args) + list(kw.values()):
                try:
                    arr = pram.registers.contents(v)
                    if getattr(arr, "shape", None) == (N,): Spy.seen.append(np.array(arr))
                except Exception: pass
        return f
def raw_total(x, m, a):
    if Spy.seen: return Spy.seen[-1].sum()
    raise RuntimeError("nothing")
def main():
    def prog(m, a, out):
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        y = x + 0
        total = raw_total(x, m, a)
        yield Step(pid[:1], writes=[Write(out, 0, int(total))])
    try:
        m = Machine("erew", observer=Spy())
    except Exception as e:
        honest(f"observer refused {e}")
    a = m.array("a", values=VA); out = m.array("out", size=1)
    m.run(prog(m, a, out))
    if int(out.to_numpy()[0]) == int(VA.sum()): passes("observer handed register contents to the program")
    honest("no")
''')
D("dl-exec-private", '''
def raw_total(x, m, a):
    ns = {"x": x}
    for nm in ["_values", "_raw", "_data", "_v"]:
        try:
            exec("r = x." + nm, ns); return np.asarray(ns["r"]).sum()
        except Exception: pass
    raise RuntimeError("nothing")
''')
D("dl-importlib-gc", '''
import importlib
def raw_total(x, m, a):
    g = importlib.import_module("gc")
    for o in g.get_referents(x):
        if isinstance(o, np.ndarray) and o.shape == (N,): return o.sum()
    raise RuntimeError("nothing")
''')
D("dl-fork", '''
def raw_total(x, m, a):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            import gc
            for o in gc.get_referents(x):
                if isinstance(o, np.ndarray) and o.shape == (N,):
                    os.write(w, str(int(o.sum())).encode()); break
        finally:
            os._exit(0)
    os.close(w); data = os.read(r, 100); os.waitpid(pid, 0)
    if data: return int(data)
    raise RuntimeError("nothing")
''')
D("dl-threading-settrace", '''
import threading as _th
FOUND = []
def tracer(frame, event, arg):
    for v in list(frame.f_locals.values()):
        if isinstance(v, np.ndarray) and v.shape == (N,) and np.array_equal(np.sort(v), np.sort(VA)): FOUND.append(v.copy())
    return tracer
def raw_total(x, m, a):
    _th.settrace(tracer)
    res = {}
    def work():
        try: x.sum()
        except Exception: pass
    t = _th.Thread(target=work); t.start(); t.join(); _th.settrace(None)
    if FOUND: return FOUND[0].sum()
    raise RuntimeError("nothing")
''')

# --------------- honest idioms ---------------
def I(id, body): C(id, "idiom", body)
I("id-reverse", '''def main():
    def reverse(m, a, n):
        pid = m.processors(n)
        (x,) = yield Step(pid, reads=[Read(a, iota(n))])
        yield Step(pid, writes=[Write(a, n - 1 - iota(n), x)])
    m = Machine("erew"); a = m.array("a", values=np.arange(8)); m.run(reverse(m, a, 8))
    expect(a.to_numpy().tolist() == list(range(7, -1, -1)) and (m.cost.time, m.cost.work) == (2, 16) and not m.violations, f"{m.cost.time} {m.cost.work}")
''')
I("id-where-double", '''def main():
    def prog(m, a):
        pid, i = m.processors(a.size), iota(a.size)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, i, np.where(x > 15, 2 * x, x))])
    m = Machine("erew"); a = m.array("a", values=np.array([10, 20, 30])); m.run(prog(m, a))
    expect(a.to_numpy().tolist() == [10, 40, 60] and m.cost.work == 6, str(a.to_numpy()))
''')
I("id-mask-writes", '''def main():
    def prog(m, a):
        pid, i = m.processors(a.size), iota(a.size)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, i, 0, where=x % 2 == 1)])
    m = Machine("erew"); a = m.array("a", values=np.array([3, 4, 5, 6])); m.run(prog(m, a))
    expect(a.to_numpy().tolist() == [0, 4, 0, 6] and (m.cost.work, m.cost.writes) == (8, 2), f"{m.cost.work} {m.cost.writes}")
''')
I("id-hold-chosen", '''def main():
    def program(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        y = np.where(x > 4, x - 1, x + 1)
        who = hold(pid, pid)[x > 4]
        cell = hold(pid, iota(4))[x > 4]
        yield Step(who, writes=[Write(a, cell, y[x > 4])])
    m = Machine(); a = m.array("a", values=np.array([5, 3, 8, 1])); m.run(program(m, a))
    expect(a.to_numpy().tolist() == [4, 3, 7, 1] and (m.cost.time, m.cost.work) == (2, 6), f"{m.cost.time} {m.cost.work}")
''')
TREE = '''
def tree_sum(m, a, n):
    h = 1
    while h < n:
        starts = iota(-(-n // (2 * h))) * 2 * h
        starts = starts[starts + h < n]
        pid = m.processors(len(starts))
        x, y = yield Step(pid, reads=[Read(a, starts), Read(a, starts + h)])
        yield Step(pid, writes=[Write(a, starts, x + y)])
        h *= 2
'''
I("id-tree-sum", TREE + '''def main():
    m = Machine("erew"); a = m.array("a", values=np.arange(16)); m.run(tree_sum(m, a, 16))
    expect(a.to_numpy()[0] == 120 and (m.cost.time, m.cost.work) == (8, 30) and not m.violations, f"{m.cost.time} {m.cost.work}")
''')
I("id-brent", TREE + '''def main():
    m = Machine("erew"); a = m.array("a", values=np.arange(1024)); m.run(tree_sum(m, a, 1024))
    c = m.cost
    expect({p: c.brent(p) for p in (1, 8, 64, 512)} == {1: 2046, 8: 260, 64: 42, 512: 20}, str(c.brent(8)))
''')
I("id-phases", '''def main():
    def swap(m, a):
        pid = m.processors(2); i = iota(2)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, 1 - i, x)])
    def both(m, a):
        yield from phase("s1", swap(m, a)); yield from phase("s2", swap(m, a))
    m = Machine("erew"); a = m.array("a", values=np.array([10, 20])); m.run(both(m, a))
    expect({k: (p.time, p.work) for k, p in m.cost.phases.items()} == {"s1": (2, 4), "s2": (2, 4)} and a.to_numpy().tolist() == [10, 20], str(m.cost.phases))
''')
I("id-parallel", '''def main():
    def swap(m, a):
        pid = m.processors(2); i = iota(2)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, 1 - i, x)])
    def dbl(m, a):
        pid, i = m.processors(a.size), iota(a.size)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, i, np.where(x > 15, 2 * x, x))])
    m = Machine("erew"); l = m.array("l", values=np.array([1, 2])); r = m.array("r", values=np.array([30, 20, 10]))
    m.run(parallel(swap(m, l), dbl(m, r)))
    expect((m.cost.time, m.cost.work) == (2, 10) and r.to_numpy().tolist() == [60, 40, 10], f"{m.cost.time} {m.cost.work}")
''')
I("id-until-roots", '''def main():
    def find_roots(m, parent, changed):
        n = parent.size; nodes, node = m.processors(n), iota(n); control = m.processors(1); r = 0
        while True:
            (up,) = yield Step(nodes, reads=[Read(parent, node)])
            (grand,) = yield Step(nodes, reads=[Read(parent, up)])
            jumps = grand != up
            yield Step(nodes, writes=[Write(parent, node, grand, where=jumps), Write(changed, r, 1, where=jumps)])
            r += 1
            if (yield Until(changed, r - 1, control, value=0)): return r
    m = Machine("crcw-common"); parent = m.array("parent", values=np.array([0, 0, 1, 2, 3, 4, 5, 6]))
    changed = m.array("changed", values=np.zeros(8, dtype=np.int64)); rounds = m.run(find_roots(m, parent, changed))
    expect(rounds == 4 and (m.cost.loop_tests, m.cost.time) == (4, 16) and parent.to_numpy().tolist() == [0] * 8 and not m.violations, f"{rounds} {m.cost.time}")
''')
I("id-batch-tree", TREE + '''def main():
    B = 50; rng = np.random.default_rng(7); values = rng.integers(0, 100, size=(B, 16))
    m = Machine("erew", batch=B); a = m.array("a", values=values); m.run(tree_sum(m, a, 16))
    expect(a.to_numpy()[:, 0].tolist() == values.sum(axis=1).tolist() and {(c.time, c.work) for c in m.costs} == {(8, 30)}, "batch")
''')
I("id-batch-hold", '''def main():
    vals = np.array([[5, 3, 8, 1], [1, 1, 9, 9]])
    def program(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        who = hold(pid, pid)[x > 4]; cell = hold(pid, iota(4))[x > 4]
        yield Step(who, writes=[Write(a, cell, (x - 1)[x > 4])])
    m = Machine("erew", batch=2); a = m.array("a", values=vals); m.run(program(m, a))
    expect(a.to_numpy().tolist() == [[4, 3, 7, 1], [1, 1, 8, 8]] and [c.work for c in m.costs] == [6, 6], str([c.work for c in m.costs]))
''')
I("id-check-bounds", TREE + '''def main():
    def measured(n):
        m = Machine("erew"); a = m.array("a", values=np.arange(n)); m.run(tree_sum(m, a, n)); return {"n": n}, m.cost
    pts = [measured(n) for n in [16, 32, 64, 128, 256, 512, 1024]]
    w = check("work", Formula("n", lambda s: s["n"]), [(s, c.work) for s, c in pts])
    t = check("time", Formula("log2(n)", lambda s: math.log2(s["n"])), [(s, c.time) for s, c in pts])
    t2 = check("time", Formula("1", lambda s: 1), [(s, c.time) for s, c in pts])
    expect((w.verdict, t.verdict, t2.verdict) == ("holds", "holds", "exceeded"), f"{w.verdict} {t.verdict} {t2.verdict}")
''')
I("id-sweep-builder", TREE + '''def main():
    def builder(m, n):
        a = m.array("a", values=np.arange(n)); m.run(tree_sum(m, a, n))
    s = pram.sweep(builder, [16, 32, 64, 128, 256, 512], bounds={"work": "n", "time": "log2(n)"})
    expect(s.checks["work"].verdict == "holds" and s.checks["time"].verdict == "holds", s.text()[:200])
''')
I("id-weakest-crew", '''def main():
    def prog(m, a, out):
        p = m.processors(3)
        (x,) = yield Step(p, reads=[Read(a, 0)])
        yield Step(p, writes=[Write(out, iota(3), x)])
    def mk(m):
        a = m.array("a", values=np.array([7])); out = m.array("out", size=3); return prog(m, a, out)
    w = weakest_model(mk)
    expect(w.model == "crew", w.model)
''')
I("id-weakest-common", '''def main():
    def prog(m, out):
        yield Step(m.processors(4), writes=[Write(out, 0, 1)])
    w = weakest_model(lambda m: prog(m, m.array("out", size=1)))
    expect(w.model in ("crcw-common", "ercw"), w.model)
''')
I("id-trace", TREE + '''def main():
    m = Machine("erew", trace=True); a = m.array("a", values=np.arange(8)); m.run(tree_sum(m, a, 8))
    p = tempfile.mktemp(suffix=".html"); m.trace.to_html(p)
    expect(len(m.trace.steps) == m.cost.time == 6 and "<script" in open(p).read(), str(len(m.trace.steps)))
''')
I("id-elementwise-zoo", '''def main():
    vals = np.array([-3, 7, 0, 12, 5, -8, 2, 9])
    def prog(m, a, out):
        p = m.processors(8); i = iota(8)
        (x,) = yield Step(p, reads=[Read(a, i)])
        f = x.astype(float)
        y = np.abs(x) + np.clip(x, 0, 5) + np.round(f / 2).astype(np.int64) + np.isclose(f, 7.0).astype(np.int64)
        y = y + np.select([x < 0, x > 8], [1, 2], default=0) + np.isin(x, [0, 2, 9]).astype(np.int64) + np.digitize(x, [0, 5, 10])
        y = y + np.choose(x % 4, np.array([10, 20, 30, 40])) + np.maximum(x, 1) + (x // 3) + (x % 5) + (x << 1) + (x >> 1)
        z = np.zeros_like(x) + np.full_like(x, 2) + np.ones_like(x); y = y + z
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=vals); out = m.array("out", size=8); m.run(prog(m, a, out))
    x = vals; f = x.astype(float)
    e = np.abs(x) + np.clip(x, 0, 5) + np.round(f / 2).astype(np.int64) + np.isclose(f, 7.0).astype(np.int64)
    e = e + np.select([x < 0, x > 8], [1, 2], default=0) + np.isin(x, [0, 2, 9]).astype(np.int64) + np.digitize(x, [0, 5, 10])
    e = e + np.choose(x % 4, np.array([10, 20, 30, 40])) + np.maximum(x, 1) + (x // 3) + (x % 5) + (x << 1) + (x >> 1) + 3
    expect(out.to_numpy().tolist() == e.tolist() and m.cost.time == 2 and m.cost.local > 0, f"{out.to_numpy().tolist()} vs {e.tolist()}")
''')
I("id-inplace-out", '''def main():
    def prog(m, a, out):
        p = m.processors(8); i = iota(8)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = x.copy(); y += 1; y *= 2; np.add(y, 3, out=y); np.multiply(y, 1, out=y, where=x > 2)
        z = copy.copy(y); z[x > 4] += 100
        yield Step(p, writes=[Write(out, i, z)])
    vals = np.arange(8); m = Machine("erew"); a = m.array("a", values=vals); out = m.array("out", size=8); m.run(prog(m, a, out))
    e = (vals + 1) * 2 + 3; e = np.where(vals > 4, e + 100, e)
    expect(out.to_numpy().tolist() == e.tolist(), str(out.to_numpy().tolist()))
''')
I("id-widen", '''def main():
    def prog(m, a, out):
        p = m.processors(4); i = iota(4)
        (x,) = yield Step(p, reads=[Read(a, i)])
        sel = (x * 10)[x > 4]
        w = pram.registers.holding.widen(sel, -1)
        yield Step(p, writes=[Write(out, i, w)])
    m = Machine("erew"); a = m.array("a", values=np.array([5, 3, 8, 1])); out = m.array("out", size=4); m.run(prog(m, a, out))
    expect(out.to_numpy().tolist() == [50, -1, 80, -1], str(out.to_numpy().tolist()))
''')
I("id-view-astype", '''def main():
    def prog(m, a, out):
        p = m.processors(4); i = iota(4)
        (x,) = yield Step(p, reads=[Read(a, i)])
        u = x.view(np.uint64); y = (u >> np.uint64(1)).astype(np.int64) + x.astype(np.int32).astype(np.int64)
        yield Step(p, writes=[Write(out, i, y)])
    vals = np.array([4, 6, 10, 3]); m = Machine("erew"); a = m.array("a", values=vals); out = m.array("out", size=4); m.run(prog(m, a, out))
    expect(out.to_numpy().tolist() == ((vals >> 1) + vals).tolist(), str(out.to_numpy().tolist()))
''')
I("id-crcw-sum", '''def main():
    m = Machine("crcw-sum"); cell = m.array("cell", size=1)
    def prog(m, c): yield Step(m.processors(3), writes=[Write(c, 0, np.array([1, 2, 3]))])
    m.run(prog(m, cell)); expect(cell.to_numpy().tolist() == [6] and not m.violations, str(cell.to_numpy()))
''')
I("id-pointer-jump", '''def main():
    n = 8; succ = np.array([1, 2, 3, 4, 5, 6, 7, 7])
    def prog(m, nxt, out):
        p = m.processors(n); i = iota(n)
        (s,) = yield Step(p, reads=[Read(nxt, i)])
        for _ in range(3):
            (t,) = yield Step(p, reads=[Read(nxt, s)])
            yield Step(p, writes=[Write(nxt, i, t)])
            s = t
        yield Step(p, writes=[Write(out, i, s)])
    m = Machine("crew"); nxt = m.array("nxt", values=succ); out = m.array("out", size=n); m.run(prog(m, nxt, out))
    expect(out.to_numpy().tolist() == [7] * 8 and m.cost.time == 8, str(out.to_numpy().tolist()))
''')
I("id-float-2d", '''def main():
    A = np.arange(6, dtype=float).reshape(2, 3) / 2
    def prog(m, Aa, out):
        k = iota(6); i, j = k // 3, k % 3; p = m.processors(6)
        (v,) = yield Step(p, reads=[Read(Aa, (i, j))])
        yield Step(p, writes=[Write(out, (j, i), v * 1.5)])
    m = Machine("erew"); Aa = m.array("A", values=A, dtype=float); out = m.array("o", shape=(3, 2), dtype=float); m.run(prog(m, Aa, out))
    expect(np.allclose(out.to_numpy(), A.T * 1.5), str(out.to_numpy()))
''')
I("id-prefix-batch", '''def main():
    from pram.algorithms.primitives import prefix_sums
    m = Machine("erew", batch=3); a = m.array("a", values=np.array([[1, 2, 3, 4], [4, 3, 2, 1], [0, 0, 0, 1]]))
    m.run(prefix_sums(m, a, 4))
    expect(a.to_numpy().tolist() == [[1, 3, 6, 10], [4, 7, 9, 10], [0, 0, 0, 1]] and len({c.work for c in m.costs}) == 1, str(a.to_numpy()))
''')
MOD_COPY = """
import numpy as np, pram
from pram import Read, Step, Write, iota
def load(path): return np.array([int(t) for t in open(path).read().split()])
def prog(m, a):
    n = a.size; out = m.array('out', n); p = m.processors(n)
    (x,) = yield Step(p, reads=[Read(a, iota(n))])
    yield Step(p, writes=[Write(out, n - 1 - iota(n), x * 2)])
    return out
rev = pram.Algorithm(name='revdouble', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=lambda a: (a * 2)[::-1], load=load, bounds={'work': 'n', 'time': '1'})
"""
I("id-module-run", "MOD = " + repr(MOD_COPY) + '''
def main():
    rc, js, out = run_module(MOD, "rev", "--n", "64", "--json")
    expect(rc == 0 and js and js["correct"] and js["time"] == 2 and js["work"] == 128 and js["violations"] == 0, f"rc {rc} {out[-200:]}")
''')
I("id-module-instances", "MOD = " + repr(MOD_COPY) + '''
def main():
    rc, js, out = run_module(MOD, "rev", "--n", "32", "--instances", "6", "--json")
    expect(rc == 0 and js and js["correct"] and js["counts"]["time"]["max"] == 2 and js["counts"]["work"]["mean"] == 64, f"rc {rc} {out[-300:]}")
''')
I("id-module-input", "MOD = " + repr(MOD_COPY) + '''
def main():
    rc, js, out = run_module(MOD, "rev", "--json", input_text="5 3 9 1")
    expect(rc == 0 and js and js["correct"] and js["n"] == 4 and js["work"] == 8, f"rc {rc} {out[-300:]}")
''')
I("id-module-sweep", "MOD = " + repr(MOD_COPY) + '''
def main():
    d = tempfile.mkdtemp(); path = os.path.join(d, "m.py"); open(path, "w").write(MOD)
    p = subprocess.run([PRAM_BIN, "sweep", "--module", path, "rev", "--n", "16,32,64,128,256"], capture_output=True, text=True, timeout=25)
    expect(p.returncode == 0 and "holds" in p.stdout and "EXCEEDED" not in p.stdout, p.stdout[-300:] + p.stderr[-200:])
''')
I("id-declare-sweep-py", "MOD = " + repr(MOD_COPY) + '''
def main():
    ns = {}; exec(compile(MOD, "modcopy", "exec"), ns)
    s = pram.sweep(ns["rev"], [16, 32, 64, 128, 256])
    expect(s.ok and s.checks["work"].verdict == "holds" and s.laws["work"].text == "2 n", f"{s.ok} {s.laws['work'].text}")
''')
I("id-module-erew-flag", '''def main():
    src = """
import numpy as np, pram
from pram import Read, Step, Write, iota
def prog(m, a):
    n = a.size; out = m.array('out', n); p = m.processors(n)
    (x,) = yield Step(p, reads=[Read(a, np.zeros(n, dtype=np.int64))])
    yield Step(p, writes=[Write(out, iota(n), x)])
    return out
bc = pram.Algorithm(name='bcastc', build=lambda n, rng: rng.integers(0, 1000, n), program=prog,
    reference=lambda a: np.full(a.size, a[0]), model='crew')
"""
    rc1, js1, _ = run_module(src, "bc", "--n", "16", "--json")
    rc2, js2, out = run_module(src, "bc", "--n", "16", "--json", "--model", "erew")
    expect(rc1 == 0 and rc2 == 1 and js2 and js2["violations"] > 0, f"{rc1} {rc2} {out[-200:]}")
''')
I("id-local-count", '''def main():
    def prog(m, a, out):
        p = m.processors(4); i = iota(4)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = x + 1; y = y * 2; y = y - 3
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=np.arange(4)); out = m.array("out", size=4); m.run(prog(m, a, out))
    expect(m.cost.local == 3 and m.cost.max_local == 3 and out.to_numpy().tolist() == ((np.arange(4) + 1) * 2 - 3).tolist(), f"local {m.cost.local} max {m.cost.max_local}")
''')
I("id-generator-expr-program", '''def main():
    m = Machine("erew"); a = m.array("a", values=np.arange(8))
    m.run(Step(m.processors(8), reads=[Read(a, iota(8))]) for _ in range(3))
    expect((m.cost.time, m.cost.work) == (3, 24), f"{m.cost.time} {m.cost.work}")
''')
I("id-after-run-output", '''def main():
    def prog(m, a):
        p = m.processors(4)
        (x,) = yield Step(p, reads=[Read(a, iota(4))])
        return x
    m = Machine("erew"); a = m.array("a", values=np.array([4, 1, 3, 2])); x = m.run(prog(m, a))
    v = np.asarray(x)
    expect(v.tolist() == [4, 1, 3, 2], str(v))
''')
I("id-check-batch", '''def main():
    from pram.testing import check_batch
    def program(m, a):
        p = m.processors(4); i = iota(4)
        (x,) = yield Step(p, reads=[Read(a, i)])
        yield Step(p, writes=[Write(a, i, x * 3)])
    rows = np.arange(12).reshape(3, 4)
    m = check_batch(program, {"a": rows}, lambda a: a * 3, model="erew", output="a")
    expect(len(m.costs) == 3 and {c.work for c in m.costs} == {8}, "ok")
''')

# --------------- cross-processor numpy functions (accepted = value moved) ---------------
def crosscase(id, expr): C(id, "cheat", "def main():\n    cross(" + repr(expr) + ")\n")
crosscase("cx-interp-fp", "np.interp((i + 1) % N, np.arange(N), x).astype(np.int64)")
crosscase("cx-interp-xp", "np.interp(i.astype(float), x.astype(float), np.arange(N, dtype=float)).astype(np.int64)")
crosscase("cx-interp-left", "np.interp(np.full(N, -1.0), np.arange(N, dtype=float), np.zeros(N), left=x[5]).astype(np.int64)")
crosscase("cx-gradient", "(2 * np.gradient(x.astype(float))).astype(np.int64)")
crosscase("cx-unwrap", "np.unwrap(x.astype(float), period=50.0).round().astype(np.int64)")
crosscase("cx-correlate", "np.correlate(x, np.array([1, 1, 1]), 'same')")
crosscase("cx-convolve-same", "np.convolve(x, np.array([1, 1, 1]), 'same')")
crosscase("cx-ediff1d", "np.ediff1d(x, to_begin=0)")
crosscase("cx-diff-prepend", "np.diff(x, prepend=0)")
crosscase("cx-fft", "np.fft.ifft(np.fft.fft(x) * np.exp(-2j * np.pi * np.fft.fftfreq(N))).real.round().astype(np.int64)")
crosscase("cx-sort-complex", "np.sort_complex(x).real.astype(np.int64)")
crosscase("cx-as-strided", "np.lib.stride_tricks.as_strided(x, shape=(N,), strides=(0,))")
crosscase("cx-flipud", "np.flipud(x)")
crosscase("cx-rot90", "np.rot90(x.reshape(4, 4)).reshape(-1)")
crosscase("cx-cumulative-sum", "np.cumulative_sum(x)")
crosscase("cx-argsort", "np.argsort(x)")
crosscase("cx-nan-to-num-kw", "np.nan_to_num(np.where(i == 0, np.nan, x.astype(float)), nan=x[5]).astype(np.int64)")
crosscase("cx-histogram-bin-edges", "np.full(N, 0) + np.histogram_bin_edges(x, bins=N - 1).astype(np.int64)")
crosscase("cx-trapezoid-cumul", "np.polynomial.polynomial.polyval(1, x.reshape(1, N)).astype(np.int64).reshape(-1)")
crosscase("cx-meshgrid", "np.meshgrid(x, x)[0][3]")
crosscase("cx-vander", "np.vander(x, 2)[::-1, 0]")
crosscase("cx-lexsort", "np.lexsort((x,))")
crosscase("cx-median-filter", "np.median(np.stack([x, x, x]), axis=0).astype(np.int64)[::-1]")
crosscase("cx-searchsorted-reg", "np.searchsorted(np.sort(VA), x) + np.searchsorted(x, x, sorter=np.argsort(VA))")

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
C("th-poll-cost", "cheat", '''def main():
    for attempt in range(8):
        m = Machine("erew"); a = m.array("a", values=VA)
        seen = []; stop = [False]
        def poll():
            while not stop[0]:
                try: seen.append(m.cost.work)
                except Exception: pass
        def prog(m, a):
            p = m.processors(N); i = iota(N)
            (x,) = yield Step(p, reads=[Read(a, i)])
            who = hold(p, p)[x > 50]
            yield Step(who, reads=[Read(a, hold(p, i)[x > 50])])
            time.sleep(0.1)
            yield Step(p[:1], reads=[Read(a, 0)])
        t = threading.Thread(target=poll); t.start()
        time.sleep(0.02); m.run(prog(m, a)); time.sleep(0.02); stop[0] = True; t.join()
        final = m.cost.work
        mid = [v for v in seen if 0 < v < final]
        if mid: passes(f"attempt {attempt + 1}: thread read work {mid[0]} mid-run (data-chosen count {mid[0] - N})")
    honest("no mid-run work value seen")
''')
C("ip-memory-contents", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.memory.contents(a, 'a', np.dtype(np.int64)).tolist())\n")
C("ip-allocation-contents", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.allocation.contents(x, 'x', np.dtype(np.int64)).tolist())\n")
C("ip-cost-charge-negative", "cheat", '''def main():
    def prog(m, a):
        for _ in range(4): yield Step(m.processors(N), reads=[Read(a, iota(N))])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    try:
        pram.cost.charge(m.cost, processors=-60, reads=-60, writes=0)
    except Exception as e:
        honest(f"refused {type(e).__name__}: {e}")
    if m.cost.work < 4 * N: passes(f"pram.cost.charge lowered the ledger: work {m.cost.work}")
    honest(f"ledger unchanged: {m.cost.work}")
''')
C("ip-cost-charge-midrun", "cheat", '''def main():
    def prog(m, a):
        for _ in range(4): yield Step(m.processors(N), reads=[Read(a, iota(N))])
        pram.cost.charge(m.cost, processors=-60, reads=-60, writes=0)
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    if m.cost.work < 4 * N: passes(f"charge mid-run lowered the ledger: work {m.cost.work}")
    honest(f"ledger unchanged: {m.cost.work}")
''')
C("ip-run-begin", "cheat", '''def main():
    box = {}
    def prog(m, a):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        run, end = pram.run.begin(m, None)
        end()
        box["v"] = np.asarray(x).sum()
        yield Step(p[:1], writes=[Write(a, 0, int(box["v"]))])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    if box.get("v") == VA.sum(): passes("pram.run.begin/end inside a program made registers output mid-run")
    honest("no")
''')
C("ip-loop-answer", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.loop.answer(Until(a, 0, m.processors(1)), (x > 4,)))\n")
C("ip-loop-answer-int", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.loop.answer(Until(a, 0, m.processors(1), value=3), (x[0],)))\n")
I("id-interp-const-table", '''def main():
    def prog(m, a, out):
        p = m.processors(4); i = iota(4)
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = np.interp(x.astype(float), [0.0, 10.0], [0.0, 100.0]).astype(np.int64)
        yield Step(p, writes=[Write(out, i, y)])
    m = Machine("erew"); a = m.array("a", values=np.array([1, 2, 5, 9])); out = m.array("out", size=4); m.run(prog(m, a, out))
    expect(out.to_numpy().tolist() == [10, 20, 50, 90], str(out.to_numpy().tolist()))
''')

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
C("ip-made-forge", "cheat", '''def main():
    import pram.registers.operations as ops
    def prog(m, a, out):
        p = m.processors(N); i = iota(N); run = pram.run.current()
        (x,) = yield Step(p, reads=[Read(a, i)])
        y = ops.made(pram.Register, "add", (x, 0), np.full(N, 7), p, run)
        yield Step(p, writes=[Write(out, i, x + y)])
    m = Machine("erew"); a = m.array("a", values=VA); out = m.array("out", size=N); m.run(prog(m, a, out))
    honest("forging a register from host constants gains nothing by itself") if np.array_equal(out.to_numpy(), VA + 7) else honest("no")
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
C("ip-driver-run-nested", "cheat", '''def main():
    import pram.engine.driver as drv
    box = {}
    def inner(m2, b):
        yield Step(m2.processors(1), reads=[Read(b, 0)])
    def prog(m, a):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        m2 = Machine("erew"); b = m2.array("b", values=[1])
        drv.run(m2, inner(m2, b))
        box["v"] = int(np.asarray(x).sum())
        yield Step(p[:1], writes=[Write(a, 0, box["v"])])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(prog(m, a))
    if box.get("v") == VA.sum(): passes("engine.driver.run of a nested machine ended our run: registers became output mid-run")
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
C("ip-step-modular-overflow", "cheat", '''def main():
    # modular arithmetic is a documented mode: overflow leaks nothing, control
    def prog(m, a):
        p = m.processors(N)
        (x,) = yield Step(p, reads=[Read(a, iota(N))])
        y = x * (2 ** 60)
        yield Step(p, writes=[Write(a, iota(N), y)])
    m = Machine("erew"); a = m.array("a", values=VA); m.run(pram.step.modular(prog(m, a)))
    honest("modular wraps as numpy, by design")
''')
C("ip-register-processors", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: len(pram.registers.register.processors(who)))\n")
C("ip-chosen-rows", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: repr(pram.engine.rows.chosen_rows(who)))\n")
C("ip-holding-narrow", "cheat", "def main():\n    leak(lambda m, a, pid, x, who: pram.registers.holding.narrow(x, x[x > 50]).shape)\n")
bcase("bt-interp-rows", "np.interp((i + 1) % N, np.arange(N), x).astype(np.int64)")
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
