from harness import *
import sys
TITLE = "sys.setprofile: a profile hook collects the engine's return values and locals"
def run(vals):
    seen = []
    def prof(frame, event, arg):
        if event in ("return", "c_return"):
            for v in list(frame.f_locals.values()) + [arg]:
                if type(v) is np.ndarray and v.dtype.kind in "iu": seen.append(v.copy())
    return spied_run(vals, lambda: sys.setprofile(prof), lambda: sys.setprofile(None), seen)
