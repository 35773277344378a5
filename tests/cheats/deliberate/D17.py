from harness import *
import threading, time
TITLE = "a thread polls a.to_numpy(), m.cost.work and m.violations during the run"
def run(vals):
    m, a = mk(vals); seen = []; stop = threading.Event(); inrun = threading.Event()
    def poll():
        while not stop.is_set():
            if inrun.is_set():
                for f in (a.to_numpy, lambda: m.cost.work, lambda: m.violations):
                    try: seen.append(f())
                    except Exception: pass
            time.sleep(0.0005)
    t = threading.Thread(target=poll); t.start()
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, reads=[Read(a, hold(pid, iota(8))[x > 500])])
        inrun.set(); time.sleep(0.1); inrun.clear()
        yield Step(pid, reads=[Read(a, iota(8))])
    try: m.run(prog())
    finally: stop.set(); t.join()
    return (reveals(seen, vals) or any(isinstance(s, (int, np.integer)) for s in seen)), f"thread saw {str(seen)[:90]}"
