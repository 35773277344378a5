from harness import *
import threading, sys
TITLE = "threading.settrace hook, the run made inside a new thread"
def run(vals):
    seen = []
    tracer = frame_spy(seen)
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
