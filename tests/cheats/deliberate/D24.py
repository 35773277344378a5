from harness import *
TITLE = "subclass of list as a Step's writes that records what the engine does with it"
def run(vals):
    m, a = mk(vals); seen = []; box = {}
    class Spy(list):
        def __getitem__(self, k): seen.append(("get", k)); return list.__getitem__(self, k)
        def __iter__(self): seen.append("iter"); return list.__iter__(self)
        def __len__(self): seen.append("len"); return list.__len__(self)
    def prog():
        pid, x = yield from read_all(m, a)
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=Spy([Write(a, hold(pid, iota(8))[x > 500], 1)]))
        box["n"] = len(seen)
    m.run(prog()); return False, f"spy saw {seen[:5]} (nothing about data)"
