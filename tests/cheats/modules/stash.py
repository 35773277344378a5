"""A 'sort' in one step: build() keeps the instance in a module global, the program reads it."""
import numpy as np
import pram
from pram import Step, Write, iota

_LAST = {}

def build(n, rng):
    a = rng.permutation(7 * n)[:n].astype(np.int64)
    _LAST["a"] = a.copy()
    return {"a": a}

def program(m, a):
    n = a.size
    out = m.array("out", size=n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(_LAST["a"]))])
    return out

fastsort = pram.Algorithm(name="fastsort", build=build, program=program,
                          reference=lambda a: np.sort(a), bounds={"work": "n", "time": "1"})
