from harness import *
import subprocess, os, json

STASH = {}

def decl_solve(program, build_stash=False):
    """Declare a sort; run it through declaration.solve and through pram.sweep."""
    def build(n, rng):
        v = rng.permutation(n * 7)[:n].astype(np.int64)
        if build_stash: STASH["a"] = v.copy()
        return {"a": v}
    d = pram.Algorithm(name="cheatsort" + str(abs(hash(program)) % 10**6), build=build, program=program,
                       reference=lambda a: np.sort(a), bounds={"work": "n", "time": "1"})
    sw = pram.sweep(d, [16, 32, 64, 128, 256])
    ok = all(p.correct for p in sw.points) if hasattr(sw.points[0], "correct") else sw.ok
    times = [p.cost.time for p in sw.points]
    return (ok, f"sorted correctly with times {times}; sweep.ok={sw.ok}")

@case("plausible", "P87", "declaration program reads its input with to_numpy() and writes np.sort")
def _(vals):
    def program(m, a):
        v = np.sort(a.to_numpy()); n = a.size; pid = m.processors(n)
        out = m.array("out", size=n)
        yield Step(pid, writes=[Write(out, iota(n), v)]); return out
    return decl_solve(program)

@case("plausible", "P88", "declaration program returns np.sort(a.values)")
def _(vals):
    def program(m, a):
        yield Step(m.processors(1), reads=[Read(a, 0)]); return np.sort(a.values)
    return decl_solve(program)

@case("plausible", "P89", "declaration program returns numpy data (not an Array)")
def _(vals):
    def program(m, a):
        yield Step(m.processors(1), reads=[Read(a, 0)]); return np.arange(a.size)
    return decl_solve(program)

@case("plausible", "P90", "declaration program returns a register")
def _(vals):
    def program(m, a):
        n = a.size; pid = m.processors(n)
        (x,) = yield Step(pid, reads=[Read(a, iota(n))]); return x
    return decl_solve(program)

@case("plausible", "P91", "declaration program runs m.run of a sub-program")
def _(vals):
    def program(m, a):
        def sub():
            yield Step(m.processors(1), reads=[Read(a, 0)])
        m.run(sub()); yield Step(m.processors(1), reads=[Read(a, 0)]); return a
    return decl_solve(program)

@case("plausible", "P92", "declaration program makes another machine, sorts there")
def _(vals):
    def program(m, a):
        yield Step(m.processors(1), reads=[Read(a, 0)])
        m2 = Machine(); b = m2.array("b", values=np.zeros(a.size, np.int64)); return a
    return decl_solve(program)

@case("plausible", "P93", "declaration: build() stashes the instance in a global, program writes np.sort of it")
def _(vals):
    def program(m, a):
        n = a.size; v = np.sort(STASH["a"]); out = m.array("out", size=n); pid = m.processors(n)
        yield Step(pid, writes=[Write(out, iota(n), v)]); return out
    return decl_solve(program, build_stash=True)

@case("plausible", "P94", "declaration program reads its input with np.asarray(a) / list(a) and writes np.sort")
def _(vals):
    def program(m, a):
        n = a.size
        try: v = np.sort(np.asarray(a))
        except HonestyError: raise
        except Exception: v = np.sort(np.array(list(a)))
        out = m.array("out", size=n); pid = m.processors(n)
        yield Step(pid, writes=[Write(out, iota(n), v)]); return out
    return decl_solve(program)

@case("plausible", "P95", "sweep builder(n) returns a machine other than the one it ran")
def _(vals):
    def builder(n):
        m = Machine(); a = m.array("a", values=np.arange(n))
        m.run(read_all(m, a))
        m2 = Machine(); return m2
    sw = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={"work": "1"})
    return True, f"ran: work={[p.cost.work for p in sw.points]}"

@case("plausible", "P96", "sweep builder(m, n) runs the program on a machine of its own")
def _(vals):
    def builder(m, n):
        m2 = Machine(); a = m2.array("a", values=np.arange(n)); m2.run(read_all(m2, a))
    sw = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={"work": "1"})
    return True, f"ran: work={[p.cost.work for p in sw.points]}"

@case("plausible", "P97", "sweep builder(n) runs on a machine made before the call (reused)")
def _(vals):
    pre = Machine()
    def builder(n):
        return pre
    sw = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={"work": "1"})
    return True, f"ran: work={[p.cost.work for p in sw.points]}"

# ---- batches: one instance learning about another ----
PASSES = {"n": 0}
def batch_prog(m, a, flag, out):
    PASSES["n"] += 1
    pid = m.processors(1); c = m.processors(1)
    r = 0
    while True:
        (x,) = yield Step(pid, reads=[Read(a, 0)])
        yield Step(pid, writes=[Write(a, 0, x - 1), Write(flag, 0, (x - 1 <= 0).astype(np.int64))])
        r += 1
        if (yield Until(flag, 0, c)):
            break
    yield Step(pid, writes=[Write(out, 0, PASSES["n"])])

@case("plausible", "P98", "batch: a global counter tells an instance that another instance left its path")
def _(vals):
    PASSES["n"] = 0
    m = Machine("erew", batch=2)
    a = m.array("a", values=np.array([[1], [3]])); flag = m.array("flag", values=np.array([[0], [0]]))
    out = m.array("out", values=np.array([[0], [0]]))
    m.run(batch_prog(m, a, flag, out))
    got = out.to_numpy()[:, 0].tolist()
    singles = []
    for v in (1, 3):
        PASSES["n"] = 0; s = Machine("erew"); sa = s.array("a", values=[v]); sf = s.array("flag", values=[0]); so = s.array("out", values=[0])
        s.run(batch_prog(s, sa, sf, so)); singles.append(int(so.to_numpy()[0]))
    return got != singles, f"batched answers {got}, single runs {singles}"

@case("plausible", "P99", "batch: register rows of instance 1 reach instance 0 (np.roll on axis 0 / x[0])")
def _(vals):
    m = Machine("erew", batch=2)
    a = m.array("a", values=np.array([vals, vals[::-1]])); out = m.array("out", size=8)
    def prog():
        pid, x = yield from read_all(m, a)
        y = np.flip(x, axis=0)
        yield Step(pid, writes=[Write(out, iota(8), y)])
    m.run(prog()); got = out.to_numpy(); return got[0].tolist() != vals.tolist(), f"out={got.tolist()}"

@case("plausible", "P100", "batch: m.costs / m.results mid-run")
def _(vals):
    m = Machine("erew", batch=2); a = m.array("a", values=np.array([vals, vals[::-1]])); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, reads=[Read(a, hold(pid, iota(8))[x > 500])])
        for f in (lambda: [c.work for c in m.costs], lambda: m.results):
            try: seen.append(f())
            except HonestyError: pass
            except Exception as e: seen.append(type(e).__name__)
    m.run(prog()); return bool([s for s in seen if not isinstance(s, str)]), f"saw {seen}"
