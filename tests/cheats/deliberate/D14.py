from harness import *
TITLE = "the machine's own HonestyError: its traceback frames (inside Register) f_locals"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        try: x.sum()
        except HonestyError as e:
            tb = e.__traceback__
            while tb is not None:
                for v in tb.tb_frame.f_locals.values():
                    out.append(v if isinstance(v, np.ndarray) else None)
                    for nm in ("_values",):
                        pass
                tb = tb.tb_next
        return [o for o in out if o is not None]
    return steal(vals, grab)
