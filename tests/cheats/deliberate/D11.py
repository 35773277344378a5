from harness import *
import gc
TITLE = "gc.get_objects(): scan the heap (containers holding arrays) mid-run"
def run(vals):
    def grab(m, b, y, pid):
        out = []
        for o in gc.get_objects():
            if isinstance(o, dict):
                out += [v for v in list(o.values()) if type(v) is np.ndarray and v.size == 8]
            elif isinstance(o, (list, tuple)):
                out += [v for v in list(o) if type(v) is np.ndarray and v.size == 8]
        return out
    return steal(vals, grab)
