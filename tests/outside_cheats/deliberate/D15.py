from battery_core import *
import sys
TITLE = "sys.settrace: a trace function reads the engine's frames' locals during the run"
def run(vals):
    seen = []
    def tracer(frame, event, arg):
        if event == "return":
            for v in list(frame.f_locals.values()) + [arg]:
                if type(v) is np.ndarray and v.dtype.kind in "iu" and v.size == 8: seen.append(v.copy())
        return tracer
    return spied_run(vals, lambda: sys.settrace(tracer), lambda: sys.settrace(None), seen)
