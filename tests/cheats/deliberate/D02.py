from harness import *
import copy
TITLE = "copy.deepcopy(x) then np.asarray / tolist of the copy"
def run(vals):
    def grab(m, a, x, pid):
        y = copy.deepcopy(x)
        for f in (np.asarray, lambda r: r.tolist(), list):
            try: return f(y)
            except Exception: pass
        return y
    return steal(vals, grab)
