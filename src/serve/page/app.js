// The page of `cgl serve`: an editor checked as you type, a query box, a board to play on.
// Everything it shows comes from the JSON API of the server it was loaded from; nothing is
// fetched from anywhere else. Text from the server is set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const editor = $("editor");
let path = null; // the file's path below the served folder, or null for a new file

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- requests and status

let pending = 0;
let statusTimer = null;

function setStatus(text, cls) {
  const s = $("status");
  s.textContent = text;
  s.className = cls || "";
}

// While a request is out, say whether it computes or waits for a free evaluation.
async function pollStatus() {
  if (pending === 0) return;
  try {
    const r = await fetch("/api/status");
    const s = await r.json();
    if (pending === 0) return;
    if (s.waiting > 0 && s.running >= s.at_once) {
      setStatus(`waiting for a free evaluation (${s.waiting} waiting, ${s.running} running)`, "busy waiting");
    } else {
      setStatus("computing…", "busy");
    }
  } catch (_) { /* the next poll tells */ }
  statusTimer = setTimeout(pollStatus, 400);
}

async function post(url, body, signal) {
  pending += 1;
  setStatus("computing…", "busy");
  if (pending === 1) statusTimer = setTimeout(pollStatus, 200);
  try {
    const r = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    let doc;
    try { doc = await r.json(); } catch (_) { doc = { error: `the server answered ${r.status}` }; }
    if (!r.ok && !doc.error) doc.error = `the server answered ${r.status}`;
    return doc;
  } finally {
    pending -= 1;
    if (pending === 0) {
      clearTimeout(statusTimer);
      setStatus("");
    }
  }
}

function fileBody(extra) {
  const body = { source: editor.value };
  if (path) body.path = path;
  return Object.assign(body, extra);
}

// ---------------------------------------------------------------- diagnostics

function at(place) {
  return place ? `${place.line}:${place.column}` : "";
}

function jumpTo(place) {
  if (!place || place.file !== currentName()) return;
  const text = editor.value;
  // Byte offsets to character offsets.
  const bytes = new TextEncoder().encode(text);
  const dec = new TextDecoder();
  const start = dec.decode(bytes.slice(0, place.start)).length;
  const end = dec.decode(bytes.slice(0, place.end)).length;
  editor.focus();
  editor.setSelectionRange(start, Math.max(end, start + 1));
}

function currentName() {
  return path || "untitled.game";
}

// One diagnostic as a list item: line:col, message, then its labels, notes and help.
function diagnosticItem(d, cls) {
  const li = el("li", cls || d.severity);
  if (d.place) {
    li.dataset.line = d.place.line;
    li.addEventListener("click", () => jumpTo(d.place));
  }
  const head = el("div");
  head.append(el("span", "at", d.place ? `${d.place.file === currentName() ? "" : d.place.file + ":"}${at(d.place)}` : ""));
  head.append(el("span", "mark", d.severity === "warning" ? "warning:" : "error:"));
  head.append(document.createTextNode(d.message));
  li.append(head);
  const details = [];
  for (const [place, label] of d.labels || []) {
    if (label) details.push(`${at(place)} ${label}`);
  }
  for (const n of d.notes || []) details.push(`note: ${n}`);
  if (d.help) details.push(`help: ${d.help}`);
  if (details.length) li.append(el("div", "detail", details.join("\n")));
  return li;
}

function fill(list, items, none) {
  list.replaceChildren(...(items.length ? items : [el("li", "none", none)]));
}

// ---------------------------------------------------------------- checking as you type

let checkTimer = null;
let checkAbort = null;
let checkSeq = 0;

function scheduleCheck() {
  $("edit").classList.add("stale");
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 350);
}

async function check() {
  if (checkAbort) checkAbort.abort(); // the server sees the client leave and stops
  checkAbort = new AbortController();
  const seq = ++checkSeq;
  let doc;
  try {
    doc = await post("/api/check", fileBody({}), checkAbort.signal);
  } catch (e) {
    if (e.name === "AbortError") return;
    doc = { error: String(e) };
  }
  if (seq !== checkSeq) return;
  showCheck(doc);
}

function showCheck(doc) {
  $("edit").classList.remove("stale");
  const summary = $("summary");
  if (doc.error) {
    summary.textContent = doc.error;
    summary.className = "bad";
    return;
  }
  const problems = (doc.diagnostics || []).map((d) => diagnosticItem(d));
  fill($("problems"), problems, "none");
  const expects = [];
  const prints = [];
  for (const s of doc.statements || []) {
    if (s.kind === "print") {
      const li = el("li", s.status === "failed" ? "failed" : "");
      li.append(el("span", "at", at(s.place)));
      li.append(document.createTextNode(s.status === "failed" ? s.diagnostic.message : s.output));
      prints.push(li);
      continue;
    }
    const li = el("li", s.status);
    li.dataset.line = s.place ? s.place.line : "";
    li.addEventListener("click", () => jumpTo(s.place));
    const head = el("div");
    head.append(el("span", "at", at(s.place)));
    head.append(el("span", "mark", { passed: "✓ pass", failed: "✗ fail", skipped: "– skipped" }[s.status]));
    head.append(el("code", null, s.text));
    li.append(head);
    if (s.status === "failed" && s.diagnostic) {
      const d = s.diagnostic;
      const lines = [d.message];
      for (const [, label] of d.labels || []) if (label) lines.push(label);
      for (const n of d.notes || []) lines.push(`note: ${n}`);
      li.append(el("div", "detail", lines.join("\n")));
    }
    if (s.status === "skipped") li.append(el("div", "detail", "not run: an earlier line ran out of time"));
    expects.push(li);
  }
  fill($("expectations"), expects, doc.loaded ? "no expect lines" : "not run: fix the problems above first");
  $("prints").replaceChildren(...prints);
  $("prints-title").hidden = prints.length === 0;
  if (!doc.loaded) {
    summary.textContent = "the file has problems";
    summary.className = "bad";
  } else if (doc.failed > 0) {
    summary.textContent = `${doc.passed} passed, ${doc.failed} failed`;
    summary.className = "bad";
  } else {
    summary.textContent = `${doc.passed} passed, 0 failed` + (doc.skipped ? `, ${doc.skipped} skipped` : "");
    summary.className = "ok";
  }
  if (doc.games && doc.games.length && !$("play-start").value) {
    $("play-start").placeholder = `a position, e.g. ${doc.games[0]}(…) or ${doc.games[0]}.start`;
  }
}

// ---------------------------------------------------------------- the query box

const history = JSON.parse(localStorage.getItem("cgl-history") || "[]");
let historyAt = history.length;

function remember(q) {
  if (history[history.length - 1] !== q) history.push(q);
  while (history.length > 200) history.shift();
  localStorage.setItem("cgl-history", JSON.stringify(history));
  historyAt = history.length;
}

$("query").addEventListener("keydown", (e) => {
  if (e.key === "ArrowUp" && historyAt > 0) {
    historyAt -= 1;
    $("query").value = history[historyAt];
    e.preventDefault();
  } else if (e.key === "ArrowDown") {
    historyAt = Math.min(history.length, historyAt + 1);
    $("query").value = history[historyAt] || "";
    e.preventDefault();
  }
});

$("query-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const q = $("query").value.trim();
  if (!q) return;
  remember(q);
  const li = el("li");
  li.append(el("div", "asked", q));
  const body = el("div", "answer", "…");
  li.append(body);
  $("answers").prepend(li);
  $("query").value = "";
  let doc;
  try {
    doc = await post("/api/eval", fileBody({ query: q }));
  } catch (err) {
    doc = { error: String(err) };
  }
  body.replaceChildren(...answer(doc));
});

function answer(doc) {
  if (doc.error) return [el("div", "failed", doc.error)];
  if (!doc.loaded) {
    const ul = el("ul");
    ul.append(...(doc.diagnostics || []).map((d) => diagnosticItem(d)));
    return [el("div", "detail", "the file has problems; fix them first:"), ul];
  }
  switch (doc.kind) {
    case "error": {
      const ul = el("ul");
      ul.append(...doc.errors.map((d) => diagnosticItem(d)));
      return [ul];
    }
    case "value": return valueAnswer(doc);
    case "table": return [tableAnswer(doc)];
    case "grid": return [gridAnswer(doc)];
    case "graph": return [svgFigure(doc.svg, `the game graph from ${doc.title} (${doc.nodes} positions; black: P, a bold move wins)`, "graph")];
    case "play":
      $("play-start").value = doc.start;
      $("play-mode").value = doc.computer_first ? "computer" : "you";
      startPlay();
      return [el("div", "detail", `playing ${doc.start} below`)];
    default: return [el("div", "detail", doc.text || "")];
  }
}

function valueAnswer(doc) {
  const out = [el("pre", "value", doc.text + (doc.cut ? " …" : ""))];
  if (doc.pictures && doc.pictures.length) {
    const g = el("div", "gallery");
    for (const p of doc.pictures) {
      const f = el("figure");
      f.append(el("pre", null, p.picture));
      if (p.label !== "") f.append(el("figcaption", null, `[${p.label}]`));
      g.append(f);
    }
    out.push(g);
  }
  if (doc.strategic) out.push(...strategicAnswer(doc.strategic));
  if (doc.thermograph) out.push(svgFigure(doc.thermograph, `the thermograph of ${doc.text}`, "thermograph"));
  return out;
}

// An SVG drawn by the server, shown as an image (its scripts, if any, never run).
function svgFigure(svg, caption, kind) {
  const f = el("figure", `drawing ${kind}`);
  const img = el("img");
  img.alt = caption;
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  f.append(img, el("figcaption", null, caption));
  return f;
}

function cellTd(cell) {
  const td = el("td", cell.class, cell.text);
  return td;
}

function tableAnswer(doc) {
  const shown = withPicture(doc, doc.columns ? periodRows(doc) : valueRows(doc));
  // What the server proved of the table (a take-and-break game's period).
  if (doc.note) shown.append(el("div", "note", doc.note));
  return shown;
}

// A table a value to a row.
function valueRows(doc) {
  const t = el("table");
  const head = el("tr");
  head.append(el("th", null, doc.var), el("th", null, "value"));
  t.append(head);
  for (const r of doc.rows) {
    const tr = el("tr");
    tr.append(el("th", null, r.label), cellTd(r.cell));
    t.append(tr);
  }
  return t;
}

// A table a period to a row (`doc.columns` values, the server's proved period): each row
// labelled by its first n, the columns +0, +1, ...
function periodRows(doc) {
  const t = el("table");
  const head = el("tr");
  head.append(el("th", null, doc.var));
  for (let c = 0; c < doc.columns; c++) head.append(el("th", null, `+${c}`));
  t.append(head);
  for (let i = 0; i < doc.rows.length; i += doc.columns) {
    const tr = el("tr");
    tr.append(el("th", null, doc.rows[i].label));
    for (const r of doc.rows.slice(i, i + doc.columns)) tr.append(cellTd(r.cell));
    t.append(tr);
  }
  return t;
}

// A table with, when its values can be drawn, its picture as `cgl plot` draws it beside.
function withPicture(doc, table) {
  const wrap = el("div");
  wrap.append(el("div", "caption", doc.title));
  const row = el("div", "table-and-plot");
  row.append(table);
  if (doc.svg) {
    const img = el("img", "plot");
    img.alt = `a picture of ${doc.title}`;
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(doc.svg);
    row.append(img);
  }
  wrap.append(row);
  return wrap;
}

function gridAnswer(doc) {
  const t = el("table");
  const head = el("tr");
  head.append(el("th", null, `${doc.row_var} \\ ${doc.col_var}`));
  for (const c of doc.columns) head.append(el("th", null, c));
  t.append(head);
  for (const r of doc.rows) {
    const tr = el("tr");
    tr.append(el("th", null, r.label));
    for (const c of r.cells) tr.append(cellTd(c));
    t.append(tr);
  }
  return withPicture(doc, t);
}

// A strategic game: the payoff table, each payoff that is a best response underlined, and
// the equilibria.
function strategicAnswer(s) {
  const out = [];
  if (s.cells && s.players.length === 2) {
    const t = el("table");
    const head = el("tr");
    head.append(el("th", null, `${s.players[0]} \\ ${s.players[1]}`));
    for (const c of s.labels[1]) head.append(el("th", null, c));
    t.append(head);
    const cols = s.labels[1].length;
    s.labels[0].forEach((row, i) => {
      const tr = el("tr");
      tr.append(el("th", null, row));
      for (let j = 0; j < cols; j++) {
        const cell = s.cells[i * cols + j];
        const td = el("td");
        cell.payoffs.forEach((p, k) => {
          if (k > 0) td.append(document.createTextNode(", "));
          td.append(el("span", p.best ? "best" : null, p.text));
        });
        tr.append(td);
      }
      t.append(tr);
    });
    out.push(t, el("div", "caption", "underlined: a best response to the other player's strategy"));
  } else if (s.cells) {
    const t = el("table");
    const head = el("tr");
    for (const p of s.players) head.append(el("th", null, p));
    head.append(el("th", null, "payoffs"));
    t.append(head);
    for (const c of s.cells) {
      const tr = el("tr");
      c.strategies.forEach((k, p) => tr.append(el("td", null, s.labels[p][k])));
      const td = el("td");
      c.payoffs.forEach((p, k) => {
        if (k > 0) td.append(document.createTextNode(", "));
        td.append(el("span", p.best ? "best" : null, p.text));
      });
      tr.append(td);
      t.append(tr);
    }
    out.push(t);
  }
  const e = s.equilibria;
  if (e && e.equilibria) {
    const ul = el("ul");
    for (const q of e.equilibria) {
      const parts = q.strategies.map((probs, p) => {
        const named = probs.map((x, k) => `${s.labels[p][k]}: ${dataText(x)}`).join(", ");
        return `${e.players[p]} (${named})`;
      });
      ul.append(el("li", "mono", parts.join("; ")));
    }
    out.push(el("div", "caption", `equilibria (${e.method}${e.complete ? ", all of them" : ""}):`), ul);
  } else if (e && e.error) {
    out.push(el("div", "caption", `equilibria: ${e.error}`));
  }
  return out;
}

function dataText(d) {
  if (d.kind === "int") return String(d.value);
  if (d.kind === "rational" || d.kind === "wide") return `${d.value.numerator}/${d.value.denominator}`;
  return JSON.stringify(d.value);
}

// ---------------------------------------------------------------- play

const game = { start: "", moves: [], mode: "you", side: null };

$("play-form").addEventListener("submit", (e) => {
  e.preventDefault();
  startPlay();
});

function startPlay() {
  game.start = $("play-start").value.trim();
  game.mode = $("play-mode").value;
  game.side = $("play-side").value;
  game.moves = [];
  if (!game.start) return;
  $("play-area").hidden = false;
  playRequest(game.mode === "computer");
}

// Who moves after `n` moves: "you"/"the computer", or "player 1"/"player 2".
function mover(n) {
  if (game.mode === "two") return n % 2 === 0 ? "player 1" : "player 2";
  const youFirst = game.mode === "you";
  return (n % 2 === 0) === youFirst ? "you" : "the computer";
}

function computerToMove(n) {
  return game.mode !== "two" && mover(n) === "the computer";
}

async function playRequest(reply) {
  const doc = await post("/api/play", fileBody({ start: game.start, moves: game.moves, reply, side: game.side }));
  showPlay(doc);
}

function describe(o) {
  const r = o.remoteness;
  switch (o.result) {
    case "win": return r === null ? "win" : `win in ${r + 1}`;
    case "lose": return r === null ? "lose" : `lose in ${r + 1}`;
    case "draw": return "draw";
    case "optimal": return `optimal · ${o.score}`;
    default: return `score ${o.score}`;
  }
}

function showPlay(doc) {
  const status = $("play-status");
  const options = $("options");
  if (doc.error || !doc.loaded || doc.kind === "error") {
    status.textContent = doc.error || "cannot play: " + ((doc.errors || doc.diagnostics || [])[0] || {}).message;
    status.className = "failed";
    options.replaceChildren();
    $("board").textContent = "";
    return;
  }
  game.moves = doc.moves;
  const v = doc.view;
  const n = game.moves.length;
  $("board").textContent = v.picture || v.position;
  $("board").title = v.position;
  const line = $("line");
  line.replaceChildren(...doc.line.map((p, i) => el("li", null, `${i === 0 ? "start" : mover(i - 1) + ":"} ${p}`)));
  status.className = "";
  if (v.end) {
    const who = mover(n);
    const other = mover(n + 1);
    const text = { mover: `${who} win${who === "you" ? "" : "s"}`, other: `${other} win${other === "you" ? "" : "s"}`, nobody: "a draw" }[v.end.winner];
    status.textContent = `game over after ${n} move${n === 1 ? "" : "s"}: ${text} (${v.end.reason})`;
    options.replaceChildren();
    return;
  }
  const who = mover(n);
  const side = v.side ? ` (${v.side})` : "";
  status.textContent = doc.computer !== null && doc.computer !== undefined
    ? `the computer played; ${who}${side} to move — ${v.option_count} option${v.option_count === 1 ? "" : "s"}`
    : `${who}${side} to move — ${v.option_count} option${v.option_count === 1 ? "" : "s"}`;
  const buttons = v.options.map((o, i) => {
    const b = el("button", o.result);
    b.type = "button";
    b.title = `${o.position} — ${describe(o)} for ${who}`;
    b.append(el("pre", null, o.picture || o.position));
    b.append(el("span", "what", describe(o)));
    b.dataset.index = i;
    b.dataset.result = o.result;
    b.disabled = computerToMove(n);
    b.addEventListener("click", () => {
      game.moves = game.moves.concat([i]);
      playRequest(computerToMove(game.moves.length));
    });
    return el("li").appendChild(b).parentNode;
  });
  options.replaceChildren(...buttons);
  if (v.option_count > v.options.length) options.append(el("li", "detail", `and ${v.option_count - v.options.length} more`));
}

$("play-undo").addEventListener("click", () => {
  if (game.moves.length === 0) return;
  // Against the computer, back to your previous turn: the computer's reply goes too.
  const moves = game.moves.slice(0, -1);
  while (moves.length > 0 && computerToMove(moves.length)) moves.pop();
  game.moves = moves;
  playRequest(computerToMove(game.moves.length));
});

// ---------------------------------------------------------------- files

async function loadFiles() {
  try {
    const r = await fetch("/api/files");
    const doc = await r.json();
    const select = $("file-list");
    for (const f of doc.files) select.append(new Option(f, f));
    const wanted = new URLSearchParams(location.search).get("file");
    if (wanted && doc.files.includes(wanted)) {
      select.value = wanted;
      await openFile(wanted);
    }
  } catch (_) { /* the list stays empty */ }
}

async function openFile(p) {
  if (!p) {
    path = null;
    editor.value = "";
  } else {
    const r = await fetch(`/api/file?path=${encodeURIComponent(p)}`);
    const doc = await r.json();
    if (doc.error) {
      setStatus(doc.error);
      return;
    }
    path = p;
    editor.value = doc.text;
  }
  $("file-name").textContent = currentName();
  // A game in play belongs to the file before.
  $("play-area").hidden = true;
  game.moves = [];
  // What was shown belongs to the file before: say so until this one is checked.
  $("summary").textContent = "checking…";
  $("summary").className = "";
  fill($("problems"), [], "…");
  fill($("expectations"), [], "…");
  $("prints").replaceChildren();
  $("prints-title").hidden = true;
  check();
}

$("file-list").addEventListener("change", (e) => openFile(e.target.value));
editor.addEventListener("input", scheduleCheck);
editor.addEventListener("keydown", (e) => {
  if (e.key === "Tab" && !e.shiftKey) {
    e.preventDefault();
    const { selectionStart: a, selectionEnd: b } = editor;
    editor.setRangeText("    ", a, b, "end");
    scheduleCheck();
  }
});

loadFiles();
check();
