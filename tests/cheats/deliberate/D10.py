from harness import *
import gc
TITLE = "gc.get_referents(x) / gc.get_referents(a)"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for o in (x, a):
            for r in gc.get_referents(o):
                out.append(r)
                if not isinstance(r, np.ndarray):
                    out += [q for q in gc.get_referents(r) if isinstance(q, np.ndarray)]
        return out
    return steal(vals, grab)
