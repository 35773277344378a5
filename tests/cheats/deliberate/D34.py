from harness import *
TITLE = "mutate the processor ids (via .base / a writable view) after the first step"
def run(vals):
    m, a = mk(vals); out = m.array("out", size=8); done = []
    def prog():
        pid = m.processors(8)
        (x,) = yield Step(pid, reads=[Read(a, iota(8))])
        for f in (lambda: pid.__setitem__(slice(None), pid[::-1].copy()),
                  lambda: (pid.base if pid.base is not None else pid).__setitem__(slice(None), pid[::-1].copy()),
                  lambda: (pid.setflags(write=True), pid.__setitem__(slice(None), pid[::-1].copy()))):
            try: f(); done.append("ok")
            except Exception as e: done.append(type(e).__name__)
        yield Step(pid, writes=[Write(out, iota(8), x)])
    m.run(prog()); got = out.to_numpy().tolist()
    return got == vals[::-1].tolist(), f"mutations {done}; out={got}"
