from harness import *
TITLE = 'format strings on the Machine: "{0._cost.work}" / "{0._cost.profile}" / "{0._violations}" mid-run'
def run(vals):
    m, a = mk(vals); seen = {}
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(hold(pid, pid)[x > 500], reads=[Read(a, hold(pid, iota(8))[x > 500])])
        yield Step(pid, reads=[Read(a, (x > 500).astype(np.int64))])       # concurrent reads of a[0], a[1] by data
        for key in ("{0._cost.work}", "{0._cost.profile}", "{0._violations}"):
            try: seen[key] = key.format(m)
            except Exception as e: seen[key] = type(e).__name__
        yield Step(pid, reads=[Read(a, iota(8))])
    m.run(prog())
    k = int((vals > 500).sum())
    return seen.get("{0._cost.work}") == str(16 + k), f"mid-run: {seen}"[:400]
