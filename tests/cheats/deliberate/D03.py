from harness import *
import pickle
TITLE = "pickle.dumps(a) of a sealed Array mid-run"
def run(vals):
    return steal(vals, lambda m, a, x, pid: (lambda b: [b, pickle.loads(b).to_numpy()])(pickle.dumps(a)))
