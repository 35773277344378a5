from harness import *
TITLE = "rebinding np.take to a spy during the run"
def run(vals):
    seen = []; orig = np.take
    def spy(*args, **kw):
        seen.extend(v.copy() for v in args if type(v) is np.ndarray); return orig(*args, **kw)
    def inst(): np.take = spy
    def unin(): np.take = orig
    return spied_run(vals, inst, unin, seen)
