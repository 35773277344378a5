from harness import *
import gc
TITLE = "gc.get_referents(a): sort the memory's cells in place mid-run (a sort in one step)"
def run(vals):
    m, a = mk(vals); box = {"n": 0}
    def prog():
        pid = m.processors(1)
        yield Step(pid, reads=[Read(a, 0)])
        todo = [a]; seen = set()
        while todo:
            o = todo.pop()
            if id(o) in seen: continue
            seen.add(id(o))
            if isinstance(o, np.ndarray):
                if o.size == 8 and o.dtype == np.int64 and sorted(o.tolist()) == sorted(vals.tolist()):
                    o[...] = np.sort(o); box["n"] += 1
                continue
            if len(seen) < 2000: todo += gc.get_referents(o)
        yield Step(pid, reads=[Read(a, 0)])
    m.run(prog()); got = a.to_numpy().tolist()
    return got == sorted(vals.tolist()), f"memory after={got}, time={m.cost.time}, work={m.cost.work} (patched {box['n']} arrays)"
