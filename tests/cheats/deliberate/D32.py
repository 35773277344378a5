from harness import *
TITLE = "memoryview(x) / bytes(x) / np.frombuffer(x) / x.__array_interface__"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for f in (lambda: np.frombuffer(memoryview(x), np.int64), lambda: np.frombuffer(bytes(x), np.int64),
                  lambda: np.frombuffer(x, np.int64), lambda: x.__array_interface__, lambda: x.__array_struct__,
                  lambda: np.lib.stride_tricks.as_strided(x)):
            try: out.append(f())
            except Exception as e: out.append(type(e).__name__)
        return out
    return steal(vals, grab)
