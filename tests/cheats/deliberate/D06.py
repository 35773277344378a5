from harness import *
TITLE = '"{0._run}/{1._cells}".format(x, a) and format_map with attribute chains'
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for t in ("{0._run}", "{0._processors}", "{0._selections}"):
            try: out.append(t.format(x))
            except Exception as e: out.append(type(e).__name__)
        for name in [n for n in dir(a) if n.startswith("_") and not n.startswith("__")]:
            try: out.append(("{0." + name + "}").format(a))
            except Exception as e: out.append(type(e).__name__)
        return " ".join(out)
    return steal(vals, grab)
