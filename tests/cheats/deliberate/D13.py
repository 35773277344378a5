from harness import *
TITLE = "a caught exception's __traceback__ -> tb_frame.f_back chain (no sys, no inspect)"
def run(vals):
    def grab(m, a, x, pid):
        try: raise ValueError
        except ValueError as e: f = e.__traceback__.tb_frame
        out = []
        while f is not None:
            out += [v for v in f.f_locals.values() if isinstance(v, np.ndarray)]
            f = f.f_back
        return out
    return steal(vals, grab)
