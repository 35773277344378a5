from harness import *
import importlib
TITLE = "gc reached through importlib.import_module('g' + 'c') (hidden from the lint)"
def run(vals):
    g = importlib.import_module("".join(["g", "c"]))
    return steal(vals, lambda m, a, x, pid: [o for o in getattr(g, "get_" + "objects")() if isinstance(o, np.ndarray) and o.size == 8])
