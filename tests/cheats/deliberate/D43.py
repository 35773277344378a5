from harness import *
TITLE = "super(type(x), x).__getattribute__('_values') / object.__getattribute__ via a bound alias"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for f in (lambda: super(type(x), x).__getattribute__("_values"),
                  lambda: (lambda g: g(x, "_values"))(type.__getattribute__(object, "__getattribute__"))):
            try: out.append(f())
            except Exception as e: out.append(type(e).__name__)
        return out
    return steal(vals, grab)
