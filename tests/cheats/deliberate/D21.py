from harness import *
TITLE = "rebinding np.where and np.asarray to spies during the run"
def run(vals):
    seen = []; ow, oa = np.where, np.asarray
    def spy_w(*args, **kw):
        r = ow(*args, **kw)
        seen.extend(v.copy() for v in list(args) + [r] if type(v) is np.ndarray); return r
    def spy_a(v, *args, **kw):
        r = oa(v, *args, **kw)
        if type(r) is np.ndarray and r.dtype.kind in "biuf": seen.append(r.copy())
        return r
    def inst(): np.where, np.asarray = spy_w, spy_a
    def unin(): np.where, np.asarray = ow, oa
    return spied_run(vals, inst, unin, seen)
