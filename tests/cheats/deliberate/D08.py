from harness import *
TITLE = "object.__getattribute__(x, '_values') and slot member descriptors' __get__"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for obj in (x, a):
            for klass in type(obj).__mro__:
                for name, d in list(vars(klass).items()):
                    if hasattr(d, "__get__") and type(d).__name__ in ("member_descriptor", "getset_descriptor"):
                        try:
                            v = d.__get__(obj, type(obj)); out.append(v if isinstance(v, np.ndarray) else str(v)[:200])
                        except Exception: pass
            for name in ("_values", "_cells", "_data"):
                try: out.append(object.__getattribute__(obj, name))
                except Exception: pass
        return out
    return steal(vals, grab)
