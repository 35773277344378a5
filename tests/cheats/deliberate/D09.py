from harness import *
TITLE = "x.__reduce_ex__(4) / x.__reduce__() / x.__getstate__() called directly"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for f in (lambda: x.__reduce_ex__(4), lambda: x.__reduce__(), lambda: x.__getstate__(),
                  lambda: a.__reduce_ex__(4), lambda: a.__getstate__() if hasattr(a, "__getstate__") else None):
            try: out.append(f())
            except Exception as e: out.append(type(e).__name__)
        return out
    return steal(vals, grab)
