from harness import *
TITLE = "rebinding ~60 numpy functions (np.*) to spies recording their array arguments"
NAMES = ["take", "where", "asarray", "array", "asanyarray", "ascontiguousarray", "concatenate", "unique", "argsort", "sort",
         "flatnonzero", "nonzero", "count_nonzero", "bincount", "lexsort", "copyto", "put", "searchsorted", "cumsum",
         "repeat", "stack", "vstack", "hstack", "full", "full_like", "empty_like", "zeros_like", "broadcast_to",
         "isin", "in1d", "choose", "select", "clip", "any", "all", "sum", "max", "min", "amax", "amin", "array_equal",
         "ravel", "reshape", "diff", "minimum", "maximum", "atleast_1d", "shares_memory", "may_share_memory",
         "result_type", "can_cast", "isnan", "isfinite", "errstate", "column_stack", "argmax", "argmin", "place", "putmask", "extract", "compress"]
def run(vals):
    seen = []; orig = {}
    busy = [False]
    def mkspy(f):
        def spy(*args, **kw):
            if busy[0]: return f(*args, **kw)
            busy[0] = True
            try:
                for v in list(args) + list(kw.values()):
                    if type(v) is np.ndarray and v.dtype.kind in "biuf": seen.append(v.copy())
                r = f(*args, **kw)
                if type(r) is np.ndarray and r.dtype.kind in "biuf": seen.append(r.copy())
                return r
            finally:
                busy[0] = False
        return spy
    def inst():
        for n in NAMES:
            if hasattr(np, n) and n not in orig: orig[n] = getattr(np, n); setattr(np, n, mkspy(orig[n]))
    def unin():
        for n, f in orig.items(): setattr(np, n, f)
    return spied_run(vals, inst, unin, seen)
