from harness import *
TITLE = "monkeypatch the machine mid-run: m.model, m.mode, m.strict, m.observer"
def run(vals):
    m, a = mk(vals); out = m.array("out", size=1); changed = []
    class Obs(pram.Observer if isinstance(pram.Observer, type) else object):
        def __getattr__(self, k): return lambda *a, **kw: None
    def prog():
        pid = m.processors(8)
        for attr, v in (("model", "crcw-common"), ("mode", "raise"), ("strict", False), ("observer", Obs())):
            try: setattr(m, attr, v); changed.append(attr)
            except Exception: pass
        yield Step(pid, writes=[Write(out, np.zeros(8, np.int64), 1)])
    m.run(prog())
    return bool(changed) and not m.violations, f"changed {changed}; violations={len(m.violations)}"
