from harness import *
TITLE = "ndarray subclass as a Read index whose values change after the check (TOCTOU)"
def run(vals):
    m, a = mk(vals); out = m.array("out", size=8)
    class Shifty(np.ndarray):
        n = 0
        def __array_finalize__(self, obj):
            pass
        def __getitem__(self, k):
            Shifty.n += 1
            return np.ndarray.__getitem__(self, k)
    idx = iota(8).view(Shifty)
    def prog():
        pid = m.processors(8)
        (x,) = yield Step(pid, reads=[Read(a, idx)])
        yield Step(pid, writes=[Write(out, iota(8), x)])
    m.run(prog()); return False, f"ran; the subclass was accepted (getitem calls {Shifty.n})"
