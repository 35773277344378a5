from harness import *
import copy
TITLE = "copy.deepcopy(a) / copy.copy(a) of the Array mid-run, then to_numpy() of the copy"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for f in (copy.deepcopy, copy.copy):
            try: out.append(f(a).to_numpy())
            except HonestyError: raise
        return out
    return steal(vals, grab)
