#!/usr/bin/env python3
"""A second outside honesty battery (225 cases: plausible cheats, deliberate cheats and honest
idioms), written from the docs by a tester who had not seen the code or the tests, kept as
written but for where it writes; tests/test_cheats.py runs a fixed subset of it.

Run:  python tests/cheats/sealed_state.py [--python PYTHON] [--pram PRAM] [--only ID,ID]
      [--jobs 2] [--out results.json]
Each case is a small script run in a subprocess with PYTHON (timeout per case); it ends by
printing one line `RESULT {"outcome": ...}`:
  cheat / deliberate:  PASSES -> verdict PASSES (the cheat got its answer / raw values / fewer
                       counts / no violation); honest or an exception (refused) -> ok
  idiom:               good -> ok; an exception or `fail` -> BAD (refused / wrong counts)
  no RESULT line / timeout -> ERR (the case itself broke)
For deliberate cases (gc, ctypes, frames, settrace, observer) `PRAM lint case.py` is run too;
`lint=flagged` means exit 1 with a finding.  --out FILE writes the results as JSON.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, textwrap, time
from concurrent.futures import ThreadPoolExecutor

HEADER = r'''
import numpy as np, pram, sys, json, copy, pickle, os, math, warnings
from pram import Machine, Read, Step, Write, iota, hold, Until, HonestyError, parallel, phase
VALS = np.array([50001, 30007, 80021, 10003, 70001, 20011, 60013, 40009])
N = 8
def _r(outcome, why=''):
    sys.stdout.write('RESULT ' + json.dumps({'outcome': outcome, 'why': str(why)[:400]}) + '\n')
    sys.stdout.flush(); os._exit(0)
def PASSES(why=''): _r('PASSES', why)
def HONEST(why=''): _r('honest', why)
def GOOD(why=''): _r('good', why)
def FAIL(why=''): _r('fail', why)
def israw(r, vals=None):
    vals = VALS if vals is None else vals
    if isinstance(r, (list, tuple)):
        return any(israw(e, vals) for e in r)
    return type(r) is np.ndarray and r.shape == np.shape(vals) and np.array_equal(r, vals)
def grab(fn, vals=None, model='erew'):
    """read VALS into register x (n processors), call fn(m, a, x, pid) mid-run, return its result"""
    a_vals = VALS if vals is None else np.asarray(vals)
    box = {}
    def prog(m, a):
        pid = m.processors(len(a_vals))
        x, = yield Step(pid, reads=[Read(a, iota(len(a_vals)))])
        box['r'] = fn(m, a, x, pid)
        yield Step(pid, writes=[Write(a, iota(len(a_vals)), x)])
    m = Machine(model); a = m.array('a', values=a_vals)
    m.run(prog(m, a))
    return box['r']
def judge_raw(r, what):
    if israw(r): PASSES(what + ' returned the raw values mid-run: ' + repr(r)[:120])
    HONEST(what + ' gave no raw values: ' + repr(r)[:120])
def leak(fn, inputs, model='erew', **kw):
    """fn(m, a, x, pid, obs) (generator or plain) runs mid-run and appends host observations"""
    out = []
    for vals in inputs:
        obs = []
        vals = np.asarray(vals)
        def prog(m, a):
            pid = m.processors(len(vals))
            x, = yield Step(pid, reads=[Read(a, iota(len(vals)))])
            g = fn(m, a, x, pid, obs)
            if hasattr(g, 'send'):
                yield from g
        m = Machine(model, **kw); a = m.array('a', values=vals)
        m.run(prog(m, a))
        out.append(_noaddr(repr(obs)))
    return out
def judge_leak(out):
    if len(set(out)) > 1: PASSES('the program saw different host values on different inputs: ' + ' | '.join(out))
    HONEST('same observation on every input: ' + out[0])
import re as _re
def _noaddr(t): return _re.sub(r'0x[0-9a-fA-F]+', '0x?', t)
def try_(f):
    try: return ('ok', _noaddr(repr(f()))[:200])
    except Exception as e: return ('exc', type(e).__name__, str(e)[:200])
'''

FORKRUNNER = r'''
import os, sys, json, time, signal, runpy
import numpy, pram            # imported once; every case runs in a forked child of this process
jobs = int(sys.argv[2])
todo = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
running = {}
def start(path, tmo):
    d = os.path.dirname(path)
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(d); sys.path.insert(0, d)
            fd = os.open(os.path.join(d, 'out.txt'), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd, 1); os.dup2(fd, 2)
            sys.argv = [RUNNER_PATH, path]
            runpy.run_path(RUNNER_PATH, run_name='__main__')
        finally:
            os._exit(0)
    running[pid] = (path, time.time() + float(tmo))
while todo or running:
    while todo and len(running) < jobs:
        p, t = todo.pop(0); start(p, t)
    time.sleep(0.02)
    for pid, (path, deadline) in list(running.items()):
        r, status = os.waitpid(pid, os.WNOHANG)
        if r == pid:
            del running[pid]
        elif time.time() > deadline:
            try: os.killpg(pid, signal.SIGKILL)
            except Exception: pass
            try: os.kill(pid, signal.SIGKILL)
            except Exception: pass
            os.waitpid(pid, 0); del running[pid]
            with open(os.path.join(os.path.dirname(path), 'out.txt'), 'a') as f:
                f.write('\nRESULT ' + json.dumps({'outcome': 'timeout', 'why': 'timed out'}) + '\n')
'''

RUNNER = r'''
import runpy, sys, json, os, traceback
try:
    runpy.run_path(sys.argv[1], run_name='__main__')
    print('RESULT ' + json.dumps({'outcome': 'noresult', 'why': 'case ended without a verdict'}))
except SystemExit as e:
    print('RESULT ' + json.dumps({'outcome': 'refused', 'why': 'SystemExit %r' % (e.code,)}))
except BaseException as e:
    print('RESULT ' + json.dumps({'outcome': 'refused', 'why': type(e).__name__ + ': ' + str(e)[:300]}))
sys.stdout.flush(); os._exit(0)
'''

CASES = []
def case(id, kind, desc, expect, code, files=None, cli=None, timeout=40):
    CASES.append(dict(id=id, kind=kind, desc=desc, expect=expect, code=textwrap.dedent(code),
                      files=files or {}, cli=cli, timeout=timeout))

# ---------------------------------------------------------------- module helpers (raw values)
for mod, fn, obj in [
    ('pram.trace', 'cells_of', 'a'), ('pram.memory', 'cells_of', 'a'),
    ('pram.engine.views', 'cells_of', 'a'), ('pram.engine.core', 'cells_of', 'a'),
    ('pram.loop', 'raw_of', 'x'), ('pram.registers.register', 'raw_of', 'x'),
    ('pram.registers.holding', 'raw_of', 'x'), ('pram.depth', 'raw_of', 'x'),
    ('pram.engine.fast', 'words_of', 'x'), ('pram.engine.checks', 'raw_of', 'x'),
]:
    case(f'mod-{mod.split(".")[-1]}-{fn}-{obj}', 'cheat',
         f'`import {mod}` then `{mod}.{fn}({obj})` mid-run ({"a sealed array" if obj=="a" else "a register"})',
         'a sealed array\'s cells / a register\'s raw values reached by no attribute path while the run is active',
         f'''
         import {mod}
         judge_raw(grab(lambda m, a, x, pid: {mod}.{fn}({obj})), '{mod}.{fn}({obj})')
         ''')

case('mod-from-import-raw_of', 'cheat', '`from pram.loop import raw_of` (no private name in the source) on a register',
     'no raw values mid-run', '''
     from pram.loop import raw_of
     judge_raw(grab(lambda m, a, x, pid: raw_of(x)), 'raw_of(x)')
     ''')
case('mod-sysmodules-held', 'cheat', "`sys.modules['pram._held'].cells_of(a)` (a string, no private attribute in the source)",
     'no raw cells mid-run', '''
     H = sys.modules['pram.' + '_held']
     judge_raw(grab(lambda m, a, x, pid: H.cells_of(a)), "sys.modules['pram._held'].cells_of")
     ''')
case('mod-importlib-held', 'cheat', "`importlib.import_module('pram._held').raw_of(x)`",
     'no raw values mid-run', '''
     import importlib
     H = importlib.import_module('pram._held')
     judge_raw(grab(lambda m, a, x, pid: H.raw_of(x)), 'import_module(pram._held).raw_of')
     ''')
case('mod-held-attr', 'cheat', '`pram._held.raw_of(x)` (a private module attribute of pram)',
     'no raw values mid-run (or lint flags it)', '''
     judge_raw(grab(lambda m, a, x, pid: pram._held.raw_of(x)), 'pram._held.raw_of')
     ''')
case('mod-scan-public', 'cheat', 'scan vars() of every pram submodule for callables, call each public name f(x), f(a) mid-run',
     'no public name returns raw values', '''
     import importlib, pkgutil, types, signal, tempfile
     os.chdir(tempfile.mkdtemp())
     mods = [importlib.import_module(i.name) for i in pkgutil.walk_packages(pram.__path__, 'pram.')
             if not any(s in i.name for s in ('lint', 'startup', '_held'))]
     found = []
     def fn(m, a, x, pid):
         for mod in mods:
             for k, v in list(vars(mod).items()):
                 if k.startswith('_') or isinstance(v, (types.ModuleType, type)) or not callable(v): continue
                 for nm, o in (('a', a), ('x', x)):
                     try:
                         r = v(o)
                         if israw(r): found.append(f'{mod.__name__}.{k}({nm})')
                     except BaseException: pass
         return found
     try:
         grab(fn)
     except Exception:
         pass
     if found: PASSES('public functions returning raw values mid-run: ' + ', '.join(sorted(set(found))[:12]) + f' ({len(set(found))} in all)')
     HONEST('none')
     ''', timeout=60)
case('mod-put_raw-sort', 'cheat', '`pram.registers.register.put_raw(x, sorted)` then write: sort of 8 values in 2 steps',
     'no register\'s values can be set from host data mid-run; a sort takes Omega(log n) steps', '''
     import pram.registers.register as R
     def prog(m, a):
         pid = m.processors(N)
         x, = yield Step(pid, reads=[Read(a, iota(N))])
         R.put_raw(x, np.sort(R.raw_of(x)))
         yield Step(pid, writes=[Write(a, iota(N), x)])
     m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
     if a.to_numpy().tolist() == sorted(VALS.tolist()) and m.cost.time == 2: PASSES(f'sorted in time {m.cost.time}, work {m.cost.work}')
     HONEST(a.to_numpy().tolist())
     ''')
case('mod-put_cells-sort', 'cheat', '`pram._held` put_cells via `sys.modules` rewrites a sealed array: sort in 0 steps',
     'sealed memory not writable from the host mid-run', '''
     H = sys.modules['pram._held']
     def prog(m, a):
         H.put_cells(a, np.sort(H.cells_of(a)))
         yield Step(m.processors(1), reads=[Read(a, 0)])
     m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
     if a.to_numpy().tolist() == sorted(VALS.tolist()): PASSES(f'sorted in time {m.cost.time}')
     HONEST(a.to_numpy().tolist())
     ''')
case('mod-owners-count', 'cheat', '`pram.registers.register.owners_of(who)` on processors chosen by data (count = n-way OR)',
     'the processors of a mask register are data: no attribute path to them', '''
     import pram.registers.register as R
     def fn(m, a, x, pid, obs):
         who = hold(pid, pid)[x > 45000]
         try: obs.append(len(R.owners_of(who)))
         except Exception as e: obs.append(type(e).__name__)
     judge_leak(leak(fn, [VALS, VALS % 1000]))
     ''')
case('mod-trace-max-1step', 'cheat', 'max of 8 on EREW in 1 step: host reads cells with pram.trace.cells_of, one processor writes the max',
     'max needs Omega(log n) steps on EREW', '''
     import pram.trace
     def prog(m, a, out):
         v = pram.trace.cells_of(a)
         yield Step(m.processors(1), writes=[Write(out, 0, int(np.max(v)))])
     m = Machine(); a = m.array('a', values=VALS); out = m.array('out', size=1)
     m.run(prog(m, a, out))
     if out.to_numpy()[0] == VALS.max() and m.cost.time < 3 and not m.violations: PASSES(f'max in time {m.cost.time}, work {m.cost.work}')
     HONEST(m.cost.time)
     ''')

# ---------------------------------------------------------------- Until
case('until-many-procs', 'cheat', '`Until(flags, iota(n), pid)` with n processors: an n-way AND in one step (n=4096, EREW)',
     'refused, or charged >= ceil(log2 n) steps', '''
     n = 4096
     def prog(m, f):
         pid = m.processors(n)
         r = yield Until(f, iota(n), pid)
         return r
     m = Machine(); f = m.array('f', values=np.ones(n, dtype=np.int64)); r = m.run(prog(m, f))
     if m.cost.time < 12: PASSES(f'answer {r} in time {m.cost.time}')
     HONEST(m.cost.time)
     ''')
case('until-one-proc-many-cells', 'cheat', '`Until(flags, iota(n), control)`: one control processor, n cells (AND of n in one step)',
     'refused (one processor reads one cell) or charged >= log2 n', '''
     n = 1024
     def prog(m, f):
         c = m.processors(1)
         return (yield Until(f, iota(n), c))
     m = Machine(); f = m.array('f', values=np.ones(n, dtype=np.int64)); r = m.run(prog(m, f))
     if r is True and m.cost.time < 10: PASSES(f'AND of {n} cells -> {r} in time {m.cost.time}')
     HONEST((r, m.cost.time))
     ''')
case('until-chosen-by-data', 'cheat', '`Until` whose processors are a register chosen by data (vacuous truth = OR)',
     'refused', '''
     def prog(m, a, f):
         pid = m.processors(N)
         x, = yield Step(pid, reads=[Read(a, iota(N))])
         who = hold(pid, pid)[x > 75000]
         cell = hold(pid, iota(N))[x > 75000]
         r = yield Until(f, cell, who, value=0)
         return r
     m = Machine(); a = m.array('a', values=VALS); f = m.array('f', values=np.ones(N, dtype=np.int64))
     r = m.run(prog(m, a, f))
     PASSES(f'Until over processors chosen by data answered {r} in time {m.cost.time}')
     ''')
case('until-parallel-two', 'cheat', 'two parallel branches each yielding an Until in one global step',
     'refused (at most one loop test per global step)', '''
     def br(m, f, i):
         c = m.processors(1)
         return (yield Until(f, i, c))
     m = Machine(); f = m.array('f', values=np.ones(2, dtype=np.int64))
     r = m.run(parallel(br(m, f, 0), br(m, f, 1)))
     PASSES(f'two loop tests in one step: {r}, time {m.cost.time}')
     ''')
case('until-repeated-id', 'cheat', '`Until` with processors np.full(n, c) (one id repeated)', 'refused', '''
     n = 64
     def prog(m, f):
         c = m.processors(1)
         return (yield Until(f, iota(n), np.full(n, c[0])))
     m = Machine(); f = m.array('f', values=np.ones(n, dtype=np.int64)); r = m.run(prog(m, f))
     if m.cost.time < 6: PASSES(f'{r} in time {m.cost.time}')
     HONEST(m.cost.time)
     ''')
case('until-2d-pairs', 'cheat', '`Until` on a 2-D array with an (i, j) pair of index arrays, one control', 'refused or >= log2 n', '''
     n = 16
     def prog(m, f):
         c = m.processors(1); k = iota(n * n)
         return (yield Until(f, (k // n, k % n), c))
     m = Machine(); f = m.array('f', values=np.ones((n, n), dtype=np.int64)); r = m.run(prog(m, f))
     if m.cost.time < 8: PASSES(f'AND of {n*n} in time {m.cost.time}: {r}')
     HONEST(m.cost.time)
     ''')
case('until-value-array', 'cheat', '`Until(f, 0, c, value=np.arange(n))`: value an array (n comparisons)', 'refused', '''
     def prog(m, f):
         c = m.processors(1)
         return (yield Until(f, 0, c, value=np.arange(64)))
     m = Machine(); f = m.array('f', values=np.array([5])); r = m.run(prog(m, f))
     PASSES(f'value array accepted: {r}')
     ''')
case('until-index-register-many', 'cheat', '`Until(f, x, c)`: index a register of n processors, control one', 'refused', '''
     def prog(m, a, f):
         pid = m.processors(N)
         x, = yield Step(pid, reads=[Read(a, iota(N))])
         c = m.processors(1)
         return (yield Until(f, x % N, c))
     m = Machine(); a = m.array('a', values=VALS); f = m.array('f', values=np.ones(N, dtype=np.int64))
     r = m.run(prog(m, a, f)); PASSES(f'{r} in time {m.cost.time}')
     ''')
case('until-slice-index', 'cheat', '`Until(f, slice(None), c)`', 'refused', '''
     def prog(m, f):
         c = m.processors(1)
         return (yield Until(f, slice(None), c))
     m = Machine(); f = m.array('f', values=np.ones(64, dtype=np.int64)); r = m.run(prog(m, f))
     PASSES(f'slice accepted: {r}, time {m.cost.time}')
     ''')
case('until-subclass', 'cheat', 'a subclass of Until (or of Step) overriding its reads', 'refused', '''
     class U(Until):
         pass
     PASSES('Until subclassed')
     ''')
case('until-attr-before-yield', 'cheat', 'scan an Until\'s attributes (dir) for its answer before yielding it (a bit without a step)',
     'no attribute gives the answer without the step', '''
     def fn(m, a, x, pid, obs):
         c = m.processors(1)
         u = Until(a, 0, c, value=int(VALS[0]))
         for k in dir(u):
             if k.startswith('__'): continue
             try:
                 v = getattr(u, k)
                 if isinstance(v, (bool, np.bool_)) or (callable(v) and k in ('answer', 'reply', 'result', 'holds')):
                     obs.append((k, v() if callable(v) else v))
             except Exception as e: pass
         if False: yield
     o1 = leak(fn, [VALS]); vals2 = VALS.copy(); vals2[0] += 1
     judge_leak([leak(fn, [VALS])[0], leak(fn, [vals2])[0]])
     ''')
case('until-max-erew-4096', 'cheat', 'the issue\'s max of 4096 values below 16 on EREW: per candidate v, Until over processors with x==v (chosen by data)',
     'max of 4096 needs >= 12 steps on EREW/CREW, or is refused / flagged', '''
     n = 4096
     rng = np.random.default_rng(1); vals = rng.integers(0, 16, n)
     def prog(m, a, f):
         pid = m.processors(n)
         x, = yield Step(pid, reads=[Read(a, iota(n))])
         for v in range(15, -1, -1):
             who = hold(pid, pid)[x == v]
             cell = hold(pid, iota(n))[x == v]
             none = yield Until(f, cell, who, value=0)
             if not none:
                 return v
     m = Machine(); a = m.array('a', values=vals); f = m.array('f', values=np.ones(n, dtype=np.int64))
     r = m.run(prog(m, a, f))
     if r == vals.max() and m.cost.time < 12 and not m.violations: PASSES(f'max {r} in {m.cost.time} steps')
     HONEST((r, m.cost.time))
     ''')
case('until-sorted-check', 'cheat', '"is it sorted" in O(1) steps on CREW: n processors compare neighbours, then one Until over all flags',
     'refused or >= log2 n steps', '''
     n = 512
     vals = np.arange(n)
     def prog(m, a, f):
         pid = m.processors(n - 1); i = iota(n - 1)
         x, y = yield Step(pid, reads=[Read(a, i), Read(a, i + 1)])
         yield Step(pid, writes=[Write(f, i, np.where(x <= y, 1, 0))])
         return (yield Until(f, i, pid))
     m = Machine('crew'); a = m.array('a', values=vals); f = m.array('f', size=n - 1)
     r = m.run(prog(m, a, f))
     if r is True and m.cost.time < 9: PASSES(f'sorted? {r} in time {m.cost.time}')
     HONEST(m.cost.time)
     ''')
case('until-batch-pass-count', 'cheat', 'batch of 2: a global counter of program passes tells instance 0 that instance 1 left its path (documented limit)',
     'documented as passing (declare/batches how-to); listed for completeness', '''
     passes = []
     def prog(m, a, f):
         passes.append(1)
         c = m.processors(1)
         r = yield Until(f, 0, c)
         pid = m.processors(1)
         yield Step(pid, writes=[Write(a, 0, len(passes))])
     m = Machine('erew', batch=2); a = m.array('a', values=np.zeros((2, 1), dtype=np.int64))
     f = m.array('f', values=np.array([[1], [1]]))
     m.run(prog(m, a, f)); same = a.to_numpy()[:, 0].tolist()
     passes.clear()
     m = Machine('erew', batch=2); a = m.array('a', values=np.zeros((2, 1), dtype=np.int64))
     f = m.array('f', values=np.array([[1], [0]]))
     m.run(prog(m, a, f)); diff = a.to_numpy()[:, 0].tolist()
     if same[0] != diff[0]: PASSES(f'instance 0 wrote {same[0]} vs {diff[0]} depending on instance 1 (documented)')
     HONEST((same, diff))
     ''')

# ---------------------------------------------------------------- registers: numpy and builtins
REG_OPS = [
    ('reg-max-method', 'x.max()'), ('reg-maximum-reduce', 'np.maximum.reduce(x)'),
    ('reg-np-sort', 'np.sort(x)'), ('reg-sorted', 'sorted(x)'), ('reg-builtin-max', 'max(x)'),
    ('reg-contains', '50001 in x'), ('reg-list', 'list(x)'), ('reg-asarray', 'np.asarray(x)'),
    ('reg-tolist', 'x.tolist()'), ('reg-int', 'int(x[0])'), ('reg-memoryview', 'memoryview(x)'),
    ('reg-bytes', 'bytes(x)'), ('reg-dunder-array', 'x.__array__()'), ('reg-item', 'x[0].item()'),
    ('reg-out-plain', 'np.add(x, 0, out=np.zeros(8, dtype=np.int64))'),
    ('reg-copyto', '(lambda p: (np.copyto(p, x), p)[1])(np.zeros(8, dtype=np.int64))'),
    ('reg-putmask', '(lambda p: (np.putmask(p, np.ones(8, bool), x), p)[1])(np.zeros(8, dtype=np.int64))'),
    ('reg-add-at', '(lambda p: (np.add.at(p, np.arange(8), x), p)[1])(np.zeros(8, dtype=np.int64))'),
    ('reg-astype-object', 'x.astype(object)'), ('reg-array-object', 'np.array(x, dtype=object)'),
    ('reg-pickle', 'pickle.loads(pickle.dumps(x))'), ('reg-reduce-ex', 'x.__reduce_ex__(2)'),
    ('reg-frompyfunc', '(lambda s: (np.frompyfunc(lambda v: s.append(int(v)) or v, 1, 1)(x), np.array(s))[1])([])'),
    ('reg-vectorize', '(lambda s: (np.vectorize(lambda v: s.append(int(v)) or v)(x), np.array(s))[1])([])'),
    ('reg-einsum', 'np.einsum("i->", x)'), ('reg-matmul', 'x @ np.ones(8, dtype=np.int64)'),
    ('reg-fft', 'np.fft.fft(x)'), ('reg-cumsum', 'np.cumsum(x)'), ('reg-unique', 'np.unique(x)'),
    ('reg-as-strided', 'np.lib.stride_tricks.as_strided(x)'), ('reg-data-attr', 'np.frombuffer(x.data, dtype=np.int64)'),
    ('reg-struct', '__import__("struct").pack("q", x[0])'), ('reg-array-module', '__import__("array").array("q", x)'),
    ('reg-deepcopy', 'copy.deepcopy(x)'), ('reg-dlpack', 'np.from_dlpack(x)'),
    ('reg-take', 'np.take(x, np.arange(8))'), ('reg-argsort', 'np.argsort(x)'),
    ('reg-choose-as-table', 'np.choose(np.arange(8), x)'),
]
for cid, expr in REG_OPS:
    case(cid, 'cheat', f'`{expr}` on a register mid-run', 'HonestyError (moves values between processors / escapes to the host), or no raw values', f'''
    def fn(m, a, x, pid):
        r = {expr}
        return r
    r = grab(fn)
    if israw(r) or (isinstance(r, (list, tuple)) and israw(np.array(r, dtype=np.int64) if all(isinstance(e, (int, np.integer)) for e in r) else None)):
        PASSES('raw values: ' + repr(r)[:100])
    if isinstance(r, (bytes, memoryview)) or (type(r) is np.ndarray and r.dtype == object) or isinstance(r, (bool, int, float, np.generic)) or (type(r) is np.ndarray and r.size and not israw(r)):
        PASSES('host value from register data: ' + repr(r)[:100])
    HONEST('result ' + type(r).__name__ + ' ' + repr(r)[:80])
    ''')

case('reg-reverse-combine', 'cheat', '`np.maximum(x, x[::-1])`: each processor sees its mirror\'s value without memory', 'refused', '''
    r = grab(lambda m, a, x, pid: np.maximum(x, x[::-1]))
    PASSES('combined registers of other processors: ' + repr(r))
    ''')
case('reg-roll', 'cheat', '`np.roll(x, 1)`', 'refused', '''
    r = grab(lambda m, a, x, pid: np.roll(x, 1)); PASSES('np.roll accepted: ' + repr(r))
    ''')
case('reg-hold-transplant', 'cheat', '`hold(pid, x[::-1])` then `x + y`: each processor gets its mirror\'s value (max of 8 in 1 read step)',
     'refused (hold takes a register of the same processors only)', '''
    def prog(m, a, out):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        h = N
        while h > 1:
            h //= 2
            y = hold(pid, x[::-1]) if h == N // 2 else hold(pid, np.roll(x, h))
            x = np.maximum(x, y)
        yield Step(pid[:1], writes=[Write(out, 0, x[0])])
    m = Machine(); a = m.array('a', values=VALS); out = m.array('out', size=1); m.run(prog(m, a, out))
    if out.to_numpy()[0] == VALS.max() and m.cost.time < 3: PASSES(f'max in time {m.cost.time}')
    HONEST(m.cost.time)
    ''')
case('reg-hold-other-pids', 'cheat', '`hold(pid2, x)` moves x to another set of processors, which then combine with their own reads',
     'refused or counted', '''
    def prog(m, a, out):
        pid = m.processors(N); pid2 = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        y, = yield Step(pid2, reads=[Read(a, (iota(N) + 1) % N)])
        z = np.maximum(hold(pid2, x), y)
        yield Step(pid2, writes=[Write(out, iota(N), z)])
    m = Machine(); a = m.array('a', values=VALS); out = m.array('out', size=N); m.run(prog(m, a, out))
    if out.to_numpy().tolist() == np.maximum(VALS, np.roll(VALS, -1)).tolist(): PASSES('values moved to other processors by hold: ' + str(out.to_numpy().tolist()))
    HONEST(out.to_numpy().tolist())
    ''')
case('reg-widen-shift', 'cheat', '`pram.registers.holding.widen(x[2:])`: widen a slice back to all processors (shifts values?)',
     'no value moves', '''
    from pram.registers.holding import widen
    def prog(m, a, out):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        w = widen(x[2:], 0)
        yield Step(pid, writes=[Write(out, iota(N), w)])
    m = Machine(); a = m.array('a', values=VALS); out = m.array('out', size=N); m.run(prog(m, a, out))
    o = out.to_numpy().tolist()
    if o[:6] == VALS[2:].tolist(): PASSES('widen moved values to other processors: ' + str(o))
    HONEST(o)
    ''')
case('reg-seterr-raise', 'cheat', '`np.seterr(all="raise")` then `1 // (x - 50001)` inside try: an exception only when some x equals 50001 (OR)',
     'floating/integer reports silenced, no data-dependent exception', '''
    def fn(m, a, x, pid, obs):
        np.seterr(all='raise')
        try: y = (x * 0 + 1) // (x - 50001); obs.append('no')
        except Exception as e: obs.append(type(e).__name__)
        try: y = np.sqrt((x - 50001) * 1.0); obs.append('no')
        except Exception as e: obs.append(type(e).__name__)
    judge_leak(leak(fn, [VALS, VALS + 100000]))
    ''')
case('reg-warnings-error', 'cheat', '`warnings.simplefilter("error")` then `np.log(x - 50001.0)`: a warning only when some x <= 50001',
     'no data-dependent warning', '''
    def fn(m, a, x, pid, obs):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            y = np.log((x - 50001) * 1.0); z = (x * 1.0) / (x - 50001)
            obs.append(len(w))
    judge_leak(leak(fn, [VALS, VALS + 100000]))
    ''')
case('reg-cast-warning-mask', 'cheat', 'masked complex-into-real assignment `f[x > t] = z[x > t]`, warnings recorded (the issue\'s OR)',
     'one cast rule over the full width: refused or same behaviour whatever the mask', '''
    def fn(m, a, x, pid, obs):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            f = x * 1.0; z = x * 1.0 + 1j
            try:
                f[x > 75000] = z[x > 75000]; obs.append('assigned')
            except Exception as e: obs.append(type(e).__name__)
            obs.append(len(w))
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('reg-astype-int8-catch', 'cheat', '`x.astype(np.int8)` overflow caught inside the program (data-dependent)',
     'the program cannot catch the overflow (raised by run, outside)', '''
    def fn(m, a, x, pid, obs):
        try: y = (x - 50001).astype(np.int8); obs.append('no error')
        except Exception as e: obs.append(type(e).__name__)
    try:
        out = leak(fn, [VALS % 100, VALS])
    except Exception as e:
        HONEST('overflow ended the run outside the program: ' + type(e).__name__)
    judge_leak(out)
    ''')
case('reg-opaque-len', 'cheat', '`len`, `.shape`, `np.shape`, `repr` of processors chosen by data (the count)',
     'all refused; repr says "processors chosen by data"', '''
    def fn(m, a, x, pid, obs):
        who = hold(pid, pid)[x > 45000]
        for f in (len, lambda w: w.shape, np.shape, repr, str, lambda w: w.size, lambda w: np.size(w), lambda w: w.nbytes, lambda w: np.ndim(w)):
            obs.append(try_(lambda: f(who))[:2])
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('reg-opaque-error-text', 'cheat', 'error messages of operations on a register chosen by data, compared across inputs (count in text)',
     'no message depends on data', '''
    def fn(m, a, x, pid, obs):
        who = hold(pid, pid)[x > 45000]
        y = x[x > 45000]
        for f in (lambda: y + np.zeros(3), lambda: y + x, lambda: y[0], lambda: y[np.array([0, 1])], lambda: np.where(y > 1, y, np.zeros(2)), lambda: y.reshape(2, -1), lambda: hold(pid, np.zeros(3))[x > 45000]):
            obs.append(try_(f))
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('reg-opaque-empty-step', 'cheat', 'a Step of processors chosen by data when none / some are chosen: reply or error differs?',
     'nothing the program can observe differs', '''
    def fn(m, a, x, pid, obs):
        who = hold(pid, pid)[x > 75000]; cell = hold(pid, iota(N))[x > 75000]
        try:
            r = yield Step(who, reads=[Read(a, cell)])
            obs.append((len(r), type(r[0]).__name__, repr(r[0])))
        except Exception as e: obs.append(type(e).__name__)
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('reg-nonzero-count', 'cheat', '`np.count_nonzero(x > t)`, `np.any`, `np.nonzero`', 'refused', '''
    def fn(m, a, x, pid, obs):
        for f in (lambda: np.count_nonzero(x > 75000), lambda: np.any(x > 75000), lambda: np.nonzero(x > 75000), lambda: np.flatnonzero(x > 75000), lambda: (x > 75000).any(), lambda: np.where(x > 75000)):
            obs.append(try_(f)[:2] if try_(f)[0] == 'exc' else try_(f))
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('reg-descriptor-scan', 'cheat', 'walk type(x).__mro__ vars() for member descriptors and __get__ them on x',
     'the slot names were taken off the class: nothing found', '''
    def fn(m, a, x, pid):
        out = []
        for k in type(x).__mro__:
            for n, d in vars(k).items():
                if hasattr(d, '__get__') and type(d).__name__ == 'member_descriptor':
                    try: out.append(d.__get__(x))
                    except Exception: pass
        return out
    judge_raw(grab(fn), 'member descriptors of the class')
    ''')
case('reg-dir-scan', 'cheat', 'getattr every name in dir(x) and dir(a) mid-run, look for the raw values', 'nothing', '''
    def fn(m, a, x, pid):
        out = []
        for o in (x, a):
            for n in dir(o):
                try:
                    v = getattr(o, n)
                    out.append(v)
                    if callable(v) and n in ('copy', 'to_numpy', 'tolist', 'view', 'astype', '__array__', '__reduce__', '__getstate__'):
                        out.append(v())
                except Exception: pass
        return out
    judge_raw(grab(fn), 'dir scan')
    ''')
case('reg-exception-attrs', 'cheat', 'catch the HonestyError of np.sort(x) and look in vars(e), e.args, e.__context__ for raw values', 'nothing', '''
    def fn(m, a, x, pid):
        try: np.sort(x)
        except HonestyError as e:
            out = list(e.args) + list(vars(e).values()) + [e.__context__, e.__cause__]
            for v in list(out):
                if hasattr(v, '__dict__'): out += list(vars(v).values())
            return out
        return []
    judge_raw(grab(fn), 'the exception')
    ''')
case('reg-format-private', 'cheat', '`"{0._values}".format(x)` and `string.Formatter().get_field("0._cells", [a], {})`', 'nothing found (AttributeError)', '''
    import string
    def fn(m, a, x, pid):
        out = []
        for f in (lambda: "{0._values}".format(x), lambda: string.Formatter().get_field("0._values", [x], {})[0],
                  lambda: string.Formatter().get_field("0._cells", [a], {})[0], lambda: "{0._cells}".format(a)):
            try: out.append(f())
            except Exception: pass
        return out
    r = grab(fn)
    if any(israw(v) or (isinstance(v, str) and '50001' in v) for v in r): PASSES(repr(r)[:200])
    HONEST(repr(r)[:100])
    ''')
case('reg-getattr-value', 'cheat', '`g = getattr; g(x, "_values")`, `operator.attrgetter`, `map(getattr, ...)`', 'nothing', '''
    import operator
    def fn(m, a, x, pid):
        g = getattr; out = []
        for f in (lambda: g(x, '_values'), lambda: operator.attrgetter('_values')(x), lambda: list(map(getattr, [a], ['_cells']))[0],
                  lambda: g(a, '_cells'), lambda: object.__getattribute__(x, '_values')):
            try: out.append(f())
            except Exception: pass
        return out
    judge_raw(grab(fn), 'getattr as a value')
    ''')

# ---------------------------------------------------------------- sealed arrays, ledger mid-run
ARR_OPS = [('arr-to_numpy', 'a.to_numpy()'), ('arr-values', 'a.values'), ('arr-pickle', 'pickle.loads(pickle.dumps(a)).to_numpy()'),
           ('arr-deepcopy', 'copy.deepcopy(a).to_numpy()'), ('arr-copy', 'copy.copy(a).to_numpy()'), ('arr-asarray', 'np.asarray(a)'),
           ('arr-list', 'list(a)'), ('arr-index', 'a[0]'), ('arr-machine-arrays', 'm.arrays["a"].to_numpy()'),
           ('arr-reduce-ex', 'a.__reduce_ex__(2)'), ('arr-array-values', 'm.array("copy", values=a).to_numpy()')]
for cid, expr in ARR_OPS:
    case(cid, 'cheat', f'`{expr}` mid-run (memory sealed)', 'refused', f'''
    r = grab(lambda m, a, x, pid: {expr})
    if israw(r) or (isinstance(r, (list, tuple)) and list(map(int, r)) == VALS.tolist()) or isinstance(r, (int, np.integer)):
        PASSES('sealed cells reached: ' + repr(r)[:100])
    HONEST(repr(r)[:100])
    ''')
case('arr-alias-before-run', 'cheat', 'alias `v = a.values` / `a.to_numpy()` taken before the run, read mid-run after a data-dependent write',
     'no alias sees a run\'s writes', '''
    def run(vals):
        m = Machine(); a = m.array('a', values=vals); out = m.array('o', values=np.zeros(1, dtype=np.int64))
        al = [out.values, out.to_numpy(), out.defined]
        seen = []
        def prog(m, a):
            pid = m.processors(N)
            x, = yield Step(pid, reads=[Read(a, iota(N))])
            yield Step(pid, writes=[Write(out, np.zeros(N, dtype=np.int64), 1, where=x > 75000)])
            seen.append([np.asarray(v).tolist() for v in al])
            yield Step(pid[:1], reads=[Read(a, 0)])
        m2 = Machine('crcw-common'); a2 = m2.array('a', values=vals); out = m2.array('o', values=np.zeros(1, dtype=np.int64))
        al = [out.values, out.to_numpy(), out.defined]
        m2.run(prog(m2, a2)); return repr(seen)
    judge_leak([run(VALS), run(VALS % 1000)])
    ''')
case('arr-array-from-register', 'cheat', '`m.array("s", values=x)` mid-run: register values into memory without a step', 'refused', '''
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        s = m.array('s', values=x[::-1])
        yield Step(pid[:1], reads=[Read(s, 0)])
        return s
    m = Machine(); a = m.array('a', values=VALS); s = m.run(prog(m, a))
    PASSES('allocated from a register mid-run: ' + str(m.arrays['s'].to_numpy().tolist()))
    ''')
case('cost-midrun-work', 'cheat', 'mid-run `m.cost.work`, `m.cost.reads`, `brent(1)`, `as_dict()`, `repr(m.cost)` after a step of processors chosen by data',
     'm.cost shows time and sizes only: nothing differs with the data', '''
    def fn(m, a, x, pid, obs):
        who = hold(pid, pid)[x > 45000]; cell = hold(pid, iota(N))[x > 45000]
        yield Step(who, reads=[Read(a, cell)])
        c = m.cost
        for f in (lambda: c.work, lambda: c.reads, lambda: c.brent(1), lambda: c.as_dict(), lambda: repr(c), lambda: str(c),
                  lambda: list(c.profile), lambda: dict(c.phases), lambda: c.max_processors, lambda: c.local, lambda: c.round_work,
                  lambda: vars(c) if hasattr(c, '__dict__') else None):
            obs.append(try_(f))
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('cost-midrun-writes-mask', 'cheat', 'mid-run `m.cost.writes` after a write with where=x>t (count of writers = popcount)',
     'refused or not data-dependent', '''
    def fn(m, a, x, pid, obs):
        yield Step(pid, writes=[Write(a, iota(N), x, where=x > 45000)])
        obs.append(try_(lambda: m.cost.writes)); obs.append(try_(lambda: m.cost.as_dict().get('writes')))
    judge_leak(leak(fn, [VALS, VALS % 1000]))
    ''')
case('trace-kept-before', 'cheat', 'Machine(trace=True): `t = m.trace` kept before the run, read mid-run', 'nothing of the run visible', '''
    def fn(m, a, x, pid, obs):
        yield Step(pid, writes=[Write(a, iota(N), x + 1, where=x > 45000)])
        for f in (lambda: len(m.trace.steps), lambda: repr(m.trace.steps[-1]), lambda: m.trace.to_dict() if hasattr(m.trace, 'to_dict') else None):
            obs.append(try_(f))
    judge_leak(leak(fn, [VALS, VALS % 1000], trace=True))
    ''')
case('depths-midrun', 'cheat', 'Machine(depth=True): read `m.depths` mid-run after data-dependent writes', 'nothing visible mid-run', '''
    def fn(m, a, x, pid, obs):
        yield Step(pid, writes=[Write(a, iota(N), x + 1, where=x > 45000)])
        d = m.depths
        for f in (lambda: repr(d), lambda: d.largest if hasattr(d, 'largest') else None, lambda: vars(d) if hasattr(d, '__dict__') else None, lambda: [getattr(d, k) for k in dir(d) if not k.startswith('_')]):
            obs.append(try_(f))
    judge_leak(leak(fn, [VALS, VALS % 1000], depth=True))
    ''')
case('machine-vars-scan', 'cheat', 'scan vars(m), vars(m.cost), dir(m) attributes mid-run for raw cells', 'nothing', '''
    def fn(m, a, x, pid):
        out = []
        seen = set()
        def walk(o, d):
            if id(o) in seen or d > 3: return
            seen.add(id(o)); out.append(o)
            try: items = list(vars(o).values())
            except TypeError: items = []
            if isinstance(o, dict): items += list(o.values())
            if isinstance(o, (list, tuple)): items += list(o)
            for n in dir(o):
                if n.startswith('__'): continue
                try: items.append(getattr(o, n))
                except Exception: pass
            for v in items:
                if not callable(v) or isinstance(v, np.ndarray): walk(v, d + 1)
        walk(m, 0)
        return out
    judge_raw(grab(fn), 'walk of the machine')
    ''', timeout=60)
case('machine-model-midrun', 'cheat', '`m.model = "crcw-common"` mid-run (rules changed while running)', 'refused', '''
    def prog(m, a):
        pid = m.processors(N)
        m.model = 'crew'
        yield Step(pid, reads=[Read(a, np.zeros(N, dtype=np.int64))])
    m = Machine('erew'); a = m.array('a', values=VALS); m.run(prog(m, a))
    if not m.violations: PASSES('model swapped mid-run, no violation')
    HONEST(len(m.violations))
    ''')
case('machine-observer-midrun', 'cheat', '`m.observer = spy` mid-run', 'refused', '''
    seen = []
    class Spy(pram.Observer):
        def __getattr__(self, k):
            return lambda *a, **kw: seen.append(a)
    def prog(m, a):
        pid = m.processors(N)
        m.observer = Spy()
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(a, iota(N), x)])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    PASSES(f'observer installed mid-run, saw {len(seen)} events')
    ''')

# ---------------------------------------------------------------- steps and the ledger
case('step-list-subclass', 'cheat', 'a list subclass with __len__ 0 as a Step\'s reads', 'refused or counted right', '''
    class L(list):
        def __len__(self): return 0
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=L([Read(a, iota(N))]))
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    if m.cost.reads < N or m.cost.work < N: PASSES(f'reads {m.cost.reads} work {m.cost.work}')
    HONEST(m.cost.reads)
    ''')
case('step-tuple-subclass-iter', 'cheat', 'a tuple subclass whose __iter__ yields nothing as a Step\'s writes', 'refused or counted right', '''
    class T(tuple):
        def __iter__(self): return iter(())
        def __len__(self): return 0
    def prog(m, a):
        pid = m.processors(N)
        yield Step(pid, writes=T([Write(a, iota(N), 7)]))
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    if a.to_numpy().tolist() == [7] * N and m.cost.writes < N: PASSES(f'writes {m.cost.writes}')
    HONEST(m.cost.writes)
    ''')
case('step-mutate-after', 'cheat', 'object.__setattr__(step, "processors", pid[:1]) on a frozen Step before yielding it (8 reads charged as 1 processor?)',
     'refused, or the ledger counts what the machine executed', '''
    def prog(m, a):
        pid = m.processors(N)
        s = Step(pid, reads=[Read(a, iota(N))])
        try: object.__setattr__(s, 'processors', pid[:1])
        except Exception: HONEST('frozen')
        x, = yield s
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    if m.cost.work < N and m.cost.reads >= N: PASSES(f'work {m.cost.work}, reads {m.cost.reads}')
    HONEST((m.cost.work, m.cost.reads))
    ''')
case('step-mutate-reads', 'cheat', 'object.__setattr__(step, "reads", ()) after the machine froze it: reads done but not counted?', 'counted or refused', '''
    def prog(m, a):
        pid = m.processors(N)
        s = Step(pid, reads=[Read(a, iota(N))], writes=[Write(a, iota(N), 1)])
        object.__setattr__(s, 'writes', ())
        yield s
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    if a.to_numpy().tolist() == [1] * N and m.cost.writes < N: PASSES(f'writes landed, writes counted {m.cost.writes}')
    HONEST((a.to_numpy().tolist()[:2], m.cost.writes))
    ''')
case('step-one-proc-n-reads', 'cheat', 'one processor, one Read with an index array of n cells', 'refused (one cell per Read per processor)', '''
    def prog(m, a):
        x, = yield Step(m.processors(1), reads=[Read(a, iota(N))])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    PASSES(f'1 processor read {m.cost.reads} cells, work {m.cost.work}')
    ''')
case('step-2d-index-flat', 'cheat', 'n processors, Read(a, index of shape (n/2, 2)) on a flat array (2 cells per processor)', 'refused', '''
    def prog(m, a):
        x, = yield Step(m.processors(N // 2), reads=[Read(a, np.arange(N).reshape(N // 2, 2))])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    PASSES(f'reads {m.cost.reads}, work {m.cost.work}')
    ''')
case('step-too-many-reads', 'cheat', 'one processor with MAX_ACCESSES+1 Reads in one step', 'refused', '''
    k = pram.MAX_ACCESSES + 1
    def prog(m, a):
        r = yield Step(m.processors(1), reads=[Read(a, i % N) for i in range(k)])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    PASSES(f'{k} reads in one step accepted')
    ''')
case('step-shared-id-hides-conflict', 'cheat', 'distinct_processors=False: n copies of one id read a[0] on EREW (hides the concurrent read?)',
     'a violation, or refused (one processor reading n cells)', '''
    def prog(m, a):
        c = m.processors(1)
        x, = yield Step(np.full(N, c[0]), reads=[Read(a, np.zeros(N, dtype=np.int64))])
    m = Machine('erew', distinct_processors=False); a = m.array('a', values=VALS); m.run(prog(m, a))
    if not m.violations: PASSES(f'no violation; reads {m.cost.reads} work {m.cost.work}')
    HONEST(len(m.violations))
    ''')
case('step-parallel-same-ids', 'cheat', 'pram.parallel: two branches with the same processors reading the same cell (conflicts hidden?)', 'refused or violation', '''
    def br(m, a, pid):
        x, = yield Step(pid, reads=[Read(a, 0)])
    m = Machine('erew'); a = m.array('a', values=VALS); pid = m.processors(1)
    m.run(parallel(br(m, a, pid), br(m, a, pid)))
    if not m.violations: PASSES('no violation')
    HONEST(len(m.violations))
    ''')
case('step-foreign-register-value', 'cheat', 'Write whose value is a register of other processors (x[::-1])', 'refused', '''
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(a, iota(N), x[::-1])])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    PASSES(str(a.to_numpy().tolist()))
    ''')
case('step-ids-mutated', 'cheat', 'mutate the pid array after its first step so two processors share ids without a check', 'refused', '''
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        pid2 = np.array(pid)
        pid2[:] = pid2[0]
        y, = yield Step(pid2, reads=[Read(a, np.zeros(N, dtype=np.int64))])
    m = Machine(); a = m.array('a', values=VALS); m.run(prog(m, a))
    if not m.violations: PASSES(f'no violation, work {m.cost.work}')
    HONEST(len(m.violations))
    ''')
case('stash-register-other-machine', 'cheat', 'a register read on machine 1 is written on machine 2 (no read counted there)', 'refused', '''
    box = {}
    def p1(m, a):
        x, = yield Step(m.processors(N), reads=[Read(a, iota(N))]); box['x'] = x
    m1 = Machine(); a1 = m1.array('a', values=VALS); m1.run(p1(m1, a1))
    def p2(m, o):
        yield Step(m.processors(N), writes=[Write(o, iota(N), box['x'])])
    m2 = Machine(); o = m2.array('o', size=N); m2.run(p2(m2, o))
    PASSES(f'machine 2 wrote {o.to_numpy().tolist()} in time {m2.cost.time}')
    ''')
case('stash-register-same-machine', 'cheat', 'a register of run 1 reused in run 2 of the same machine', 'refused', '''
    box = {}
    m = Machine(); a = m.array('a', values=VALS); o = m.array('o', size=N)
    def p1(m):
        x, = yield Step(m.processors(N), reads=[Read(a, iota(N))]); box['x'] = x
    m.run(p1(m))
    def p2(m):
        yield Step(m.processors(N), writes=[Write(o, iota(N), box['x'] + 0)])
    m.run(p2(m))
    PASSES(f'run 2 wrote {o.to_numpy().tolist()}')
    ''')
case('cost-mutate-after-run', 'cheat', 'after a run, assign `m.cost.work = 1`, `m.cost.time = 1` (then a sweep builder would report these)', 'read-only', '''
    m = Machine(); a = m.array('a', values=VALS)
    def p(m):
        x, = yield Step(m.processors(N), reads=[Read(a, iota(N))])
    m.run(p(m))
    for f in (lambda: setattr(m.cost, 'work', 1), lambda: setattr(m.cost, 'time', 0), lambda: m.cost.profile.clear() if hasattr(m.cost.profile, 'clear') else None):
        try: f()
        except Exception: pass
    if m.cost.work != N or m.cost.time != 1 or len(list(m.cost.profile)) != 1: PASSES(f'ledger changed: time {m.cost.time} work {m.cost.work}')
    HONEST('ledger unchanged')
    ''')
case('sweep-builder-cost-rewrite', 'cheat', 'pram.sweep builder (m, n) runs an n^2-work program, then rewrites m.cost.work / profile', 'the sweep reports the machine\'s own counts: n^2 exceeds O(n)', '''
    def builder(m, n):
        a = m.array('a', values=np.arange(n))
        def p(m):
            for r in range(n):
                x, = yield Step(m.processors(n), reads=[Read(a, iota(n))])
        m.run(p(m))
        for f in (lambda: setattr(m.cost, 'work', n), lambda: setattr(m.cost, 'time', n)):
            try: f()
            except Exception: pass
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    if v.startswith('holds'): PASSES('work O(n): ' + v)
    HONEST(v)
    ''', timeout=60)

# ---------------------------------------------------------------- closures, copies, threads: weakest_model and sweep
CREW_PROG = '''
def bcast(m, a, out):
    pid = m.processors(N)
    x, = yield Step(pid, reads=[Read(a, np.zeros(N, dtype=np.int64))])
    yield Step(pid, writes=[Write(out, iota(N), x)])
'''
case('weakest-premade-machine', 'cheat', 'weakest_model(lambda m: pre.run(bcast(pre, ...))): concurrent reads on a machine made before the call',
     'refused (a machine other than the one given is used) or classified CREW', textwrap.indent(CREW_PROG, '    ') + '''
    pre = Machine('crcw-priority'); a = pre.array('a', values=VALS); out = pre.array('o', size=N)
    w = pram.weakest_model(lambda m: pre.run(bcast(pre, a, out)))
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    ''')
case('weakest-copy-machine', 'cheat', 'weakest_model whose program runs on copy.copy(m) / pickle of m', 'refused or CREW', textwrap.indent(CREW_PROG, '    ') + '''
    def p(m):
        m2 = copy.copy(m)
        a = m2.array('a', values=VALS); out = m2.array('o', size=N)
        m2.run(bcast(m2, a, out))
    w = pram.weakest_model(p)
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    ''')
case('weakest-thread-machine', 'cheat', 'weakest_model whose program makes its machine in another thread', 'refused or CREW', textwrap.indent(CREW_PROG, '    ') + '''
    import threading
    def p(m):
        def work():
            m2 = Machine('crcw-priority'); a = m2.array('a', values=VALS); out = m2.array('o', size=N)
            m2.run(bcast(m2, a, out))
        t = threading.Thread(target=work); t.start(); t.join()
    w = pram.weakest_model(p)
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    ''')
case('weakest-observer-read', 'cheat', 'weakest_model program that reads and replaces m.observer before running', 'classified from the machine\'s own record: CREW', textwrap.indent(CREW_PROG, '    ') + '''
    def p(m):
        try: m.observer = None
        except Exception: pass
        a = m.array('a', values=VALS); out = m.array('o', size=N)
        m.run(bcast(m, a, out))
    w = pram.weakest_model(p)
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    ''')
case('weakest-trace-off', 'cheat', 'weakest_model program that sets m.trace / recreates machine state before running', 'CREW', textwrap.indent(CREW_PROG, '    ') + '''
    def p(m):
        for k in ('trace', 'observer', 'model'):
            try: setattr(m, k, None if k != 'model' else 'crcw-priority')
            except Exception: pass
        a = m.array('a', values=VALS); out = m.array('o', size=N)
        m.run(bcast(m, a, out))
    w = pram.weakest_model(p)
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    ''')
QUAD = '''
def quad(m, n):
    a = m.array('a', values=np.arange(n))
    def p(m):
        for r in range(n):
            x, = yield Step(m.processors(n), reads=[Read(a, iota(n))])
    m.run(p(m))
'''
case('sweep-premade-pool', 'cheat', 'pram.sweep builder(n): n^2 work on machines made before the sweep, returns a fresh machine of its last (tiny) phase',
     'refused, or work exceeded O(n)', textwrap.indent(QUAD, '    ') + '''
    pool = [Machine() for _ in range(5)]
    def builder(n):
        quad(pool.pop(), n)
        m = Machine(); b = m.array('b', values=np.arange(n))
        m.run((lambda m: (yield Step(m.processors(n), reads=[Read(b, iota(n))])))(m))
        return m
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    if v.startswith('holds'): PASSES('work O(n): ' + v)
    HONEST(v)
    ''', timeout=60)
case('sweep-premade-m-n', 'cheat', 'pram.sweep builder(m, n) that does its n^2 work on a pre-made machine and a token step on m', 'refused or exceeded', textwrap.indent(QUAD, '    ') + '''
    pool = [Machine() for _ in range(5)]
    def builder(m, n):
        quad(pool.pop(), n)
        b = m.array('b', values=np.arange(n))
        m.run((lambda m: (yield Step(m.processors(n), reads=[Read(b, iota(n))])))(m))
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    if v.startswith('holds'): PASSES('work O(n): ' + v)
    HONEST(v)
    ''', timeout=60)
case('sweep-copy-machine', 'cheat', 'pram.sweep builder(m, n) runs n^2 on copy.copy(m), token step on m', 'refused or exceeded', textwrap.indent(QUAD, '    ') + '''
    def builder(m, n):
        quad(copy.copy(m), n)
        b = m.array('b', values=np.arange(n))
        m.run((lambda m: (yield Step(m.processors(n), reads=[Read(b, iota(n))])))(m))
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    if v.startswith('holds'): PASSES('work O(n): ' + v)
    HONEST(v)
    ''', timeout=60)
case('sweep-thread-machine', 'cheat', 'pram.sweep builder(m, n) runs n^2 in a thread on a machine made there', 'refused or exceeded', textwrap.indent(QUAD, '    ') + '''
    import threading
    def builder(m, n):
        t = threading.Thread(target=lambda: quad(Machine(), n)); t.start(); t.join()
        b = m.array('b', values=np.arange(n))
        m.run((lambda m: (yield Step(m.processors(n), reads=[Read(b, iota(n))])))(m))
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    if v.startswith('holds'): PASSES('work O(n): ' + v)
    HONEST(v)
    ''', timeout=60)
case('thread-reads-sealed', 'cheat', 'a thread started mid-run calls a.to_numpy() and m.cost.work', 'refused in every thread', '''
    import threading
    got = []
    def fn(m, a, x, pid):
        def t():
            for f in (lambda: a.to_numpy(), lambda: a.values, lambda: m.violations):
                try: got.append(f())
                except Exception as e: got.append(type(e).__name__)
        th = threading.Thread(target=t); th.start(); th.join()
        return got
    judge_raw(grab(fn), 'a thread')
    ''')

# ---------------------------------------------------------------- declarations (--module) and batches
SORT_DECL = '''
import numpy as np, pram
from pram import Read, Step, Write, iota
def build(n, rng): return {"values": rng.integers(0, 10**6, n)}
def reference(values): return np.sort(values)
BODY
sorter = pram.Algorithm(name="sorter", build=build, program=program, reference=reference, model="erew",
                        bounds={"work": "n log2(n)", "time": "log2(n)"})
'''
def decl_case(cid, desc, body, expect='refused (exit 2 HonestyError) or counted honestly (time >= log2 n)', extra_args='', kind='cheat'):
    mod = SORT_DECL.replace('BODY', textwrap.dedent(body))
    case(cid, kind, desc, expect, f'''
    import subprocess, json as J
    r = subprocess.run([PRAM, 'run', '--module', 'mod.py', 'sorter', '--n', '64', '--json'] + {extra_args.split()!r}, capture_output=True, text=True, timeout=50)
    try: d = J.loads(r.stdout)
    except Exception: HONEST(f'exit {{r.returncode}}: ' + (r.stderr.strip().splitlines() or [''])[-1][:200])
    if r.returncode == 0 and d.get('correct') and d.get('time', 99) < 6: PASSES(f"correct sort, time {{d.get('time')}}, work {{d.get('work')}}, exit 0")
    HONEST(f"exit {{r.returncode}} correct {{d.get('correct')}} time {{d.get('time')}}: " + ((r.stderr.strip().splitlines() or [''])[-1][:160]) + ' ' + str(d.get('error', ''))[:160])
    ''', files={'mod.py': mod}, timeout=55)

decl_case('decl-np-sort-array', 'declaration program returns np.sort(values) of the Array it is handed', '''
def program(m, values):
    return np.sort(values)
    yield
''')
decl_case('decl-to_numpy', 'declaration program calls values.to_numpy() and loads the sorted copy', '''
def program(m, values):
    s = m.array("s", values=np.sort(values.to_numpy()))
    yield Step(m.processors(1), reads=[Read(s, 0)])
    return s
''')
decl_case('decl-trace-cells_of', 'declaration program reads its input with pram.trace.cells_of and loads it sorted (2 steps)', '''
import pram.trace
def program(m, values):
    n = values.size
    s = m.array("s", values=np.sort(pram.trace.cells_of(values)))
    yield Step(m.processors(1), reads=[Read(s, 0)])
    return s
''')
decl_case('decl-trace-cells_of-writes', 'declaration program: host sorts pram.memory.cells_of(values), n processors write it in 1 step', '''
import pram.memory
def program(m, values):
    n = values.size
    out = m.array("out", n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(pram.memory.cells_of(values)))])
    return out
''')
decl_case('decl-build-guess-seed', 'declaration program calls build itself with seed 0 (documented: the module\'s own Python)', '''
def program(m, values):
    n = values.size
    out = m.array("out", n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(build(n, np.random.default_rng(0))["values"]))])
    return out
''')
decl_case('decl-build-stash', 'build keeps its instance in a global; the program writes it sorted (documented)', '''
STASH = {}
_b = build
def build(n, rng):
    d = _b(n, rng); STASH["v"] = d["values"].copy(); return d
def program(m, values):
    n = values.size
    out = m.array("out", n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(STASH["v"]))])
    return out
''', expect='documented as not caught; listed for completeness')
decl_case('decl-array-values-input', 'declaration program: m.array("s", values=values) with the input Array as values', '''
def program(m, values):
    s = m.array("s", values=values)
    yield Step(m.processors(1), reads=[Read(s, 0)])
    return s
''', expect='refused or a copy of input (not a sort): never a correct sort in <6')
decl_case('decl-instance-call', 'declaration program calls sorter.instance(n, 0) (a redraw of the input)', '''
def program(m, values):
    n = values.size
    out = m.array("out", n)
    d = sorter.instance(n, 0)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(d["values"]))])
    return out
''')
decl_case('decl-return-register', 'declaration program returns a register of sorted?? values (np.sort on register)', '''
def program(m, values):
    n = values.size
    x, = yield Step(m.processors(n), reads=[Read(values, iota(n))])
    return x
''', expect='refused (a register is not an answer)')
decl_case('decl-pickle-input', 'declaration program pickles its input Array, loads the copy and sorts its cells', '''
import pickle
def program(m, values):
    v = pickle.loads(pickle.dumps(values)).to_numpy()
    out = m.array("out", values.size)
    yield Step(m.processors(values.size), writes=[Write(out, iota(values.size), np.sort(v))])
    return out
''')
decl_case('decl-held-put-cells', 'declaration program rewrites its input in place with _held.put_cells(values, sorted) via sys.modules, returns it', '''
import sys
def program(m, values):
    H = sys.modules["pram._held"]
    H.put_cells(values, np.sort(H.cells_of(values)))
    yield Step(m.processors(1), reads=[Read(values, 0)])
    return values
''')
case('decl-sweep-raw', 'cheat', 'pram.sweep of a declaration whose program writes np.sort(pram.trace.cells_of(values)) in one step: O(n) work, O(1) time "holds"',
     'a sort cannot hold O(1) time honestly', SORT_DECL.replace('BODY', '''
import pram.trace
def program(m, values):
    n = values.size
    out = m.array("out", n)
    yield Step(m.processors(n), writes=[Write(out, iota(n), np.sort(pram.trace.cells_of(values)))])
    return out
''') + '''
s = pram.sweep(sorter, [16, 32, 64, 128, 256], bounds={'time': '1'})
if s.ok and s.checks['time'].summary.startswith('holds'): PASSES('sort, time O(1): ' + s.checks['time'].summary)
HONEST(s.checks['time'].summary)
''', timeout=60)

case('batch-row-index', 'cheat', 'Machine(batch=2): `x[0]` in a batched register — another instance\'s value?', 'each instance keeps its own values', '''
    def prog(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        y = hold(pid, x[0])
        yield Step(pid, writes=[Write(a, iota(4), y)])
    v = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    m = Machine('erew', batch=2); a = m.array('a', values=v); m.run(prog(m, a))
    o = a.to_numpy().tolist()
    if o[1][0] != 5 or o[0][0] != 1: PASSES('instances mixed: ' + str(o))
    HONEST(o)
    ''')
case('batch-roll-axis0', 'cheat', 'batched register: np.roll(x, 1, axis=0) / x.T / np.flipud(x) (instances swap values)', 'refused', '''
    def prog(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        for f in (lambda: np.roll(x, 1, axis=0), lambda: x.T, lambda: np.flipud(x), lambda: x[::-1, :]):
            try:
                y = f(); break
            except Exception: y = None
        if y is None: raise HonestyError('all refused')
        yield Step(pid, writes=[Write(a, iota(4), y)])
    v = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    m = Machine('erew', batch=2); a = m.array('a', values=v); m.run(prog(m, a))
    o = a.to_numpy().tolist()
    if o[0] != [1, 2, 3, 4]: PASSES('instances mixed: ' + str(o))
    HONEST(o)
    ''')
case('batch-raw-of', 'cheat', 'batched machine: pram.loop.raw_of(x) in instance code reads every instance\'s values', 'no raw values', '''
    import pram.loop
    box = {}
    def prog(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        box['r'] = pram.loop.raw_of(x)
    v = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    m = Machine('erew', batch=2); a = m.array('a', values=v); m.run(prog(m, a))
    r = box['r']
    if type(r) is np.ndarray and 8 in r: PASSES('instance 1 values visible: ' + repr(r.tolist()))
    HONEST(repr(r))
    ''')
case('batch-cast-warning', 'cheat', 'batch: masked complex-into-real assignment, warnings recorded per instance data', 'same behaviour whatever the data', '''
    def run(v):
        obs = []
        def prog(m, a):
            pid = m.processors(4)
            x, = yield Step(pid, reads=[Read(a, iota(4))])
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter('always')
                f = x * 1.0; z = x * 1.0 + 1j
                try: f[x > 6] = z[x > 6]; obs.append('ok')
                except Exception as e: obs.append(type(e).__name__)
                obs.append(len(w))
        m = Machine('erew', batch=2); a = m.array('a', values=v); m.run(prog(m, a)); return repr(obs)
    judge_leak([run(np.array([[1, 2, 3, 4], [1, 2, 3, 4]])), run(np.array([[1, 2, 3, 4], [5, 6, 7, 8]]))])
    ''')

# ---------------------------------------------------------------- deliberate (gc, ctypes, frames, settrace, observer)
case('dl-gc-referents', 'deliberate', '`gc.get_referents(x)` finds the raw ndarray', 'may pass; `pram lint` must flag it', '''
    import gc
    def fn(m, a, x, pid):
        return [o for o in gc.get_referents(x) if type(o) is np.ndarray]
    judge_raw(grab(fn), 'gc.get_referents')
    ''')
case('dl-gc-objects', 'deliberate', '`gc.get_objects()` scan for an int64 ndarray equal to the input', 'may pass; lint flags', '''
    import gc
    def fn(m, a, x, pid):
        return [o for o in gc.get_objects() if type(o) is np.ndarray and o.shape == VALS.shape and np.array_equal(o, VALS)][:1]
    judge_raw(grab(fn), 'gc.get_objects')
    ''')
case('dl-frames', 'deliberate', '`sys._getframe()` walk of outer frames\' f_locals for the raw values', 'may pass; lint flags', '''
    def fn(m, a, x, pid):
        out = []; f = sys._getframe()
        while f is not None:
            for v in list(f.f_locals.values()):
                if type(v) is np.ndarray: out.append(v)
            f = f.f_back
        return out
    judge_raw(grab(fn), 'frames')
    ''')
case('dl-traceback-frames', 'deliberate', 'catch a HonestyError and walk e.__traceback__ frames\' locals for raw values', 'may pass; lint flags', '''
    def fn(m, a, x, pid):
        out = []
        try: np.sort(x)
        except HonestyError as e:
            tb = e.__traceback__
            while tb is not None:
                out += [v for v in tb.tb_frame.f_locals.values() if type(v) is np.ndarray]; tb = tb.tb_next
        return out
    judge_raw(grab(fn), 'traceback frames')
    ''')
case('dl-settrace', 'deliberate', '`sys.settrace` hook collecting ndarray locals of the engine', 'may pass; lint flags', '''
    got = []
    def tr(frame, event, arg):
        if event == 'return':
            for v in list(frame.f_locals.values()):
                if type(v) is np.ndarray and v.shape == VALS.shape and np.array_equal(v, VALS): got.append(v)
        return tr
    def fn(m, a, x, pid):
        sys.settrace(tr)
        y = x + 0
        sys.settrace(None)
        return got
    judge_raw(grab(fn), 'settrace')
    ''')
case('dl-ctypes', 'deliberate', '`ctypes` read of the array cells through id()/gc (memory of the holder object)', 'may pass; lint flags', '''
    import ctypes, gc
    def fn(m, a, x, pid):
        out = []
        for o in gc.get_referents(a):
            if type(o) is np.ndarray:
                out.append(np.ctypeslib.as_array(ctypes.cast(o.ctypes.data, ctypes.POINTER(ctypes.c_int64)), shape=o.shape).copy())
        return out
    judge_raw(grab(fn), 'ctypes')
    ''')
case('dl-observer', 'deliberate', '`Machine(observer=spy)`: the author\'s observer sees registers mid-run (trusted by design)', 'may pass; lint flags observer=', '''
    seen = []
    class Spy(pram.Observer):
        pass
    for k in [k for k in dir(pram.Observer) if not k.startswith('_')]:
        setattr(Spy, k, lambda self, *a, **kw: seen.append(a))
    m = Machine(observer=Spy()); a = m.array('a', values=VALS)
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        y = x + 1
        yield Step(pid, writes=[Write(a, iota(N), y)])
    m.run(prog(m, a))
    PASSES(f'observer saw {len(seen)} events') if seen else HONEST('no events')
    ''')
case('dl-gen-frame', 'deliberate', 'the program\'s own generator frame: gi_frame.f_back locals during a step', 'may pass; lint flags', '''
    box = {}
    def prog(m, a):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        f = box['g'].gi_frame
        out = []
        f = sys._getframe(1)
        while f is not None:
            out += [v for v in f.f_locals.values() if type(v) is np.ndarray]; f = f.f_back
        box['r'] = out
        yield Step(pid, writes=[Write(a, iota(N), x)])
    m = Machine(); a = m.array('a', values=VALS); g = prog(m, a); box['g'] = g; m.run(g)
    judge_raw(box['r'], 'generator frames')
    ''')

# ---------------------------------------------------------------- honest idioms (exact counts)
IDIOM_PRE = '''
def readall(m, a, n):
    pid = m.processors(n)
    x, = yield Step(pid, reads=[Read(a, iota(n))])
    return pid, x
def run1(body, vals=VALS, model='erew', dtype=None):
    m = Machine(model); a = m.array('a', values=vals, dtype=dtype) if dtype else m.array('a', values=vals)
    n = len(vals)
    out = m.array('o', size=n, dtype=dtype) if dtype else m.array('o', size=n)
    def prog(m):
        pid, x = yield from readall(m, a, n)
        y = body(x, pid)
        yield Step(pid, writes=[Write(out, iota(n), y)])
    m.run(prog(m))
    return out.to_numpy(), m.cost
def check(body, expected, vals=VALS, dtype=None):
    got, c = run1(body, vals, dtype=dtype)
    ok = np.allclose(got, expected) if dtype else got.tolist() == np.asarray(expected).tolist()
    if ok and (c.time, c.work) == (2, 2 * len(vals)) and not np.isnan(np.asarray(got, dtype=float)).any() if not dtype else ok and (c.time, c.work) == (2, 2 * len(vals)):
        GOOD(f'time {c.time} work {c.work}')
    FAIL(f'got {got.tolist()}, expected {np.asarray(expected).tolist()}, time {c.time} work {c.work}')
'''
IDIOMS = [
    ('id-where', 'np.where(x > 45000, 2 * x, x)', 'np.where(VALS > 45000, 2 * VALS, VALS)', None),
    ('id-clip', 'np.clip(x, 20000, 60000)', 'np.clip(VALS, 20000, 60000)', None),
    ('id-inplace', '(lambda y: (y.__iadd__(1), y)[1])(x.copy())', 'VALS + 1', None),
    ('id-choose', 'np.choose(x % 10, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90])', '(VALS % 10) * 10', None),
    ('id-isin-const', 'np.isin(x, [50001, 10003]).astype(np.int64)', 'np.isin(VALS, [50001, 10003]).astype(np.int64)', None),
    ('id-digitize', 'np.digitize(x, [0, 25000, 50000, 75000])', 'np.digitize(VALS, [0, 25000, 50000, 75000])', None),
    ('id-maximum-minimum', 'np.maximum(x, 40000) - np.minimum(x, 40000)', 'np.maximum(VALS, 40000) - np.minimum(VALS, 40000)', None),
    ('id-abs-sign-mod', 'np.abs(x - 50000) * np.sign(x - 50000) + np.remainder(x, 7) + np.floor_divide(x, 3)', 'np.abs(VALS - 50000) * np.sign(VALS - 50000) + np.remainder(VALS, 7) + np.floor_divide(VALS, 3)', None),
    ('id-zeros-full-like', 'np.zeros_like(x) + np.full_like(x, 3) + np.ones_like(x)', 'np.full(8, 4)', None),
    ('id-select', 'np.select([x < 30000, x < 60000], [x, 2 * x], 3 * x)', 'np.select([VALS < 30000, VALS < 60000], [VALS, 2 * VALS], 3 * VALS)', None),
    ('id-float-ops', 'np.round(np.sqrt(x) * 1.5, 3) + np.nan_to_num(x / 0.5) + np.isclose(x, 50001.0)', 'np.round(np.sqrt(VALS * 1.0) * 1.5, 3) + VALS / 0.5 + np.isclose(VALS, 50001.0)', 'float'),
    ('id-astype-copy', 'copy.copy(x).astype(float).astype(np.int64) + x.copy()', '2 * VALS', None),
    ('id-bitwise', '(x & 255) | (x >> 3) ^ (x << 1)', '(VALS & 255) | (VALS >> 3) ^ (VALS << 1)', None),
    ('id-comparisons', '(x > 45000).astype(np.int64) + (x == 50001) * 2 + (x != 3) * 4', '(VALS > 45000).astype(np.int64) + (VALS == 50001) * 2 + (VALS != 3) * 4', None),
    ('id-scalar-proc0', 'np.where(iota(8) == 0, x[0] * 0 + 5, x) if False else x + 0', 'VALS', None),
    ('id-power-const', 'x % 100 ** 2 + np.square(x % 10)', 'VALS % 100 ** 2 + np.square(VALS % 10)', None),
    ('id-hold-own', 'hold(pid, x) + hold(pid, 1)', 'VALS + 1', None),
]
for cid, body, exp, dt in IDIOMS:
    case(cid, 'idiom', f'`{body}` between steps, written back', 'works, answer equals numpy, time 2 work 16', textwrap.indent(IDIOM_PRE, '    ') + f'''
    check(lambda x, pid: {body}, {exp}, vals=VALS if {dt!r} is None else VALS * 1.0, dtype={dt!r})
    ''')
case('id-readme-reverse', 'idiom', 'README reverse / broadcast', 'exactly the README\'s output', '''
    def reverse(m, a, n):
        pid = m.processors(n)
        (x,) = yield Step(pid, reads=[Read(a, iota(n))])
        yield Step(pid, writes=[Write(a, n - 1 - iota(n), x)])
    def bc(m, a, n):
        pid = m.processors(n)
        (x,) = yield Step(pid, reads=[Read(a, np.zeros(n, dtype=np.int64))])
        yield Step(pid, writes=[Write(a, iota(n), x)])
    res = []
    for p in (reverse, bc):
        m = Machine('erew'); a = m.array('a', values=np.arange(8)); m.run(p(m, a, 8))
        res.append((a.to_numpy().tolist(), m.cost.time, m.cost.work, len(m.violations)))
    if res == [([7, 6, 5, 4, 3, 2, 1, 0], 2, 16, 0), ([0] * 8, 2, 16, 1)]: GOOD(res)
    FAIL(res)
    ''')
case('id-chosen-procs', 'idiom', 'honesty page example: hold(pid, pid)[x > 4] acts, counts chosen only', '[4, 3, 7, 1] 2 6', '''
    def program(m, a):
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        y = np.where(x > 4, x - 1, x + 1)
        who = hold(pid, pid)[x > 4]; cell = hold(pid, iota(4))[x > 4]
        yield Step(who, writes=[Write(a, cell, y[x > 4])])
    m = Machine(); a = m.array("a", values=np.array([5, 3, 8, 1])); m.run(program(m, a))
    r = (a.to_numpy().tolist(), m.cost.time, m.cost.work)
    GOOD(r) if r == ([4, 3, 7, 1], 2, 6) else FAIL(r)
    ''')
case('id-tree-sum-batch', 'idiom', 'tree sum single and batched (tutorial): (8, 30) at n=16 for every instance', 'exact counts', '''
    def tree_sum(m, a, n):
        h = 1
        while h < n:
            starts = iota(-(-n // (2 * h))) * 2 * h
            starts = starts[starts + h < n]
            pid = m.processors(len(starts))
            x, y = yield Step(pid, reads=[Read(a, starts), Read(a, starts + h)])
            yield Step(pid, writes=[Write(a, starts, x + y)])
            h *= 2
    m = Machine(); a = m.array('a', values=np.arange(16)); m.run(tree_sum(m, a, 16))
    r1 = (a.to_numpy()[0], m.cost.time, m.cost.work)
    v = np.random.default_rng(7).integers(0, 100, size=(50, 16))
    m = Machine('erew', batch=50); a = m.array('a', values=v); m.run(tree_sum(m, a, 16))
    ok = a.to_numpy()[:, 0].tolist() == v.sum(axis=1).tolist() and {(c.time, c.work) for c in m.costs} == {(8, 30)}
    GOOD(r1) if r1 == (120, 8, 30) and ok else FAIL((r1, ok))
    ''')
case('id-until-loop', 'idiom', 'tutorial find_roots with a one-processor Until (crcw-common): path (4, 16), star 4 steps', 'exact counts', '''
    def find_roots(m, parent, changed):
        n = parent.size; nodes, node = m.processors(n), iota(n); control = m.processors(1); r = 0
        while True:
            (up,) = yield Step(nodes, reads=[Read(parent, node)])
            (grand,) = yield Step(nodes, reads=[Read(parent, up)])
            jumps = grand != up
            yield Step(nodes, writes=[Write(parent, node, grand, where=jumps), Write(changed, r, 1, where=jumps)])
            r += 1
            if (yield Until(changed, r - 1, control, value=0)):
                return r
    res = []
    for ps in ([0, 0, 1, 2, 3, 4, 5, 6], [0] * 8):
        m = Machine('crcw-common'); p = m.array('p', values=np.array(ps)); c = m.array('c', values=np.zeros(8, dtype=np.int64))
        r = m.run(find_roots(m, p, c)); res.append((p.to_numpy().tolist(), r, m.cost.loop_tests, m.cost.time, len(m.violations)))
    exp = [([0] * 8, 4, 4, 16, 0), ([0] * 8, 1, 1, 4, 0)]
    GOOD(res) if res == exp else FAIL(res)
    ''')
case('id-parallel-phase', 'idiom', 'parallel branches and phases (tutorial): time 2 work 10', 'exact counts', '''
    def swap(m, a):
        pid = m.processors(2); i = iota(2)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, 1 - i, x)])
    def dbl(m, a):
        pid, i = m.processors(a.size), iota(a.size)
        (x,) = yield Step(pid, reads=[Read(a, i)])
        yield Step(pid, writes=[Write(a, i, np.where(x > 15, 2 * x, x))])
    m = Machine(); l = m.array('l', values=np.array([1, 2])); r = m.array('r', values=np.array([30, 20, 10]))
    m.run(parallel(phase('s', swap(m, l)), phase('d', dbl(m, r))))
    res = (l.to_numpy().tolist(), r.to_numpy().tolist(), m.cost.time, m.cost.work)
    GOOD(res) if res == ([2, 1], [60, 40, 10], 2, 10) else FAIL(res)
    ''')
case('id-matvec-2d', 'idiom', 'tutorial 2-D matvec on CREW', 'allclose, no violations', '''
    def matvec(m, A, x, y):
        r, c = A.shape; k = iota(r * c); pid = m.processors(r * c)
        a, v = yield Step(pid, reads=[Read(A, (k // c, k % c)), Read(x, k % c)])
        p = m.array("products", shape=(r, c), dtype=float)
        yield Step(pid, writes=[Write(p, (k // c, k % c), a * v)])
        rows, i, total = m.processors(r), iota(r), None
        for j in range(c):
            t, = yield Step(rows, reads=[Read(p, (i, np.full(r, j)))])
            total = t if total is None else total + t
        yield Step(rows, writes=[Write(y, i, total)])
    m = Machine("crew")
    A = m.array("A", values=np.arange(12.0).reshape(3, 4) / 4, dtype=float)
    x = m.array("x", values=[1.0, 2.0, 0.5, -1.0], dtype=float); y = m.array("y", size=3, dtype=float)
    with m.scope(): m.run(matvec(m, A, x, y))
    ok = np.allclose(y.to_numpy(), A.to_numpy() @ x.to_numpy()) and not m.violations and m.cost.time == 7
    GOOD(m.cost.time) if ok else FAIL((m.cost.time, y.to_numpy()))
    ''')
case('id-weakest-crew', 'idiom', 'weakest_model of a broadcast read: CREW', 'CREW', textwrap.indent(CREW_PROG, '    ') + '''
    def p(m):
        a = m.array('a', values=VALS); out = m.array('o', size=N); m.run(bcast(m, a, out))
    w = pram.weakest_model(p)
    GOOD(w.model) if str(w.model).lower() == 'crew' else FAIL(str(w)[:200])
    ''')
case('id-sweep-builder', 'idiom', 'pram.sweep(builder(m, n)) of a linear program: work "holds, tight"', 'holds, tight', '''
    def builder(m, n):
        a = m.array('a', values=np.arange(n)); o = m.array('o', size=n)
        def p(m):
            pid = m.processors(n); x, = yield Step(pid, reads=[Read(a, iota(n))])
            yield Step(pid, writes=[Write(o, iota(n), x + 1)])
        m.run(p(m))
    s = pram.sweep(builder, [16, 32, 64, 128, 256], bounds={'work': 'n'})
    v = s.checks['work'].summary
    GOOD(v) if v == 'holds, tight' else FAIL(v)
    ''', timeout=60)
case('id-decl-cli', 'idiom', 'an honest declaration (copy in 2 steps) via `pram run --module`: correct, exit 0, time 2 work 2n', 'exit 0, time 2', '''
    import subprocess, json as J
    r = subprocess.run([PRAM, 'run', '--module', 'mod.py', 'copier', '--n', '64', '--json'], capture_output=True, text=True, timeout=50)
    try: d = J.loads(r.stdout)
    except Exception: FAIL(f'exit {r.returncode}: {r.stdout[:100]} {r.stderr[-200:]}')
    if r.returncode == 0 and d.get('correct') and d.get('time') == 2 and d.get('work') == 128: GOOD('time 2 work 128')
    FAIL((r.returncode, d.get('correct'), d.get('time'), d.get('work')))
    ''', files={'mod.py': '''
import numpy as np, pram
from pram import Read, Step, Write, iota
def program(m, values):
    n = values.size
    out = m.array("out", n)
    pid = m.processors(n)
    x, = yield Step(pid, reads=[Read(values, iota(n))])
    yield Step(pid, writes=[Write(out, iota(n), x * 2)])
    return out
copier = pram.Algorithm(name="copier", build=lambda n, rng: {"values": rng.integers(0, 1000, n)}, program=program,
                        reference=lambda values: values * 2, bounds={"work": "n", "time": "1"})
'''}, timeout=55)
case('id-modular', 'idiom', 'pram.modular lets int64 wrap; counts unchanged', 'wrapped values, time 2 work 16', textwrap.indent(IDIOM_PRE, '    ') + '''
    m = Machine(); a = m.array('a', values=VALS); o = m.array('o', size=8)
    def prog(m):
        pid, x = yield from readall(m, a, 8)
        yield Step(pid, writes=[Write(o, iota(8), x * (2 ** 62))])
    m.run(pram.modular(prog(m)))
    exp = (VALS * (2 ** 62)).tolist()
    GOOD('ok') if o.to_numpy().tolist() == exp and (m.cost.time, m.cost.work) == (2, 16) else FAIL(o.to_numpy().tolist())
    ''')
case('id-masked-same-dtype', 'idiom', '`y[x > t] = z[x > t]` with same dtype, y written back', 'exact', textwrap.indent(IDIOM_PRE, '    ') + '''
    def body(x, pid):
        y = x.copy(); z = x * 3
        y[x > 45000] = z[x > 45000]
        return y
    check(body, np.where(VALS > 45000, VALS * 3, VALS))
    ''')


case('id-masked-inplace', 'idiom', '`y = x.copy(); y[y > t] += 1` (the doc\'s x[x > 4] += 1)', 'exact', textwrap.indent(IDIOM_PRE, '    ') + """
    def body(x, pid):
        y = x.copy()
        y[y > 45000] += 1
        return y
    check(body, np.where(VALS > 45000, VALS + 1, VALS))
    """)
case('id-real-of-complex', 'idiom', '`f[x > t] = np.real(z[x > t])` (the doc\'s fix for complex into real)', 'exact', textwrap.indent(IDIOM_PRE, '    ') + """
    def body(x, pid):
        f = x * 1.0
        z = x * 1.0 + 1j
        f[x > 45000] = np.real(z[x > 45000])
        return f
    check(body, VALS * 1.0, vals=VALS * 1.0, dtype='float')
    """)
case('id-or-crcw', 'idiom', 'OR of n bits by a CRCW-common write of 1 (where=x), read by one processor: 3 steps', 'correct, time 3, no violation', """
    def prog(m, a, f):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(f, np.zeros(N, dtype=np.int64), 1, where=x > 75000)])
        return (yield Until(f, 0, m.processors(1)))
    m = Machine('crcw-common'); a = m.array('a', values=VALS); f = m.array('f', values=[0]); r = m.run(prog(m, a, f))
    GOOD((r, m.cost.time)) if r is True and m.cost.time == 3 and not m.violations else FAIL((r, m.cost.time, len(m.violations)))
    """)
case('or-erew-concurrent-write', 'cheat', 'the same OR by concurrent writes on an EREW machine', 'EREW flags the concurrent writes', """
    def prog(m, a, f):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(f, np.zeros(N, dtype=np.int64), 1, where=x > 25000)])
        return (yield Until(f, 0, m.processors(1)))
    m = Machine('erew'); a = m.array('a', values=VALS); f = m.array('f', values=[0]); r = m.run(prog(m, a, f))
    if r is True and not m.violations: PASSES(f'OR on EREW in {m.cost.time} steps, no violation')
    HONEST(len(m.violations))
    """)
for cid, route in [('lint-vars-module', "vars(pram.trace)['cel' + 'ls_of']"), ('lint-getattr-module', "getattr(pram.memory, 'cells' + '_of')"),
                   ('lint-alias-import', "__import__('pram.engine.fast', fromlist=['x']).words_of")]:
    case(cid, 'cheat', f'`{route}` (name hidden from a source reader) mid-run', 'no raw values (lint cannot see this name)', f"""
    import pram.trace, pram.memory
    f = {route}
    r = grab(lambda m, a, x, pid: [f(a) if 'words' not in {route!r} else f(x)][0])
    judge_raw(r, {route!r})
    """)
for cid, how in [('weakest-premade-token', 'pre'), ('weakest-copy-token', 'copy'), ('weakest-thread-token', 'thread')]:
    case(cid, 'cheat', f'weakest_model: concurrent reads on a {how} machine, plus a token EREW-clean run on the given machine', 'refused, or CREW', textwrap.indent(CREW_PROG, '    ') + f"""
    import threading
    pre = Machine('crcw-priority')
    def p(m):
        if {how!r} == 'pre': m2 = pre
        elif {how!r} == 'copy': m2 = copy.copy(m)
        if {how!r} == 'thread':
            def w():
                m3 = Machine('crcw-priority'); a = m3.array('a', values=VALS); o = m3.array('o', size=N); m3.run(bcast(m3, a, o))
            t = threading.Thread(target=w); t.start(); t.join()
        else:
            a = m2.array('a', values=VALS); o = m2.array('o', size=N); m2.run(bcast(m2, a, o))
        b = m.array('b', values=VALS)
        m.run((lambda m: (yield Step(m.processors(N), reads=[Read(b, iota(N))])))(m))
    w = pram.weakest_model(p)
    s = str(getattr(w, 'model', w))
    if s.lower() == 'erew': PASSES('classified EREW: ' + str(w)[:120])
    HONEST('classified ' + s)
    """)
MORE_REG = [
    ('reg-concatenate', 'np.concatenate([x, x])'), ('reg-pad', 'np.pad(x, 1)'), ('reg-reshape', 'x.reshape(2, 4)'),
    ('reg-diff', 'np.diff(x)'), ('reg-partition', 'np.partition(x, 3)'), ('reg-median', 'np.median(x)'),
    ('reg-bincount', 'np.bincount(x % 8)'), ('reg-interp-xp', 'np.interp(x, x, x)'), ('reg-searchsorted-table', 'np.searchsorted(x, 50000)'),
    ('reg-isin-register', 'np.isin(x, x[::-1])'), ('reg-digitize-register', 'np.digitize(x, x)'),
    ('reg-where-foreign', 'np.where(x > 1, x[::-1], 0)'), ('reg-clip-foreign', 'np.clip(x, x[::-1], None)'),
    ('reg-choose-foreign', 'np.choose(x % 2, [x, x[::-1]])'), ('reg-select-foreign', 'np.select([x > 45000], [x[::-1]], 0)'),
    ('reg-ma', 'np.ma.masked_array(x).max()'), ('reg-linalg-norm', 'np.linalg.norm(x)'), ('reg-polyval', 'np.polyval(x, 2)'),
    ('reg-class-array', 'type(x).__array__(x)'), ('reg-pram-numpy', 'pram._numpy.asarray(x)'),
    ('reg-ndarray-tolist', 'np.ndarray.tolist(x)'), ('reg-tile', 'np.tile(x, 2)'), ('reg-sum-builtin', 'sum(x)'),
    ('reg-maximum-accumulate', 'np.maximum.accumulate(x)'), ('reg-sort-method', 'x.sort()'),
    ('arr-property-fget', 'type(a).values.fget(a)'), ('arr-class-to_numpy', 'pram.Array.to_numpy(a)'),
    ('arr-getstate', 'a.__getstate__()'), ('arr-vars', 'vars(a)'),
]
for cid, expr in MORE_REG:
    obj = 'a' if cid.startswith('arr') else 'x'
    case(cid, 'cheat', f'`{expr}` mid-run', 'HonestyError or no raw values / no cross-processor result', f"""
    def fn(m, a, x, pid):
        return {expr}
    r = grab(fn)
    def anyraw(v, d=0):
        if israw(v): return True
        if type(v) is np.ndarray and v.dtype != object and v.size: return True
        if isinstance(v, (int, float, np.generic)) and not isinstance(v, bool): return True
        if d < 2 and isinstance(v, dict): return any(anyraw(e, d + 1) for e in v.values())
        if d < 2 and isinstance(v, (list, tuple)): return any(anyraw(e, d + 1) for e in v)
        return False
    if anyraw(r): PASSES('host data: ' + repr(r)[:120])
    if type(r).__name__ == 'Register':
        # a register: did values move between processors? write it back and compare
        pass
    HONEST(type(r).__name__ + ' ' + repr(r)[:80])
    """)


for cid, route, obj in [('lint-pydoc-locate', "__import__('pydoc').locate('pram.trace.cells_of')", 'a'),
                        ('lint-pkgutil-resolve', "__import__('pkgutil').resolve_name('pram.memory:cells_of')", 'a'),
                        ('lint-attrgetter-module', "__import__('operator').attrgetter('engine.fast.words_of')(pram)", 'x'),
                        ('lint-from-import-words', None, 'x')]:
    if route is None:
        body = "from pram.engine.fast import words_of as f\n"
    else:
        body = f"f = {route}\n"
    case(cid, 'cheat', f'`{route or "from pram.engine.fast import words_of"}` then f({obj}) mid-run', 'no raw values', body + f"""
judge_raw(grab(lambda m, a, x, pid: f({obj})), {cid!r})
""")
case('lint-pydoc-plain', 'cheat', '`import pydoc; pydoc.locate("pram.loop.raw_of")(x)` written plainly (no __import__)', 'no raw values', """
import pydoc
f = pydoc.locate('pram.loop.raw_of')
judge_raw(grab(lambda m, a, x, pid: f(x)), 'pydoc.locate')
""")


case('exc-conflict-caught', 'cheat', 'mode="raise": the program catches the ConflictError of a data-indexed read and goes on ("has duplicates?" in one step)',
     'the error ends the run outside the program; nothing caught inside', """
def fn(m, a, x, pid, obs):
    try:
        yield Step(pid, reads=[Read(a, x % 8)])
        obs.append('no conflict')
    except Exception as e:
        obs.append(type(e).__name__)
    yield Step(pid[:1], reads=[Read(a, 0)])
outs = []
for v in (np.arange(8) * 9 + 16, np.zeros(8, dtype=np.int64) + 16):
    try: outs.append(leak(fn, [v], mode='raise')[0])
    except Exception as e: outs.append('run failed: ' + type(e).__name__)
if any(o.startswith('run failed') for o in outs): HONEST(outs)
judge_leak(outs)
""")
case('exc-undefined-caught', 'cheat', 'strict machine: the program catches the UndefinedReadError of a data-indexed read (OR of "some index hits an undefined cell")',
     'the error ends the run outside the program', """
def run(vals):
    obs = []
    def prog(m, a, b):
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        try:
            yield Step(pid, reads=[Read(b, x % 16)]); obs.append('defined')
        except Exception as e: obs.append(type(e).__name__)
        yield Step(pid[:1], reads=[Read(a, 0)])
    m = Machine(); a = m.array('a', values=vals); b = m.array('b', size=16)
    try: m.run(prog(m, a, b))
    except Exception as e: return 'run failed: ' + type(e).__name__
    return repr(obs)
outs = [run(np.arange(8)), run(np.arange(8) + 8)]
if any(o.startswith('run failed') for o in outs): HONEST(outs)
judge_leak(outs)
""")
case('exc-address-caught', 'cheat', 'the program catches an AddressError of a data-indexed read (OR of "some x >= n")', 'the error ends the run outside the program', """
def fn(m, a, x, pid, obs):
    try:
        yield Step(pid, reads=[Read(a, x % 100)]); obs.append('in range')
    except Exception as e: obs.append(type(e).__name__)
    yield Step(pid[:1], reads=[Read(a, 0)])
outs = []
for v in (np.arange(8), np.arange(8) + 50):
    try: outs.append(leak(fn, [v])[0])
    except Exception as e: outs.append('run failed: ' + type(e).__name__)
if any(o.startswith('run failed') for o in outs): HONEST(outs)
judge_leak(outs)
""")

# ======================================================================== driver
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--python', default=sys.executable if 'VIRTUAL_ENV' in os.environ else shutil.which('python') or sys.executable)
    ap.add_argument('--pram', default=shutil.which('pram') or 'pram')
    ap.add_argument('--only', default='')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--no-lint', action='store_true')
    ap.add_argument('--out', default='')
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    root = tempfile.mkdtemp(prefix='pram-cheats-')
    runner = os.path.join(root, 'runner.py')
    open(runner, 'w').write(RUNNER)
    only = set(filter(None, args.only.split(',')))
    cases = [c for c in CASES if not only or c['id'] in only]
    ids = [c['id'] for c in cases]
    assert len(ids) == len(set(ids)), 'duplicate ids'

    def prepare(c):
        d = os.path.join(root, c['id']); os.makedirs(d)
        src = HEADER + f'\nPRAM = {args.pram!r}\n' + c['code']
        path = os.path.join(d, 'case.py'); open(path, 'w').write(src)
        for name, text in c['files'].items():
            open(os.path.join(d, name), 'w').write(text)
        lintfile = os.path.join(d, 'mod.py') if 'mod.py' in c['files'] else os.path.join(d, 'body.py')
        if 'mod.py' not in c['files']:
            open(lintfile, 'w').write('import numpy as np, pram, sys, copy, pickle, os, warnings\n' + c['code'])
        return path, lintfile

    t0 = time.time()
    paths = {c['id']: prepare(c) for c in cases}
    listfile = os.path.join(root, 'todo.txt')
    # slow cases first
    order = sorted(cases, key=lambda c: -c['timeout'])
    open(listfile, 'w').write(''.join(f"{paths[c['id']][0]}\t{c['timeout']}\n" for c in order))
    fr = os.path.join(root, 'forkrunner.py')
    open(fr, 'w').write(f'RUNNER_PATH = {runner!r}\n' + FORKRUNNER)
    subprocess.run([args.python, fr, listfile, str(args.jobs)], env=dict(os.environ, MPLBACKEND='Agg'), timeout=600)
    lint_out = ''
    if not args.no_lint:
        files = [paths[c['id']][1] for c in cases]
        try:
            lp = subprocess.run([args.pram, 'lint'] + files, capture_output=True, text=True, timeout=120)
            lint_out = lp.stdout + lp.stderr
        except subprocess.TimeoutExpired:
            lint_out = None
    results = []
    for c in cases:
        path, lintfile = paths[c['id']]
        text = open(os.path.join(os.path.dirname(path), 'out.txt'), errors='replace').read() if os.path.exists(os.path.join(os.path.dirname(path), 'out.txt')) else ''
        lines = [l for l in text.splitlines() if l.startswith('RESULT ')]
        res = json.loads(lines[-1][7:]) if lines else {'outcome': 'noresult', 'why': text[-300:]}
        o = res['outcome']
        if c['kind'] == 'idiom':
            verdict = 'ok' if o == 'good' else ('BAD' if o in ('refused', 'fail') else 'ERR')
        else:
            verdict = 'PASSES' if o == 'PASSES' else ('ok' if o in ('honest', 'refused') else 'ERR')
        lint = None
        if lint_out is not None and not args.no_lint:
            found = [l for l in lint_out.splitlines() if l.startswith(lintfile + ':')]
            lint = {'flagged': bool(found), 'out': ' | '.join(l[len(os.path.dirname(lintfile)) + 1:] for l in found)[:300]}
        results.append(dict(id=c['id'], kind=c['kind'], desc=c['desc'], expect=c['expect'], verdict=verdict, outcome=o,
                            why=res.get('why', ''), lint=lint))
    for r in results:
        lint = '' if r['lint'] is None or (r['kind'] == 'cheat' and r['verdict'] == 'ok') else (' [lint: flagged]' if r['lint']['flagged'] else ' [lint: NOT flagged]')
        print(f"{r['id']:34s} {r['kind']:10s} {r['verdict']:6s} {r['outcome']:8s} {r['why'][:150]}{lint}")
    def count(kind, verdict): return sum(1 for r in results if r['kind'] == kind and r['verdict'] == verdict)
    summary = {k: {v: count(k, v) for v in ('ok', 'PASSES', 'BAD', 'ERR')} for k in ('cheat', 'deliberate', 'idiom')}
    summary['deliberate_passing_unflagged'] = [r['id'] for r in results if r['kind'] == 'deliberate' and r['verdict'] == 'PASSES' and not (r['lint'] or {}).get('flagged')]
    summary['idioms_flagged_by_lint'] = [r['id'] for r in results if r['kind'] == 'idiom' and (r['lint'] or {}).get('flagged')]
    summary['seconds'] = round(time.time() - t0, 1)
    print('\nCOUNTS', json.dumps(summary))
    if args.out:
        json.dump({'python': args.python, 'pram': args.pram, 'summary': summary, 'results': results},
                  open(args.out, 'w'), indent=1)
    shutil.rmtree(root, ignore_errors=True)

if __name__ == '__main__':
    main()
