from harness import *
TITLE = "getattr with computed names on the register and the Array"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for obj in (x, a, m):
            for name in dir(obj):
                if name.startswith("_") and not name.startswith("__"):
                    try:
                        v = getattr(obj, "_" + name[1:])
                        out.append(v if isinstance(v, np.ndarray) else str(v)[:200])
                    except Exception: pass
        return out
    return steal(vals, grab)
