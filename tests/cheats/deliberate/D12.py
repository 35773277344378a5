from harness import *
import sys
TITLE = "sys._getframe(): the engine's frames' f_locals mid-run"
def run(vals):
    def grab(m, a, x, pid):
        out, f = [], sys._getframe(1)
        while f is not None:
            out += [v for v in f.f_locals.values() if isinstance(v, np.ndarray)]
            f = f.f_back
        return out
    return steal(vals, grab)
