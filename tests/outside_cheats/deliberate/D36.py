from battery_core import *
import threading, sys
TITLE = "threading.settrace hook, the run made inside a new thread"
def run(vals):
    seen = []
    def tracer(frame, event, arg):
        if event == "return":
            for v in list(frame.f_locals.values()) + [arg]:
                if type(v) is np.ndarray and v.dtype.kind in "iu" and v.size == 8: seen.append(v.copy())
        return tracer
    res = {}
    def body():
        try: res["r"] = spied_run(vals, lambda: None, lambda: None, seen)
        except BaseException as e: res["e"] = e
    threading.settrace(tracer)
    try:
        t = threading.Thread(target=body); t.start(); t.join()
    finally:
        threading.settrace(None)
    if "e" in res: raise res["e"]
    return res["r"]
