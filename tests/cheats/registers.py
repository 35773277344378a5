from harness import *
import operator

def simple(vals, op, model="erew", n_out=None):
    """Read every a[i] into x; apply the cheat op(x, pid); judge what came out."""
    m, a = mk(vals, model)
    n = a.size
    out = m.array("out", size=n)
    box = {}
    def prog():
        pid, x = yield from read_all(m, a)
        r = op(x, pid)
        box["r"] = r
        if isinstance(r, pram.Register):
            k = r.size if r.ndim else 1
            try:
                yield Step(pid[:k], writes=[Write(out, iota(k), r)])
            except Exception as e:
                box["werr"] = e
                raise
    m.run(prog())
    r = box["r"]
    if isinstance(r, pram.Register):
        got = out.to_numpy()
        return (reveals(got[~np.isnan(got.astype(float))] if False else got, vals) or
                got[0] in (vals.sum(), vals.max(), vals.min(), np.sort(vals)[0]),
                f"ran; register result written, out={got.tolist()}, time={m.cost.time}")
    return reveals(r, vals) or r in (vals.sum(), vals.max(), vals.min()), f"ran; host holds {str(r)[:80]}"

ops = [
 ("P01", "x.sum()", lambda x, p: x.sum()),
 ("P02", "np.sum(x)", lambda x, p: np.sum(x)),
 ("P03", "np.sort(x)", lambda x, p: np.sort(x)),
 ("P04", "np.cumsum(x)", lambda x, p: np.cumsum(x)),
 ("P05", "np.max(x)", lambda x, p: np.max(x)),
 ("P06", "x.max()", lambda x, p: x.max()),
 ("P07", "np.argmax(x)", lambda x, p: np.argmax(x)),
 ("P08", "np.add.reduce(x)", lambda x, p: np.add.reduce(x)),
 ("P09", "np.maximum.accumulate(x)", lambda x, p: np.maximum.accumulate(x)),
 ("P10", "x[x % 8] (register indexed by register)", lambda x, p: x[x % 8]),
 ("P11", "int(x[0])", lambda x, p: int(x[0])),
 ("P12", "bool(x[0] > 500)", lambda x, p: [bool(x[i] > 500) for i in range(8)]),
 ("P13", "list(x)", lambda x, p: list(x)),
 ("P14", "x.tolist()", lambda x, p: x.tolist()),
 ("P15", "len(x[x > 500]) (count by data)", lambda x, p: len(x[x > 500])),
 ("P16", "iteration: [v for v in x]", lambda x, p: [v for v in x]),
 ("P17", "np.asarray(x)", lambda x, p: np.asarray(x)),
 ("P18", "np.array(x)", lambda x, p: np.array(x)),
 ("P19", "float(x[0])", lambda x, p: float(x[0])),
 ("P20", "np.concatenate([x, x])", lambda x, p: np.concatenate([x, x])),
 ("P21", "np.roll(x, 1)", lambda x, p: np.roll(x, 1)),
 ("P22", "x[1:] - x[:-1] (neighbours' registers combined)", lambda x, p: x[1:] - x[:-1]),
 ("P23", "np.diff(x)", lambda x, p: np.diff(x)),
 ("P24", "np.mean(x)", lambda x, p: np.mean(x)),
 ("P25", "np.unique(x)", lambda x, p: np.unique(x)),
 ("P26", "np.count_nonzero(x > 500)", lambda x, p: np.count_nonzero(x > 500)),
 ("P27", "np.any(x > 990)", lambda x, p: [np.any(x > t) for t in (100, 500, 990)]),
 ("P28", "(x > 990).any() / .all()", lambda x, p: [(x > 990).any(), (x > 1).all()]),
 ("P29", "np.dot(x, x)", lambda x, p: np.dot(x, x)),
 ("P30", "x @ x", lambda x, p: x @ x),
 ("P31", "np.median(x)", lambda x, p: np.median(x)),
 ("P32", "repr/str/print of a register", lambda x, p: repr(x) + str(x) + f"{x}" + "%s" % (x,)),
 ("P33", "np.take(x, [7,6,5,4,3,2,1,0])", lambda x, p: np.take(x, np.arange(8)[::-1])),
 ("P34", "np.argsort(x)", lambda x, p: np.argsort(x)),
 ("P35", "builtin max(x)/sum(x)/sorted(x)", lambda x, p: [max(x), sum(x), sorted(x)]),
 ("P36", "999 in x", lambda x, p: [(v in x) for v in (999, 960, 5, 3)]),
 ("P37", "np.choose(iota, x) (register as the table)", lambda x, p: np.choose(iota(8)[::-1] % 8, x)),
 ("P38", "np.isin(x, x[::-1]) (membership against other processors)", lambda x, p: np.isin(x, x[::-1])),
 ("P39", "np.digitize(x, x[:1]) (bins from a register)", lambda x, p: np.digitize(x, np.sort(x))),
 ("P40", "np.where(x > 500) one-argument (indices)", lambda x, p: np.where(x > 500)),
 ("P41", "np.nonzero(x > 500)", lambda x, p: np.nonzero(x > 500)),
 ("P42", "x.item()", lambda x, p: x[:1].item()),
 ("P43", "range(x[0]) (__index__)", lambda x, p: len(range(x[0]))),
 ("P44", "np.add(x, 1, out=plain buffer)", lambda x, p: (lambda buf: (np.add(x, 0, out=buf), buf)[1])(np.zeros(8, np.int64))),
 ("P45", "buf[:] = x (plain array assignment)", lambda x, p: (lambda buf: (buf.__setitem__(slice(None), x), buf)[1])(np.zeros(8, np.int64))),
 ("P46", "np.copyto(buf, x)", lambda x, p: (lambda buf: (np.copyto(buf, x), buf)[1])(np.zeros(8, np.int64))),
 ("P47", "np.histogram / np.bincount", lambda x, p: [np.bincount(x % 8), np.histogram(x)]),
 ("P48", "np.partition(x, 3)", lambda x, p: np.partition(x, 3)),
 ("P49", "np.einsum('i->', x)", lambda x, p: np.einsum("i->", x)),
 ("P50", "np.linalg.norm(x)", lambda x, p: np.linalg.norm(x)),
 ("P51", "x.astype(object)", lambda x, p: x.astype(object)),
 ("P52", "np.maximum.reduceat / np.add.at", lambda x, p: np.maximum.reduceat(x, [0, 4])),
 ("P53", "x[::-1] reversed register used as the processors' own", lambda x, p: x[::-1]),
 ("P54", "np.vectorize(record)(x) (Python sees each value)", lambda x, p: (lambda seen: (np.vectorize(lambda v: seen.append(int(v)) or v)(x), seen)[1])([])),
 ("P55", "np.frompyfunc(record)(x)", lambda x, p: (lambda seen: (np.frompyfunc(lambda v: seen.append(int(v)) or v, 1, 1)(x), seen)[1])([])),
 ("P56", "np.searchsorted(x, 500)", lambda x, p: np.searchsorted(x, 500)),
 ("P57", "np.lexsort / np.ptp", lambda x, p: [np.ptp(x), np.lexsort([x])]),
 ("P58", "np.interp(500, x, x)", lambda x, p: np.interp(500, x, x)),
 ("P59", "x.__array__()", lambda x, p: x.__array__()),
 ("P60", "np.where(x>500, x[::-1], 0) (other processors' values in where)", lambda x, p: np.where(x > 500, x[::-1], 0)),
]
for cid, title, op in ops:
    def fn(vals, op=op):
        return simple(vals, op)
    case("plausible", cid, title)(fn)

# ---- steps and registers that are not the processors' own ----
@case("plausible", "P61", "write x[::-1] as pid's values (reverse without memory)")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(out, iota(8), x[::-1])])
    m.run(prog()); got = out.to_numpy()
    return got.tolist() == vals[::-1].tolist(), f"out={got.tolist()}, time={m.cost.time}"

@case("plausible", "P62", "register of step-1 processors used by other processors (index)")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=1000)
    def prog():
        pid, x = yield from read_all(m, a)
        pid2 = m.processors(8)
        yield Step(pid2, writes=[Write(out, x, 1)])
    m.run(prog()); return True, f"ran, time={m.cost.time}"

@case("plausible", "P63", "parallel branches sharing a register")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    box = {}
    def left():
        pid, x = yield from read_all(m, a); box["x"] = x
        yield Step(pid, reads=[Read(a, iota(8))])
    def right():
        pid = m.processors(8)
        yield Step(pid, reads=[Read(a, iota(8))])
        yield Step(pid, writes=[Write(out, iota(8), box["x"] * 2)])
    m.run(parallel(left(), right())); got = out.to_numpy()
    return got.tolist() == (2 * vals).tolist(), f"out={got.tolist()}"

@case("plausible", "P64", "hold(other processors, x)")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    def prog():
        pid, x = yield from read_all(m, a)
        pid2 = m.processors(8)
        y = hold(pid2, x)
        yield Step(pid2, writes=[Write(out, iota(8), y)])
    m.run(prog()); got = out.to_numpy(); return got.tolist() == vals.tolist(), f"out={got.tolist()}"

@case("plausible", "P65", "register kept from run 1 used in run 2")
def _(vals):
    m, a = mk(vals); out = m.array("out", size=8); keep = {}
    def p1():
        pid, x = yield from read_all(m, a); keep["x"], keep["pid"] = x, pid
    def p2():
        yield Step(keep["pid"], writes=[Write(out, iota(8), keep["x"])])
    m.run(p1()); m.run(p2()); return True, f"out={out.to_numpy().tolist()}"

@case("plausible", "P66", "register of machine 1 fed to machine 2")
def _(vals):
    m, a = mk(vals); keep = {}
    def p1():
        pid, x = yield from read_all(m, a); keep["x"] = x
    m.run(p1())
    m2 = Machine(); o2 = m2.array("o", size=8)
    def p2():
        pid = m2.processors(8); yield Step(pid, writes=[Write(o2, iota(8), keep["x"])])
    m2.run(p2()); return True, f"o2={o2.to_numpy().tolist()}"

# ---- loop tests ----
def until_case(vals, make_until, model="crcw-common"):
    m, a = mk(vals, model); flag = m.array("flag", values=np.zeros(8, np.int64)); bits = []
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(flag, iota(8), (x > 990).astype(np.int64))])
        bits.append((yield make_until(m, pid, x, flag)))
    m.run(prog()); return True, f"ran: bit={bits} (OR over 8 values), time={m.cost.time}"

@case("plausible", "P67", "Until by all 8 processors (OR in one step)")
def _(vals): return until_case(vals, lambda m, pid, x, f: Until(f, iota(8), pid))
@case("plausible", "P68", "Until by processors chosen by data")
def _(vals): return until_case(vals, lambda m, pid, x, f: Until(f, 0, hold(pid, pid)[x > 990]))
@case("plausible", "P69", "Until whose index is a register of 8 processors, one control")
def _(vals): return until_case(vals, lambda m, pid, x, f: Until(f, x % 8, m.processors(1)))
@case("plausible", "P70", "Until control processor = worker 0, index register of others")
def _(vals): return until_case(vals, lambda m, pid, x, f: Until(f, x[1:2] % 8, pid[:1]))

@case("plausible", "P71", "Until in two parallel branches at once (AND of two tests)")
def _(vals):
    m, a = mk(vals); flag = m.array("flag", values=np.array([1, 0])); bits = []
    def br(k):
        c = m.processors(1)
        bits.append((yield Until(flag, k, c)))
    m.run(parallel(br(0), br(1))); return True, f"bits={bits}, time={m.cost.time}"

@case("plausible", "P72", "Until with many processors of an array of one id repeated")
def _(vals): return until_case(vals, lambda m, pid, x, f: Until(f, 0, np.repeat(pid[:1], 8)))

# ---- host-side ledger, records, trace while running ----
def mid_run(vals, peek, **kw):
    m, a = mk(vals, "erew", **kw); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, reads=[Read(a, hold(pid, iota(8))[x > 500])])
        yield Step(pid, reads=[Read(a, iota(8), where=x > 500)])
        seen.append(peek(m, a))
    m.run(prog()); return True, f"host saw {str(seen)[:100]} mid-run"

@case("plausible", "P73", "m.cost.work mid-run (count of self-chosen processors)")
def _(vals): return mid_run(vals, lambda m, a: m.cost.work)
@case("plausible", "P74", "m.cost.reads mid-run (masked reads)")
def _(vals): return mid_run(vals, lambda m, a: m.cost.reads)
@case("plausible", "P75", "m.cost.profile mid-run")
def _(vals): return mid_run(vals, lambda m, a: m.cost.profile)
@case("plausible", "P76", "a.to_numpy() mid-run")
def _(vals): return mid_run(vals, lambda m, a: a.to_numpy())
@case("plausible", "P77", "m.violations mid-run")
def _(vals): return mid_run(vals, lambda m, a: m.violations)
@case("plausible", "P78", "m.trace mid-run (trace=True)")
def _(vals): return mid_run(vals, lambda m, a: len(m.trace.steps), trace=True)
@case("plausible", "P79", "m.cost.as_dict() / str(m.cost) mid-run")
def _(vals): return mid_run(vals, lambda m, a: (str(m.cost), m.cost.as_dict()))
@case("plausible", "P80", "m.arrays['a'].values mid-run")
def _(vals): return mid_run(vals, lambda m, a: m.arrays["a"].values)

@case("plausible", "P81", "trace object kept from before the run, read mid-run")
def _(vals):
    m, a = mk(vals, trace=True); seen = []
    def p0():
        yield Step(m.processors(1), reads=[Read(a, 0)])
    m.run(p0()); tr = m.trace
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, reads=[Read(a, hold(pid, iota(8))[x > 500])])
        seen.append(len(tr.steps)); seen.append(str(tr.steps[-1]))
    m.run(prog()); return True, f"saw {seen}"

@case("plausible", "P82", "cost kept from before the run (alias), read mid-run")
def _(vals):
    m, a = mk(vals); seen = []
    c0 = m.cost; prof = m.cost.profile
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, reads=[Read(a, hold(pid, iota(8))[x > 500])])
        seen.append((c0.work, list(prof)))
    m.run(prog()); return (seen[0][0] not in (0,) or len(seen[0][1]) > 0), f"saw {seen}"

@case("plausible", "P83", "opaque selection: shape/size/np.shape")
def _(vals):
    m, a = mk(vals); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        w = x[x > 500]
        for f in (lambda: w.shape, lambda: w.size, lambda: np.shape(w), lambda: np.size(w), lambda: w.ndim and len(w.tolist())):
            try: seen.append(f())
            except HonestyError: pass
        yield Step(pid, reads=[Read(a, iota(8))])
    m.run(prog()); return any(s not in (1,) for s in seen), f"saw {seen}"

@case("plausible", "P84", "error text of an opaque register combined with a plain array")
def _(vals):
    m, a = mk(vals); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        w = x[x > 500]
        for k in (1, 2, 3, 4, 5):
            try: w + np.arange(k)
            except Exception as e: seen.append(str(e))
        yield Step(pid, reads=[Read(a, iota(8))])
    m.run(prog())
    return None, seen   # judged by comparing A and B

@case("plausible", "P85", "Step(who, ...) with a plain index array: does acceptance tell the count?")
def _(vals):
    m, a = mk(vals); ok = []
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        for k in range(1, 9):
            try:
                yield Step(who, reads=[Read(a, np.arange(k))]); ok.append(k)
            except Exception as e:
                pass
    m.run(prog()); return bool(ok), f"accepted lengths {ok}"

@case("plausible", "P86", "int64 overflow caught in the program (data-dependent exception)")
def _(vals):
    m, a = mk(vals); caught = []
    def prog():
        pid, x = yield from read_all(m, a)
        try:
            y = x * (2**62 // 600)   # overflows only where x > 600
        except Exception as e:
            caught.append(type(e).__name__)
        yield Step(pid, reads=[Read(a, iota(8))])
        caught.append("after")
    try:
        m.run(prog())
    except Exception as e:
        return len(caught) > 1, f"run raised {type(e).__name__} after program saw {caught}"
    return bool(caught and caught[0] != "after"), f"program saw {caught}"
