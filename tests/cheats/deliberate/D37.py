from harness import *
TITLE = "exec of generated code reaching private attributes (lint bypass, documented out of reach)"
def run(vals):
    code = "".join(chr(c) for c in [114,61,120,46,95,118,97,108,117,101,115])   # r=x._values
    def grab(m, a, x, pid):
        ns = {"x": x}; ev = __builtins__["exec"] if isinstance(__builtins__, dict) else getattr(__builtins__, "exec")
        ev(code, ns); return ns["r"]
    return steal(vals, grab)
