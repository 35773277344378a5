from harness import *
import sys
TITLE = "sys.exc_info()[2] frames, attribute names from a dict (no literal f_locals/f_back)"
N = {"l": "f_" + "locals", "b": "f_" + "back", "t": "tb_" + "frame"}
def run(vals):
    def grab(m, a, x, pid):
        try: 1 / 0
        except ZeroDivisionError: tb = sys.exc_info()[2]
        f = getattr(tb, N["t"]); out = []
        while f is not None:
            out += [v for v in getattr(f, N["l"]).values() if type(v) is np.ndarray]
            f = getattr(f, N["b"])
        return out
    return steal(vals, grab)
