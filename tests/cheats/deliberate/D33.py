from harness import *
TITLE = "x.view(np.int32): half-words as if of other processors / x.view(np.uint8)"
def run(vals):
    return steal(vals, lambda m, a, x, pid: (lambda v: np.asarray(v[::2]) if False else v)(x.view(np.int32)))
