from harness import *
TITLE = "subclass of list as a Step's reads: checked once exclusive, iterated again concurrent (TOCTOU)"
def run(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    class Sneaky(list):
        calls = 0
        def __iter__(self):
            Sneaky.calls += 1
            if Sneaky.calls > 1:
                return iter([Read(a, np.zeros(8, np.int64))])
            return list.__iter__(self)
    def prog():
        pid = m.processors(8)
        (x,) = yield Step(pid, reads=Sneaky([Read(a, iota(8))]))
        yield Step(pid, writes=[Write(out, iota(8), x)])
    m.run(prog()); got = out.to_numpy().tolist()
    return (got == [int(vals[0])] * 8 and not m.violations), f"out={got}, violations={len(m.violations)}"
