from harness import *
import pickle
TITLE = "pickle.dumps(x) / loads mid-run"
def run(vals):
    return steal(vals, lambda m, a, x, pid: (lambda b: [b, pickle.loads(b)])(pickle.dumps(x)))
