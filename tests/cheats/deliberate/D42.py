from harness import *
import traceback
TITLE = "traceback.StackSummary.extract(traceback.walk_stack(None), capture_locals=True): repr of the engine's locals"
def run(vals):
    def grab(m, a, x, pid):
        st = traceback.StackSummary.extract(traceback.walk_stack(None), capture_locals=True)
        return "\n".join(" ".join(f"{k}={v}" for k, v in (fr.locals or {}).items()) for fr in st if "/pram/" in fr.filename)
    return steal(vals, grab)
