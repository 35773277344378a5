from harness import *
TITLE = "subclasses of Register / Read / Write / Step / Until / Array"
def run(vals):
    made = []
    for k in (pram.Register, pram.Read, pram.Write, pram.Step, pram.Until, pram.Array):
        try:
            type("Sub" + k.__name__, (k,), {}); made.append(k.__name__)
        except Exception: pass
    return bool(made), f"subclassed {made}"
