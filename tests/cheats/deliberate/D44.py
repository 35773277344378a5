from harness import *
import io
TITLE = "np.save(BytesIO, x) / np.savetxt of a register mid-run"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for f in (lambda b: np.save(b, x), lambda b: np.savetxt(b, x)):
            b = io.BytesIO()
            try: f(b); out.append(b.getvalue().decode("latin1"))
            except HonestyError: pass
        return " ".join(out)
    return steal(vals, grab)
