from harness import *
import sys
TITLE = "sys.settrace: a trace function reads the engine's frames' locals during the run"
def run(vals):
    seen = []
    tracer = frame_spy(seen)
    return spied_run(vals, lambda: sys.settrace(tracer), lambda: sys.settrace(None), seen)
