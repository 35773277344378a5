// The step-through page of a pram trace (reports/trace_page.py inlines this file).
"use strict";
const T = JSON.parse(document.getElementById("trace-data").textContent);
const WHOLE = T.whole;  // arrays longer than this are summarised
function unpack(x) {
  if (x === null || x === undefined) return x;
  if (Array.isArray(x)) return x;
  if (x.a) { const [s, d, n] = x.a; const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = s + d * i; return out; }
  return x.s;
}
for (const a of T.arrays) { a.values = unpack(a.values); a.defined = unpack(a.defined); }
for (const s of T.steps) {
  s.processors = unpack(s.processors);
  for (const p of s.accesses) for (const k of ["processors", "cells", "values", "before", "after", "defined"])
    if (k in p) p[k] = unpack(p[k]);
}
// A value an access found (read, or before a write): undefined cells shown as such, never as 0.
const UNDEFINED = "\u00b7";
function found(p, i, value) { return p.defined && !p.defined[i] ? UNDEFINED : value; }
const N = T.steps.length;
const $ = (id) => document.getElementById(id);
const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
function listing(items) { return items.join(", "); }
// Columns of each two-dimensional array (0 for a flat one): its cells are named by pair,
// T[0, 1], as the terminal trace and the conflict report name them (cells row-major).
const COLUMNS = {};
for (const a of T.arrays) COLUMNS[a.name] = a.shape && a.shape.length === 2 ? a.shape[1] : 0;
function pair(name, i) {
  const c = COLUMNS[name];
  return c ? Math.floor(i / c) + ", " + (i % c) : String(i);
}
function cellName(name, i) { return name + "[" + pair(name, i) + "]"; }
// A breakpoint's key ("T[4]", by flat index) as the cell is named; a name typed as a pair
// ("T[1, 1]") or by flat index as the key.
function keyName(key) {
  const m = /^(.+)\[(\d+)\]$/.exec(key);
  return m ? cellName(m[1], Number(m[2])) : key;
}
function keyOf(typed) {
  const v = typed.replace(/\s+/g, "");
  let m = /^(.+)\[(\d+),(\d+)\]$/.exec(v);
  if (m && COLUMNS[m[1]]) return m[1] + "[" + (Number(m[2]) * COLUMNS[m[1]] + Number(m[3])) + "]";
  m = /^(.+)\[(\d+)\]$/.exec(v);
  return m ? v : null;
}
// Depths (pram trace --depth): every version of every cell, listed by cell in the order made.
const D = T.depths;
const VERSIONS = new Map();
let LARGEST = 0, chosen = null, onChain = new Set(), shownStep = 0;
if (D) {
  for (const k of ["cell", "step", "depth", "before"]) D[k] = unpack(D[k]);
  for (let v = 0; v < D.cell.length; v++) {
    const key = D.array[v] + "[" + D.cell[v] + "]";
    if (!VERSIONS.has(key)) VERSIONS.set(key, []);
    VERSIONS.get(key).push(v);
    LARGEST = Math.max(LARGEST, D.depth[v]);
  }
}
// The version of cell "array[index]" as of step number s (its last made at or before s), or -1.
function versionAt(key, s) {
  let found = -1;
  for (const v of VERSIONS.get(key) || []) { if (D.step[v] > s) break; found = v; }
  return found;
}
function depthHTML(key) {
  const v = versionAt(key, shownStep), depth = v < 0 ? 0 : D.depth[v];
  const light = 92 - 62 * depth / Math.max(1, LARGEST);
  return {depth: depth, chain: v >= 0 && onChain.has(v),
    style: "border-bottom:4px solid hsl(220,70%," + light.toFixed(0) + "%)"};
}
function renderChain() {
  if (!D) { $("chain").innerHTML = ""; return; }
  if (chosen === null) { $("chain").innerHTML = '<span class="gap">click a cell to draw its critical chain</span>'; return; }
  const links = [];
  for (let v = chosen.version; v >= 0; v = D.before[v]) links.push(v);
  const rows = links.map((v) => '<div class="link" data-array="' + esc(D.array[v]) + '" data-index="' + D.cell[v] +
    '" data-step="' + D.step[v] + '" data-depth="' + D.depth[v] + '">' + esc(cellName(D.array[v], D.cell[v])) +
    " depth " + D.depth[v] + (D.step[v] ? ", written at step " + D.step[v] + " (" + esc(T.steps.find((s) => s.number === D.step[v]).phase) + ")" : ", an input") +
    "</div>");
  $("chain").innerHTML = "<h2>critical chain of " + esc(chosen.name) + " as of step " + chosen.step + "</h2>" +
    (rows.length ? rows.join("") : '<span class="gap">never written nor read: an input of depth 0</span>');
}
let current = 1;
const zoomed = new Set();
const phaseBreaks = new Set(), cellBreaks = new Set();

// Memory after step k (0: before the first), replayed from the snapshots, with checkpoints.
const checkpoints = new Map();
function initialMemory() {
  const mem = {};
  for (const a of T.arrays) mem[a.name] = {v: a.values.slice(),
    d: a.defined ? a.defined.map((x) => x === 1) : null};
  return mem;
}
function copyMemory(mem) {
  const out = {};
  for (const k in mem) out[k] = {v: mem[k].v.slice(), d: mem[k].d ? mem[k].d.slice() : null};
  return out;
}
function apply(mem, step) {
  for (const p of step.accesses) if (p.kind === "write") {
    const m = mem[p.array];
    for (let i = 0; i < p.cells.length; i++) { m.v[p.cells[i]] = p.after[i]; if (m.d) m.d[p.cells[i]] = true; }
  }
}
function memoryAfter(k) {
  let base = 0, mem = null;
  for (let c = Math.floor(k / 32) * 32; c > 0; c -= 32) if (checkpoints.has(c)) { base = c; break; }
  mem = base ? copyMemory(checkpoints.get(base)) : initialMemory();
  for (let j = base + 1; j <= k; j++) {
    apply(mem, T.steps[j - 1]);
    if (j % 32 === 0 && !checkpoints.has(j)) checkpoints.set(j, copyMemory(mem));
  }
  return mem;
}

// What step k touched, by "array[index]".
function touched(step) {
  const map = new Map();
  for (const p of step.accesses) for (let i = 0; i < p.cells.length; i++) {
    const key = p.array + "[" + p.cells[i] + "]";
    let t = map.get(key);
    if (!t) { t = {array: p.array, index: p.cells[i], read: [], write: [], wrote: [], before: null, after: null, seen: null};
      map.set(key, t); }
    if (p.kind === "read") { t.read.push(p.processors[i]); t.seen = found(p, i, p.values[i]); }
    else { t.write.push(p.processors[i]); t.wrote.push(p.values[i]); t.before = found(p, i, p.before[i]); t.after = p.after[i]; }
  }
  for (const c of step.conflicts) {
    const t = map.get(c.array + "[" + c.index + "]");
    if (t) t.conflict = c;
  }
  return map;
}
function alive(a, k) { return a.since < k && (a.freed === null || a.freed >= k); }

function cellHTML(name, i, mem, hit) {
  const m = mem[name];
  const defined = !m.d || m.d[i];
  const value = defined ? m.v[i] : "\u00b7";
  let cls = "cell", extra = "", title = cellName(name, i) + " = " + value;
  let attrs = ' data-array="' + esc(name) + '" data-index="' + i + '" data-cell="' + esc(cellName(name, i)) +
    '" data-value="' + esc(value) + '"';
  if (hit) {
    const who = [];
    if (hit.read.length) { cls += " read"; who.push("read by " + listing(hit.read)); }
    if (hit.write.length) { cls += " write"; who.push("written by " + listing(hit.write) + " (" + listing(hit.wrote) + ")");
      extra = '<span class="b">' + esc(hit.before) + "</span>";
      attrs += ' data-before="' + esc(hit.before) + '"'; }
    if (hit.conflict) { cls += " conflict"; who.push(hit.conflict.message); }
    const procs = hit.read.concat(hit.write);
    attrs += ' data-processors="' + procs.join(",") + '"';
    title += "; " + who.join("; ");
    extra += '<span class="p">p' + esc(procs.slice(0, 4).join(",")) + (procs.length > 4 ? ",\u2026" : "") + "</span>";
  }
  if (cellBreaks.has(name + "[" + i + "]")) cls += " bp";
  if (D) {
    const d = depthHTML(name + "[" + i + "]");
    attrs += ' data-depth="' + d.depth + '" style="' + d.style + '"';
    title += "; depth " + d.depth;
    if (d.chain) cls += " chain";
  }
  return '<div class="' + cls + '"' + attrs + ' title="' + esc(title) + '"><span class="i">' + esc(pair(name, i)) +
    '</span><span class="v">' + esc(value) + "</span>" + extra + "</div>";
}

function segments(a, hits) {
  // Which cells of a long array to show: the first and last few, and the region touched.
  if (a.size <= WHOLE) return [[0, a.size - 1]];
  const idx = hits.map((h) => h.index);
  const parts = [[0, 7], [a.size - 8, a.size - 1]];
  if (idx.length) {
    const lo = Math.min(...idx), hi = Math.max(...idx);
    const top = zoomed.has(a.name) ? Math.min(hi, lo + 4095) : Math.min(hi, lo + 47);
    parts.push([lo, top]);
  }
  parts.sort((x, y) => x[0] - y[0]);
  const merged = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (last && p[0] <= last[1] + 1) last[1] = Math.max(last[1], p[1]); else merged.push(p.slice());
  }
  return merged;
}

function renderMemory(k, step, map) {
  const mem = memoryAfter(k);
  const byArray = new Map();
  for (const t of map.values()) { if (!byArray.has(t.array)) byArray.set(t.array, []); byArray.get(t.array).push(t); }
  const out = [];
  for (const a of T.arrays) {
    if (!alive(a, k)) continue;
    const hits = byArray.get(a.name) || [];
    if ($("only-touched").checked && !hits.length) continue;
    let row = "";
    let prev = -1;
    const segs = segments(a, hits);
    for (const [lo, hi] of segs) {
      if (lo > prev + 1) row += '<span class="gap">\u2026 ' + (lo - prev - 1) + " cells \u2026</span>";
      for (let i = lo; i <= hi; i++) {
        if (COLUMNS[a.name] && i > lo && i % COLUMNS[a.name] === 0) row += '<span class="grid-break"></span>';
        row += cellHTML(a.name, i, mem, map.get(a.name + "[" + i + "]"));
      }
      prev = hi;
    }
    if (prev < a.size - 1) row += '<span class="gap">\u2026 ' + (a.size - 1 - prev) + " cells \u2026</span>";
    let zoom = "";
    if (a.size > WHOLE && hits.length) {
      const lo = Math.min(...hits.map((h) => h.index)), hi = Math.max(...hits.map((h) => h.index));
      zoom = ' <button class="zoom" data-zoom="' + esc(a.name) + '">' +
        (zoomed.has(a.name) ? "summarise" : "zoom to the touched region [" + pair(a.name, lo) + " .. " +
          pair(a.name, hi) + "]") + "</button>";
    }
    out.push('<div class="array" data-name="' + esc(a.name) + '"><span class="name">' + esc(a.name) +
      '</span> <span class="size">' + a.size + " cells" + (hits.length ? ", " + hits.length + " touched" : "") +
      "</span>" + zoom + '<div class="row' + (zoomed.has(a.name) ? " scroll" : "") + '">' + row + "</div></div>");
  }
  $("memory").innerHTML = out.join("");
}

function renderConflicts(step) {
  if (!step.conflicts.length) { $("conflicts").innerHTML = ""; return; }
  $("conflicts").innerHTML = "<h2>conflicts of step " + step.number + "</h2>" + step.conflicts.map((c) =>
    '<div class="conflict-item" data-array="' + esc(c.array) + '" data-index="' + c.index + '">' + esc(c.message) +
    " <br>&nbsp;&nbsp;" + esc(c.kind) + " at " + esc(cellName(c.array, c.index)) + ", processors " +
    '<span class="who">' + esc(listing(c.processors)) + "</span></div>").join("");
}

function renderProcessor(k) {
  const raw = $("pid").value;
  if (raw === "") { $("proc-view").innerHTML = '<span class="gap">give a processor id to see what it read, wrote and held at each step</span>'; return; }
  const pid = Number(raw);
  const rows = [];
  let held = [];
  for (const s of T.steps) {
    const reads = [], writes = [];
    let acted = s.processors.indexOf(pid) >= 0;
    for (const p of s.accesses) {
      const i = p.processors.indexOf(pid);
      if (i < 0) continue;
      if (p.kind === "read") reads.push(cellName(p.array, p.cells[i]) + " = " + found(p, i, p.values[i]));
      else writes.push(cellName(p.array, p.cells[i]) + " \u2190 " + p.values[i] + " (was " + (found(p, i, p.before[i]) === UNDEFINED ? "undefined" : p.before[i]) + (p.after[i] !== p.values[i] ? ", now " + p.after[i] : "") + ")");
    }
    if (reads.length) held = s.accesses.filter((p) => p.kind === "read" && p.processors.indexOf(pid) >= 0).map((p) => found(p, p.processors.indexOf(pid), p.values[p.processors.indexOf(pid)]));
    if (!acted) continue;
    rows.push('<tr class="' + (s.number === k ? "current" : "") + '" data-step="' + s.number + '"><td>' + s.number +
      "</td><td>" + esc(s.phase) + "</td><td>" + esc(reads.join("; ")) + "</td><td>" + esc(writes.join("; ")) +
      "</td><td>" + esc(held.join(", ")) + "</td></tr>");
  }
  $("proc-view").innerHTML = rows.length ? "<table><tr><th>step</th><th>phase</th><th>read</th><th>wrote</th>" +
    "<th>holds (its last reads)</th></tr>" + rows.join("") + "</table>" : '<span class="gap">processor ' + pid + " never acted</span>";
}

function renderTimeline(k) {
  const svg = $("profile");
  if (!svg.dataset.drawn) {
    const top = Math.max(1, ...T.steps.map((s) => s.processors.length));
    svg.setAttribute("viewBox", "0 0 " + Math.max(N, 1) + " 100");
    let bars = "";
    for (let i = 0; i < N; i++) {
      const s = T.steps[i], h = Math.max(2, 100 * s.processors.length / top);
      bars += '<rect class="bar' + (s.conflicts.length ? " conflict" : "") + '" data-step="' + s.number +
        '" x="' + i + '" y="' + (100 - h) + '" width="0.9" height="' + h + '"><title>step ' + s.number + ": " +
        s.processors.length + " processors, " + esc(s.phase) + "</title></rect>";
    }
    svg.innerHTML = bars;
    svg.dataset.drawn = "1";
  }
  for (const r of svg.querySelectorAll("rect.current")) r.classList.remove("current");
  const r = svg.querySelector('rect[data-step="' + T.steps[k - 1].number + '"]');
  if (r) r.classList.add("current");
}

function go(k) {
  if (!N) { $("summary").textContent = "no steps were traced"; return; }
  current = Math.max(1, Math.min(N, k));
  const step = T.steps[current - 1];
  const map = touched(step);
  $("step-number").textContent = step.number;
  $("jump").value = current;
  $("phase").textContent = step.phase || "(none)";
  for (const key of ["time", "rounds", "work", "reads", "writes"]) $(key).textContent = step[key];
  $("active").textContent = step.processors.length;
  let r = 0, w = 0;
  for (const p of step.accesses) { if (p.kind === "read") r += p.cells.length; else w += p.cells.length; }
  $("step-reads").textContent = r; $("step-writes").textContent = w;
  renderConflicts(step);
  shownStep = step.number;
  renderMemory(current, step, map);
  renderChain();
  renderTimeline(current);
  renderProcessor(step.number);
}

function phaseMatches(phase) {
  for (const b of phaseBreaks) if (phase === b || phase.startsWith(b + "/")) return true;
  return false;
}
function hitsBreak(step) {
  for (const ph of step.phases) if (phaseMatches(ph)) return true;
  if (cellBreaks.size) for (const p of step.accesses) for (const c of p.cells) if (cellBreaks.has(p.array + "[" + c + "]")) return true;
  return false;
}
function seek(test) {
  for (let k = current + 1; k <= N; k++) if (test(T.steps[k - 1])) { go(k); return true; }
  return false;
}
function renderBreaks() {
  const items = [...phaseBreaks].map((b) => '<span class="bpitem" data-phase="' + esc(b) + '" title="remove">phase ' + esc(b) + " \u2715</span>")
    .concat([...cellBreaks].map((b) => '<span class="bpitem" data-cell="' + esc(b) + '" title="remove">' + esc(keyName(b)) + " \u2715</span>"));
  $("breakpoints").innerHTML = items.join("");
  go(current);
}

// A click on a cell of a page with depths: draw the chain of its value as of the step shown.
function choose(cell) {
  if (!D || !cell) return;
  const key = cell.dataset.array + "[" + cell.dataset.index + "]";
  chosen = {name: cellName(cell.dataset.array, Number(cell.dataset.index)), step: shownStep,
    version: versionAt(key, shownStep)};
  onChain = new Set();
  for (let v = chosen.version; v >= 0; v = D.before[v]) onChain.add(v);
  go(current);
}

function setup() {
  const conflicts = T.steps.reduce((n, s) => n + s.conflicts.length, 0);
  $("summary").textContent = N + " steps under " + T.model + ", " + conflicts + " conflicts, " +
    T.arrays.length + " arrays; " + T.cells.toLocaleString("en") + " cells recorded (ceiling " + T.ceiling.toLocaleString("en") + ")";
  $("step-count").textContent = N;
  $("jump").max = N;
  const phases = new Set();
  for (const s of T.steps) for (const ph of s.phases) if (ph) {
    const parts = ph.split("/");
    for (let i = 1; i <= parts.length; i++) phases.add(parts.slice(0, i).join("/"));
  }
  for (const ph of [...phases].sort()) { const o = document.createElement("option"); o.value = ph; o.textContent = ph; $("break-phase").appendChild(o); }
  $("first").onclick = () => go(1);
  $("last").onclick = () => go(N);
  $("prev").onclick = () => go(current - 1);
  $("next").onclick = () => go(current + 1);
  $("jump").onchange = () => go(Number($("jump").value) || 1);
  $("jump").onkeydown = (e) => { if (e.key === "Enter") go(Number($("jump").value) || 1); };
  $("next-conflict").onclick = () => seek((s) => s.conflicts.length > 0);
  $("next-phase").onclick = () => { const ph = T.steps[current - 1].phase; seek((s) => s.phase !== ph); };
  $("next-break").onclick = () => seek(hitsBreak);
  $("break-phase").onchange = () => { const v = $("break-phase").value; if (v) phaseBreaks.add(v); $("break-phase").value = ""; renderBreaks(); };
  $("break-cell").onchange = () => { const key = keyOf($("break-cell").value); if (key) cellBreaks.add(key); $("break-cell").value = ""; renderBreaks(); };
  $("breakpoints").onclick = (e) => { const t = e.target.closest(".bpitem"); if (!t) return;
    if (t.dataset.phase !== undefined) phaseBreaks.delete(t.dataset.phase); else cellBreaks.delete(t.dataset.cell); renderBreaks(); };
  $("pid").oninput = () => renderProcessor(current);
  $("only-touched").checked = T.arrays.length > 12;
  $("only-touched").onchange = () => go(current);
  $("memory").onclick = (e) => { const z = e.target.closest("[data-zoom]");
    if (!z) { choose(e.target.closest(".cell")); return; }
    const n = z.dataset.zoom; if (zoomed.has(n)) zoomed.delete(n); else zoomed.add(n); go(current); };
  $("chain").onclick = (e) => { const l = e.target.closest(".link"); if (l && Number(l.dataset.step))
    go(Number(l.dataset.step) - T.steps[0].number + 1); };
  $("memory").ondblclick = (e) => { const c = e.target.closest(".cell"); if (!c) return;
    const key = c.dataset.array + "[" + c.dataset.index + "]"; if (cellBreaks.has(key)) cellBreaks.delete(key); else cellBreaks.add(key); renderBreaks(); };
  $("proc-view").onclick = (e) => { const r = e.target.closest("tr[data-step]"); if (r) go(Number(r.dataset.step) - T.steps[0].number + 1); };
  $("profile").onclick = (e) => { const r = e.target.closest("rect[data-step]");
    if (r) { go(Number(r.dataset.step) - T.steps[0].number + 1); return; }
    const box = $("profile").getBoundingClientRect(); go(Math.floor((e.clientX - box.left) / box.width * N) + 1); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const keys = {ArrowRight: () => go(current + 1), ArrowLeft: () => go(current - 1), Home: () => go(1), End: () => go(N),
      c: () => $("next-conflict").click(), p: () => $("next-phase").click(), b: () => $("next-break").click()};
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  go(1);
}
setup();
