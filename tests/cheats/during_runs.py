from harness import *
import declarations

@case("plausible", "P101", "declaration program regenerates its own input with decl.instance(n, seed 0) and writes np.sort")
def _(vals):
    holder = {}
    def program(m, a):
        n = a.size
        v = np.sort(holder["d"].instance(n, 0)["a"])
        out = m.array("out", size=n); pid = m.processors(n)
        yield Step(pid, writes=[Write(out, iota(n), v)]); return out
    d = pram.Algorithm(name="regen", build=lambda n, rng: {"a": rng.permutation(7 * n)[:n].astype(np.int64)},
                       program=program, reference=lambda a: np.sort(a), bounds={"work": "n", "time": "1"})
    holder["d"] = d
    sw = pram.sweep(d, [16, 32, 64, 128, 256])
    return sw.ok, f"sweep.ok={sw.ok}, times={[p.cost.time for p in sw.points]}, checks={ {k: c.summary for k, c in sw.checks.items()} }"

@case("plausible", "P103", "Until(..., value=register) (the host compares data)")
def _(vals):
    m, a = mk(vals); flag = m.array("flag", values=[999]); bits = []
    def prog():
        c = m.processors(1)
        (x,) = yield Step(c, reads=[Read(a, 0)])
        bits.append((yield Until(flag, 0, c, value=x)))
    m.run(prog()); return True, f"bit={bits}"

def caught(vals, make, model="erew", **kw):
    m, a = mk(vals, model, **kw); out = m.array("out", size=1); learned = []
    def prog():
        pid, x = yield from read_all(m, a)
        try:
            yield make(m, a, pid, x)
        except Exception as e:  # not GeneratorExit
            learned.append(f"{type(e).__name__}: {e}")
        yield Step(pid[:1], writes=[Write(out, 0, 1)])
    try:
        m.run(prog())
    except pram.PRAMError as e:     # a run-ending error may name its cause (docs: by design)
        return bool(learned), f"the run ended with {type(e).__name__} (by design); the program saw {learned}"
    return bool(learned), f"program caught {learned[:1]} and the run went on"

@case("plausible", "P108", "AddressError caught inside the program (out-of-range index by data), run continues")
def _(vals): return caught(vals, lambda m, a, pid, x: Step(pid, reads=[Read(a, x % 1000)]))
@case("plausible", "P109", "ConflictError (mode=raise) caught inside the program, run continues")
def _(vals): return caught(vals, lambda m, a, pid, x: Step(pid, reads=[Read(a, (x > 500).astype(np.int64))]), mode="raise")
@case("plausible", "P110", "UndefinedReadError caught inside the program, run continues")
def _(vals):
    m, a = mk(vals); u = m.array("u", size=8); learned = []
    def prog():
        pid, x = yield from read_all(m, a)
        try:
            yield Step(pid, reads=[Read(u, (x > 500).astype(np.int64) * 3)])
        except Exception as e:  # not GeneratorExit
            learned.append(f"{type(e).__name__}: {e}")
        yield Step(pid[:1], reads=[Read(a, 0)])
    try:
        m.run(prog())
    except pram.PRAMError as e:
        return bool(learned), f"the run ended with {type(e).__name__} (by design); the program saw {learned}"
    return bool(learned), f"caught {learned[:1]}"

@case("plausible", "P116", "per-phase ledger mid-run: m.cost.phases['p'].work")
def _(vals):
    m, a = mk(vals); seen = []
    def inner():
        pid, x = yield from read_all(m, a)
        yield Step(hold(pid, pid)[x > 500], reads=[Read(a, hold(pid, iota(8))[x > 500])])
    def prog():
        yield from phase("p", inner())
        for f in (lambda: m.cost.phases["p"].work, lambda: m.cost.phases["p"].reads, lambda: str(m.cost.phases)):
            try: seen.append(f())
            except HonestyError: pass
        yield Step(m.processors(1), reads=[Read(a, 0)])
    m.run(prog()); return bool(seen), f"saw {seen}"

@case("plausible", "P117", "batch: is m.cost (time) mid-run refused only when the instances' counts differ?")
def _(vals):
    rows = np.array([A, vals])          # run A: equal counts; run B: counts differ
    m = Machine("erew", batch=2); a = m.array("a", values=rows); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(hold(pid, pid)[x > 500], reads=[Read(a, hold(pid, iota(8))[x > 500])])
        for f in (lambda: m.cost.time, lambda: m.cost.memory_cells, lambda: repr(m.cost)):
            try: seen.append(("ok", f()))
            except Exception as e: seen.append((type(e).__name__, str(e)[:80]))
        yield Step(m.processors(1), reads=[Read(a, 0)])
    m.run(prog())
    return None, seen

@case("plausible", "P112", "pram.weakest_model / assert_flagged called inside a running program")
def _(vals):
    m, a = mk(vals); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        def probe(mm):
            b = mm.array("b", values=np.zeros(8, np.int64))
            def p():
                yield Step(mm.processors(8), writes=[Write(b, x % 2, 1)])
            return p()
        seen.append(str(pram.weakest_model(probe)))
        yield Step(pid, reads=[Read(a, iota(8))])
    m.run(prog()); return True, f"saw {seen}"

@case("plausible", "P118", "batch: Until in a loop where instances split; host counts passes via a closure list")
def _(vals):
    log = []
    def prog(m, a, flag):
        log.append("pass")
        p = m.processors(1); c = m.processors(1)
        while True:
            (v,) = yield Step(p, reads=[Read(a, 0)])
            yield Step(p, writes=[Write(a, 0, v - 1), Write(flag, 0, (v - 1 <= 0).astype(np.int64))])
            if (yield Until(flag, 0, c)): break
    m = Machine("erew", batch=2)
    a = m.array("a", values=np.array([[1], [int(vals[0] % 3) + 1]])); flag = m.array("flag", values=np.zeros((2, 1), np.int64))
    m.run(prog(m, a, flag))
    return None, f"host saw {len(log)} passes"
