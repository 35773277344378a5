from harness import *
import copy

def run_rw(vals, compute, model="erew", dtype=None, expect=None, extra_steps=0):
    """Read a[i], compute elementwise, write back: 2 steps, work 16, reads 8, writes 8."""
    m = Machine(model); a = m.array("a", values=vals, dtype=dtype)
    n = len(vals)
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(a, iota(n), compute(x))])
    m.run(prog())
    got = a.to_numpy(); exp = expect(np.asarray(vals))
    c = m.cost
    ok = np.allclose(got, exp) and (c.time, c.work, c.reads, c.writes) == (2, 2 * n, n, n) and not m.violations
    return ok, f"got {got.tolist()}, expected {np.asarray(exp).tolist()}, time/work/reads/writes={c.time, c.work, c.reads, c.writes}"

H = [
 ("H01", "elementwise arithmetic 3*x + 1 - x // 2", lambda x: 3 * x + 1 - x // 2, lambda v: 3 * v + 1 - v // 2),
 ("H02", "np.where(x > 500, x - 1, x + 1)", lambda x: np.where(x > 500, x - 1, x + 1), lambda v: np.where(v > 500, v - 1, v + 1)),
 ("H03", "comparison and bool->int cast (x > 500).astype(np.int64)", lambda x: (x > 500).astype(np.int64), lambda v: (v > 500).astype(np.int64)),
 ("H04", "np.clip / np.abs / np.maximum with constants", lambda x: np.maximum(np.clip(np.abs(x - 500), 10, 300), 20), lambda v: np.maximum(np.clip(np.abs(v - 500), 10, 300), 20)),
 ("H05", "x % 7, np.remainder, bitwise &, |, ^, <<", lambda x: ((x % 7) | (x & 12)) ^ (np.remainder(x, 5) << 2), lambda v: ((v % 7) | (v & 12)) ^ (np.remainder(v, 5) << 2)),
 ("H06", "np.choose(x % 3, table) constant table", lambda x: np.choose(x % 3, np.array([10, 20, 30])), lambda v: np.array([10, 20, 30])[v % 3]),
 ("H07", "np.isin(x, constants) and np.digitize(x, constant bins)", lambda x: np.isin(x, [13, 42, 47]).astype(np.int64) + np.digitize(x, [100, 500, 900]), lambda v: np.isin(v, [13, 42, 47]).astype(np.int64) + np.digitize(v, [100, 500, 900])),
 ("H08", "copy.copy(x), x.copy(), in-place +=, *=", lambda x: (lambda y, z: (y.__iadd__(1), z.__imul__(2), y + z)[2])(copy.copy(x), x.copy()), lambda v: (v + 1) + 2 * v),
 ("H09", "np.select / np.zeros_like / np.full_like", lambda x: np.select([x > 900, x > 100], [np.full_like(x, 2), x], default=np.zeros_like(x)), lambda v: np.select([v > 900, v > 100], [np.full_like(v, 2), v], default=np.zeros_like(v))),
 ("H11", "np.logical_and / np.logical_not / np.sign", lambda x: np.logical_and(x > 10, np.logical_not(x > 900)).astype(np.int64) * np.sign(x - 300), lambda v: np.logical_and(v > 10, ~(v > 900)).astype(np.int64) * np.sign(v - 300)),
 ("H12", "np.take(table, x) (documented as refused)", lambda x: np.take(np.array([5, 6, 7]), x % 3), lambda v: np.array([5, 6, 7])[v % 3]),
 ("H13", "(x + 1j).real (documented as refused)", lambda x: ((x + 1j).real).astype(np.int64), lambda v: v),
 ("H14", "np.vectorize(lambda v: v + 1) (documented as refused)", lambda x: np.vectorize(lambda v: v + 1)(x), lambda v: v + 1),
 ("H15", "x[0] + 1 constant-index selection combined by same processor", None, None),
]
for cid, title, comp, exp in H:
    if comp is None: continue
    def fn(vals, comp=comp, exp=exp): return run_rw(vals, comp, expect=exp)
    case("honest", cid, title)(fn)

@case("honest", "H15", "x[0] + 1 is processor 0's own value, used by pid[:1]")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=1)
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid[:1], writes=[Write(out, 0, x[0] + 1)])
    m.run(prog()); c = m.cost
    return (out.to_numpy()[0] == vals[0] + 1 and (c.time, c.work) == (2, 9)), f"out={out.to_numpy().tolist()}, time/work={c.time, c.work}"

@case("honest", "H16", "float: astype(float), np.exp, np.round, np.isclose, np.nan_to_num into a float array")
def _(vals):
    m = Machine(); a = m.array("a", values=vals); f = m.array("f", size=8, dtype=float)
    def prog():
        pid, x = yield from read_all(m, a)
        y = x.astype(float) / 1000.0
        z = np.nan_to_num(np.round(np.exp(y), 3)) + np.isclose(y, 0.555)
        yield Step(pid, writes=[Write(f, iota(8), z)])
    m.run(prog()); y = vals / 1000.0; exp = np.round(np.exp(y), 3) + np.isclose(y, 0.555)
    return np.allclose(f.to_numpy(), exp) and m.cost.time == 2, f"got {f.to_numpy().tolist()[:3]}..."

@case("honest", "H17", "two registers of one step combined (x + y), and of two steps of the same processors")
def _(vals):
    m, a = mk(vals); b = m.array("b", values=vals[::-1].copy()); out = m.array("out", size=8)
    def prog():
        pid = m.processors(8)
        x, y = yield Step(pid, reads=[Read(a, iota(8)), Read(b, iota(8))])
        (z,) = yield Step(pid, reads=[Read(a, 7 - iota(8))])
        yield Step(pid, writes=[Write(out, iota(8), x + y * z)])
    m.run(prog()); c = m.cost
    exp = vals + vals[::-1] * vals[::-1]
    return out.to_numpy().tolist() == exp.tolist() and (c.time, c.work, c.reads, c.writes) == (3, 24, 24, 8), f"time/work/reads/writes={c.time, c.work, c.reads, c.writes}"

@case("honest", "H18", "pointer jumping: Read(a, x % 8) indexed by the processor's own register")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    def prog():
        pid, x = yield from read_all(m, a)
        (y,) = yield Step(pid, reads=[Read(a, (iota(8) + 1) % 8)])
        yield Step(pid, writes=[Write(out, iota(8), y)])
    m.run(prog()); c = m.cost
    return out.to_numpy().tolist() == np.roll(vals, -1).tolist() and (c.time, c.work) == (3, 24), f"time/work={c.time, c.work}"

@case("honest", "H19", "hold(pid, pid)[x > 500]: processors chosen by data act, counted exactly")
def _(vals):
    m, a = mk(vals)
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]; cell = hold(pid, iota(8))[x > 500]
        yield Step(who, writes=[Write(a, cell, x[x > 500] - 500)])
    m.run(prog()); k = int((vals > 500).sum()); c = m.cost
    exp = np.where(vals > 500, vals - 500, vals)
    return a.to_numpy().tolist() == exp.tolist() and (c.time, c.work, c.writes) == (2, 8 + k, k), f"time/work/writes={c.time, c.work, c.writes}, k={k}"

@case("honest", "H20", "where= mask on a Write (processors decide themselves)")
def _(vals):
    m, a = mk(vals)
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(a, iota(8), 0, where=x % 2 == 1)])
    m.run(prog()); k = int((vals % 2 == 1).sum()); c = m.cost
    return a.to_numpy().tolist() == np.where(vals % 2 == 1, 0, vals).tolist() and (c.time, c.work, c.writes) == (2, 16, k), f"{c.time, c.work, c.writes}"

@case("honest", "H21", "Until by one control processor reading one cell, a loop ending on data")
def _(vals):
    m = Machine("erew"); cnt = m.array("c", values=[int(vals[0] % 5) + 1]); flag = m.array("flag", values=[0])
    def prog():
        p = m.processors(1); c = m.processors(1); r = 0
        while True:
            (v,) = yield Step(p, reads=[Read(cnt, 0)])
            yield Step(p, writes=[Write(cnt, 0, v - 1), Write(flag, 0, (v - 1 == 0).astype(np.int64))])
            r += 1
            if (yield Until(flag, 0, c)): return r
    r = m.run(prog()); k = int(vals[0] % 5) + 1; c = m.cost
    return r == k and (c.time, c.work, c.loop_tests) == (3 * k, 3 * k, k), f"rounds={r}, expected {k}, time/work/tests={c.time, c.work, c.loop_tests}"

@case("honest", "H22", "widen(): the chosen processors' values back on all processors")
def _(vals):
    from pram.registers.holding import widen
    m, a = mk(vals)
    def prog():
        pid, x = yield from read_all(m, a)
        y = x[x > 500] * 2
        try:
            z = widen(y, pid, -1)
        except TypeError:
            z = widen(y, -1)
        yield Step(pid, writes=[Write(a, iota(8), z)])
    m.run(prog())
    exp = np.where(vals > 500, vals * 2, -1)
    return a.to_numpy().tolist() == exp.tolist() and m.cost.time == 2, f"got {a.to_numpy().tolist()}"

@case("honest", "H23", "parallel branches, each its own processors and registers; phases")
def _(vals):
    m, a = mk(vals); b = m.array("b", values=vals.copy())
    def br(arr):
        pid, x = yield from read_all(m, arr)
        yield Step(pid, writes=[Write(arr, iota(8), x * 2)])
    m.run(parallel(phase("L", br(a)), phase("R", br(b)))); c = m.cost
    return (a.to_numpy().tolist() == (2 * vals).tolist() and b.to_numpy().tolist() == (2 * vals).tolist()
            and (c.time, c.work) == (2, 32)), f"time/work={c.time, c.work}"

@case("honest", "H24", "batched: elementwise work per instance, m.costs exact")
def _(vals):
    m = Machine("erew", batch=2); a = m.array("a", values=np.array([vals, vals[::-1]]))
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=[Write(a, hold(pid, iota(8))[x > 500], 0)])
    m.run(prog()); k = int((vals > 500).sum())
    works = [c.work for c in m.costs]
    return works == [8 + k, 8 + k] and a.to_numpy()[0].tolist() == np.where(vals > 500, 0, vals).tolist(), f"works={works}"

@case("honest", "H25", "dtype casts: astype(np.int32) of fitting values, view same itemsize")
def _(vals):
    return run_rw(vals, lambda x: (x.astype(np.int32) + 1).astype(np.int64) + x.view(np.int64) * 0, expect=lambda v: v + 1)

@case("honest", "H26", "np.round / np.floor / np.sqrt on reals, rint back to int")
def _(vals):
    return run_rw(vals, lambda x: np.rint(np.sqrt(x.astype(float)) * 10).astype(np.int64), expect=lambda v: np.rint(np.sqrt(v) * 10).astype(np.int64))

def _bump(y):
    y[y > 500] += 1
    return y

@case("honest", "H10", "x[x > 500] += 1 (masked in-place), literal and in a helper")
def _(vals):
    def comp(x):
        x[x > 500] += 1
        y = _bump(x.copy())
        y[y > 500] -= 1
        return y
    return run_rw(vals, comp, expect=lambda v: np.where(v > 500, v + 1, v))
