from harness import *
import string
TITLE = "string.Formatter().get_field('0._values', ...) (attribute access inside a format field)"
def run(vals):
    return steal(vals, lambda m, a, x, pid: string.Formatter().get_field("0._values", (x,), {})[0])
