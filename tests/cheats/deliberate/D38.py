from harness import *
TITLE = "vars(x) / x.__dict__ / x.__slots__ + getattr"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for o in (x, a):
            try: out.append(vars(o))
            except Exception: pass
            for s in getattr(type(o), "__slots__", ()):
                try: out.append(getattr(o, s))
                except Exception: pass
        return out
    return steal(vals, grab)
