from harness import *
TITLE = "an alias of getattr: g = getattr; g(x, '_values') / list(map(getattr, [x], ['_values']))"
def run(vals):
    g = getattr
    return steal(vals, lambda m, b, y, pid: [g(y, "_values"), list(map(getattr, [y], ["_values"]))[0]])
