from harness import *
TITLE = "Machine(observer=spy): an observer sees registers mid-run (documented trusted)"
def run(vals):
    seen = []
    class Spy(pram.Observer):
        pass
    names = [n for n in dir(pram.Observer) if not n.startswith("_")]
    for n in names:
        def f(self, *args, _n=n, **kw):
            seen.extend(np.array(v, copy=True) for v in list(args) + list(kw.values()) if isinstance(v, np.ndarray))
            for v in list(args) + list(kw.values()):
                if isinstance(v, pram.Register):
                    try: seen.append(np.asarray(v))
                    except Exception: pass
        setattr(Spy, n, f)
    m, a = mk(vals, observer=Spy()); box = {}
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(a, iota(8), x + 1)])
        box["leak"] = reveals(list(seen), vals) or reveals(list(seen), vals + 1)
    m.run(prog())
    return box["leak"], f"observer saw {len(seen)} arrays mid-run (methods {names})"
