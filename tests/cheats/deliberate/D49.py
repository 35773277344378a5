from harness import *
import operator
TITLE = "operator.methodcaller('__getstate__')(x) (a dunder named in a string)"
def run(vals):
    return steal(vals, lambda m, b, y, pid: operator.methodcaller("__getstate__")(y))
