from harness import *
import operator
TITLE = "operator.attrgetter('_values')(x)"
def run(vals):
    return steal(vals, lambda m, a, x, pid: operator.attrgetter("_val" + "ues")(x))
