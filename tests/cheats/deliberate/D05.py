from harness import *
TITLE = '"{0._values}".format(x)'
def run(vals):
    return steal(vals, lambda m, a, x, pid: "{0._values}".format(x))
