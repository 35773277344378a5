from harness import *
TITLE = "monkeypatch pram.Array.to_numpy / sealed / Machine attributes on the classes"
def run(vals):
    done = []
    saved = {}
    for klass, name, val in ((pram.Array, "sealed", property(lambda self: False)),):
        try:
            saved[(klass, name)] = klass.__dict__.get(name); setattr(klass, name, val); done.append(name)
        except Exception: pass
    try:
        return steal(vals, lambda m, a, x, pid: a.to_numpy())
    finally:
        for (k, n), v in saved.items():
            try: setattr(k, n, v)
            except Exception: pass
