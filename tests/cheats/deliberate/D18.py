from harness import *
import weakref
TITLE = "weakref.proxy(x): np.asarray / tolist through a proxy (type checks bypassed?)"
def run(vals):
    def grab(m, a, x, pid):
        p = weakref.proxy(x); out = []
        for f in (np.asarray, lambda r: r.tolist(), lambda r: np.sort(r), lambda r: sum(r)):
            try: out.append(f(p))
            except HonestyError: pass
            except Exception as e: out.append(type(e).__name__)
        pa = weakref.proxy(a)
        try: out.append(pa.to_numpy())
        except HonestyError: pass
        return out
    return steal(vals, grab)
