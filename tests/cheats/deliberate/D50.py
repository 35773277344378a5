from harness import *
TITLE = "the count of self-chosen processors through format strings on m.cost's private fields"
def run(vals):
    m, a = mk(vals); seen = []
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(hold(pid, pid)[x > 500], reads=[Read(a, hold(pid, iota(8))[x > 500])])
        c = m.cost
        for name in [n for n in dir(c) if n.startswith("_") and not n.startswith("__")]:
            try: seen.append((name, ("{0." + name + "}").format(c)[:200]))
            except Exception: pass
        yield Step(pid, reads=[Read(a, iota(8))])
    m.run(prog())
    k = int((vals > 500).sum()); work = str(8 + k)
    hits = [s for s in seen if work in s[1] or "profile" in s[0]]
    return None, str(seen)[:600]
