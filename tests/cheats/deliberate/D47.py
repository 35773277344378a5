from harness import *
import functools
TITLE = "functools.reduce(getattr, ['_values'], x) (getattr passed as a value)"
def run(vals):
    return steal(vals, lambda m, b, y, pid: functools.reduce(getattr, ["_values"], y))
