"""Harness for the honesty cheats of api.py. Cases live in registers.py, declarations.py, during_runs.py,
idioms.py and deliberate/."""
import copy, sys, traceback, textwrap
import numpy as np
import pram
from pram import Machine, Read, Step, Write, iota, hold, Until, HonestyError, parallel, phase

A = np.array([907, 13, 555, 271, 42, 999, 3, 614], dtype=np.int64)
B = np.array([11, 702, 88, 5, 960, 47, 333, 120], dtype=np.int64)
CASES = []   # (category, id, title, fn)

def case(cat, cid, title):
    def deco(fn):
        CASES.append((cat, cid, title, fn)); return fn
    return deco

def mk(vals, model="erew", **kw):
    m = Machine(model, **kw); a = m.array("a", values=np.asarray(vals)); return m, a

def read_all(m, a, n=None):
    n = a.size if n is None else n
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    return pid, x

def reveals(obj, vals):
    """Does obj (str / array / list / number / container) reveal data of vals?"""
    vals = np.asarray(vals)
    def nums(o, depth=0):
        if depth > 4: return []
        if isinstance(o, (str, bytes)):
            s = o if isinstance(o, str) else o.hex()
            return [v for v in vals if str(int(v)) in s] if isinstance(o, str) else []
        if isinstance(o, np.ndarray):
            if o.dtype.kind in "biuf": return list(o.ravel()[:100000])
            return []
        if isinstance(o, (int, float, np.integer, np.floating, bool)): return [o]
        if isinstance(o, dict): o = list(o.values()) + list(o.keys())
        if isinstance(o, (list, tuple, set, frozenset)):
            r = []
            for e in o: r += nums(e, depth + 1)
            return r
        return []
    got = nums(obj)
    if isinstance(obj, str):
        big = [v for v in vals if abs(int(v)) >= 1000] or [v for v in vals if abs(int(v)) >= 100]
        hits = [v for v in big if str(int(v)) in obj]
        return len(hits) >= min(3, len(big))
    if not got: return False
    got = np.asarray(got, dtype=float)
    s = set(got.tolist())
    hits = sum(1 for v in vals if float(v) in s)
    return hits >= 3 or float(vals.sum()) in s or (float(vals.max()) in s and float(vals.max()) > 900)

class Leak(Exception):
    pass

def secret_of(vals):
    return np.asarray(vals) * 3 + 7        # computed only inside the machine during a run

def steal(vals, grab, model="erew", **kw):
    """Memory b gets 3*a+7, computed by the processors (the host never computes it before the
    run ends); grab(m, b, y, pid) runs mid-run; does what it got reveal b's contents?"""
    m, a = mk(vals, model, **kw)
    b = m.array("b", size=8)
    box = {}
    def prog():
        pid, x = yield from read_all(m, a)
        yield Step(pid, writes=[Write(b, iota(8), x * 3 + 7)])
        (y,) = yield Step(pid, reads=[Read(b, iota(8))])
        who = hold(pid, pid)[y > 1500]
        yield Step(who, reads=[Read(b, hold(pid, iota(8))[y > 1500])])
        got = grab(m, b, y, pid)
        box["got"] = got
        box["s"] = str(got)[:90]
        yield Step(pid, reads=[Read(b, iota(8))])
    m.run(prog())
    return reveals(box["got"], secret_of(vals)), f"ran; mid-run host got {box['s']!r}"

def frame_spy(seen):
    """A trace function that keeps every 8-cell integer array a returning frame held."""
    def tracer(frame, event, arg):
        if event == "return":
            for v in list(frame.f_locals.values()) + [arg]:
                if type(v) is np.ndarray and v.dtype.kind in "iu" and v.size == 8: seen.append(v.copy())
        return tracer
    return tracer

def spied_run(vals, install, uninstall, seen):
    """install() spies at the start of the program (after the host set memory up); judge seen."""
    m, a = mk(vals); b = m.array("b", size=8); box = {}
    def prog():
        install()
        try:
            pid, x = yield from read_all(m, a)
            yield Step(pid, writes=[Write(b, iota(8), x * 3 + 7)])
            (y,) = yield Step(pid, reads=[Read(b, iota(8))])
            who = hold(pid, pid)[y > 1500]
            yield Step(who, reads=[Read(b, hold(pid, iota(8))[y > 1500])])
            yield Step(pid, reads=[Read(b, y % 8)])
            yield Step(pid, writes=[Write(b, iota(8), np.where(y > 1500, y, 0))])
        finally:
            uninstall()
        box["n"] = len(seen); box["snap"] = list(seen)
    try:
        m.run(prog())
    finally:
        uninstall()
    return reveals(box["snap"], secret_of(vals)), f"spies saw {box['n']} arrays mid-run"
