#!/usr/bin/env python3
"""Honesty battery ("cheats"), written from the README, the docs and the public API by a tester
who had not seen the code or the tests: run it with  python tests/cheats/api.py
(tests/test_cheats.py runs it and holds its verdicts)."""
import glob, importlib, os, re, signal, subprocess, sys, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.chdir(os.path.dirname(os.path.abspath(__file__)))
warnings.filterwarnings("ignore")
from harness import *
import registers, declarations, during_runs, idioms

HERE = os.path.dirname(os.path.abspath(__file__))
for path in sorted(glob.glob(os.path.join(HERE, "deliberate", "D*.py"))):
    name = os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    CASES.append(("deliberate", name, mod.TITLE, mod.run))

# lint every deliberate file once; collect flagged file names
lint = subprocess.run([sys.executable, "-c", "from pram.reports.cli import main; main()", "lint",
                       os.path.join(HERE, "deliberate")], timeout=120,
                      capture_output=True, text=True)
lint_out = lint.stdout + lint.stderr
def linted(cid):
    lines = [l for l in lint_out.splitlines() if f"{cid}.py" in l]
    return lines

class Timeout(Exception): pass
def _alarm(*a): raise Timeout()
signal.signal(signal.SIGALRM, _alarm)

def attempt(fn, vals):
    signal.alarm(30)
    try:
        r = fn(vals.copy()); return ("ran", r)
    except Timeout:
        return ("timeout", None)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt): raise
        return ("refused", e)
    finally:
        signal.alarm(0)

def norm(e):
    return re.sub(r"cheatsort\d+", "cheatsort", f"{type(e).__name__}: {e}")

results = []
only = sys.argv[1:]
for cat, cid, title, fn in CASES:
    if only and cid not in only: continue
    ra, rb = attempt(fn, A), attempt(fn, B)
    note = ""
    if cat == "honest":
        if ra[0] == "ran" and rb[0] == "ran" and ra[1][0] and rb[1][0]:
            st = "PASS"; note = "not refused, exact: " + ra[1][1][:100]
        elif ra[0] == "refused" or rb[0] == "refused":
            e = ra[1] if ra[0] == "refused" else rb[1]
            st = "BAD"; note = "honest idiom refused: " + norm(e)[:200]
        elif ra[0] == "timeout" or rb[0] == "timeout":
            st = "BAD"; note = "timeout 30s"
        else:
            st = "BAD"; note = "wrong answer or count: " + (ra[1][1] if not ra[1][0] else rb[1][1])[:200]
    else:
        if ra[0] == "timeout" or rb[0] == "timeout":
            st, note = "BAD", "hang (timeout 30s)"
        elif ra[0] == "refused" and rb[0] == "refused":
            ma, mb = norm(ra[1]), norm(rb[1])
            if ma != mb:
                st, note = "BAD", f"refused, but the refusal depends on the data: A: {ma[:150]} | B: {mb[:150]}"
            else:
                st, note = "PASS", "refused: " + ma[:160]
        elif ra[0] == "ran" and rb[0] == "ran":
            la, lb = ra[1][0], rb[1][0]
            if la is None:   # judged by comparing what the program saw on the two inputs
                st = "BAD" if ra[1][1] != rb[1][1] else "PASS"
                note = ("program saw data-dependent text: " if st == "BAD" else "learned nothing: ") + f"A {str(ra[1][1])[:150]} | B {str(rb[1][1])[:150]}"
            elif la or lb:
                st, note = "BAD", "not refused, it worked: " + (ra[1][1] if la else rb[1][1])[:220]
            else:
                st, note = "PASS", "ran, learned nothing: " + ra[1][1][:160]
        else:
            st = "BAD"
            r, e = (ra, rb) if ra[0] == "ran" else (rb, ra)
            note = f"refused on one input only (leaks by refusal): {norm(e[1])[:150]}; other: {str(r[1])[:100]}"
    if cat == "deliberate":
        ll = linted(cid)
        note += f" || lint: {'FLAGGED (' + str(len(ll)) + ' findings)' if ll else 'NOT flagged'}"
    results.append((cat, cid, st, title, note))
    print(f"{cid:5s} {cat:10s} {st:4s} {title} :: {note}", flush=True)

print()
for cat in ("plausible", "deliberate", "honest"):
    rs = [r for r in results if r[0] == cat]
    bad = [r[1] for r in rs if r[2] == "BAD"]
    print(f"{cat}: {len(rs)} cases, {len(bad)} BAD {bad}")
bad_del = [r for r in results if r[0] == "deliberate" and r[2] == "BAD"]
print("deliberate BAD and not flagged by lint:", [r[1] for r in bad_del if "NOT flagged" in r[4]])
