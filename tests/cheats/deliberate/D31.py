from harness import *
TITLE = "frames via a generator/traceback reached with getattr and computed names (lint bypass)"
def run(vals):
    def grab(m, a, x, pid):
        try: raise KeyError
        except KeyError as e: t = getattr(e, "__trace" + "back__")
        f = getattr(t, "tb_" + "frame"); out = []
        while f is not None:
            out += [v for v in getattr(f, "f_" + "locals").values() if isinstance(v, np.ndarray)]
            f = getattr(f, "f_" + "back")
        return out
    return steal(vals, grab)
