from harness import *
TITLE = "Until(...).answer / attributes of an Until read without a step"
def run(vals):
    m, a = mk(vals); flag = m.array("flag", values=np.array([1])); seen = []
    def prog():
        c = m.processors(1)
        u = Until(flag, 0, c)
        for n in dir(u):
            if not n.startswith("__"):
                try: seen.append((n, getattr(u, n)))
                except Exception: pass
        yield Step(c, reads=[Read(flag, 0)])
    m.run(prog())
    return any(n in ("answer", "_answer", "result") for n, _ in seen), f"Until attrs {[n for n, _ in seen]}"
