// Tokenizes cgl source with editors/cgl.tmLanguage.json, as VS Code does (vscode-textmate on
// vscode-oniguruma), and checks the scopes it gives against an independent lexer.
//
//   npm ci --prefix editors/test && node editors/test/tokenize.mjs
//
// The sources: every `.game` file under examples/, every fenced block whose info string starts
// with `game` (`game`, `game fails`) in spec/language.md, spec/tutorial.md and README.md, and a
// synthetic file below that holds what those may not (every keyword, built-in and constant,
// every operator, escapes, a field named by a keyword, a game whose parameters hold braces).
//
// The oracle is `lex` below: a hand lexer written from grammar/cgl.pest (and not from the
// TextMate grammar): `//` comments to the end of the line, `/* */` comments that do not nest
// and run to the end of the text when unclosed, strings from `"` to `"` in which `\` takes
// the next character whatever it is (as the pest rule `string_inner` and syntax::lex do),
// numbers (a word of digits and `_` that starts with a digit: the `int` rule), words
// (`[A-Za-z_][A-Za-z0-9_]*`), and single characters for the rest. The keywords are read from
// the `keyword` rule of grammar/cgl.pest, the contextual words from its `kw_*` rules. A word
// right after a lone `.` (not part of `..`; comments and blanks may come between, as pest
// allows) is a field name, never a keyword (the `field` rule).
//
// What is checked, at every character of every source (position = file:line:column, the
// column in UTF-16 units, 1-based):
//  1. a comment's characters that are not blanks all have a `comment.` scope; a string's all
//     have a `string.` scope; a number's all have `constant.numeric.`;
//  2. a keyword's characters (a word of the `keyword` rule, not a field) all have a
//     keyword-ish scope: one starting with `keyword.control.`, `keyword.other.`,
//     `keyword.operator.word.` or `constant.language.` (true, false, none);
//  3. and the converse: no character outside a comment has a `comment.` scope, none outside a
//     string a `string.` scope, none outside a number `constant.numeric.`; a word that is not
//     a keyword has no keyword-ish scope, except that a contextual word (`position`, `move`,
//     ...) may have `keyword.other.clause.cgl`; a character outside words has none either,
//     except the arrows `↑ ⇑ ↓ ⇓` (`constant.language.up.cgl`);
//  4. the plain rule: a character that is not a blank and has no scope but `source.cgl` and
//     `meta.*` ones must be part of an identifier: a word that starts with a letter or `_` and
//     is not a keyword (names of games, variables, fields, parameters stay plain unless the
//     grammar knows them: a built-in, a constant, a declared name). Every operator, bracket,
//     separator, digit and stray character must carry a scope.
//  5. in the synthetic file only: each built-in function and constant named in the TextMate
//     grammar gets `support.function.` / `support.constant.` (no keyword pattern cuts it, as
//     `is` could cut `is_number`), and the declared names and clause words get theirs.
// Then it checks itself: with the grammar's keyword and string patterns removed, the same
// checks must fail on the synthetic file.
//
// It exits 0 when everything agrees, 1 with one line per mismatch (file:line:col: what), 2
// when it cannot run (a file missing).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");

function read(rel) {
  try {
    return fs.readFileSync(path.join(root, rel), "utf8");
  } catch (e) {
    console.error(`tokenize: cannot read ${rel}: ${e.message}`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------- the pest grammar's words

const pest = read("grammar/cgl.pest");

/** The quoted literals of the body of pest rule `name`. */
function ruleLiterals(name) {
  const m = pest.match(new RegExp(`^${name}\\s*=\\s*[@$_!]?\\{([\\s\\S]*?)\\}\\s*$`, "m"));
  if (!m) {
    console.error(`tokenize: no rule \`${name}\` in grammar/cgl.pest`);
    process.exit(2);
  }
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}

const KEYWORDS = new Set(ruleLiterals("keyword"));
const CONTEXTUAL = new Set(
  [...pest.matchAll(/^kw_[a-z]+\s*=\s*@\{([^}]*)\}/gm)]
    .flatMap((m) => [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]))
    .filter((w) => !KEYWORDS.has(w)),
);
if (KEYWORDS.size < 10 || CONTEXTUAL.size < 10) {
  console.error("tokenize: read too few keywords from grammar/cgl.pest: has its layout changed?");
  process.exit(2);
}

// ---------------------------------------------------------------- the oracle

const isWordChar = (c) => /[A-Za-z0-9_]/.test(c);
const isBlank = (c) => c === " " || c === "\t" || c === "\r" || c === "\n";

/**
 * The tokens of `text`, from the pest grammar's lexical rules: `{kind, start, end}` with kind
 * comment, string, number, badnumber (digits then letters: no token of the grammar), keyword,
 * field (a word after a lone dot), word, or char (any other single character).
 */
function lex(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  // The last token that is not a comment: a field name follows a lone `.`.
  let last = null;
  const push = (t) => {
    out.push(t);
    if (t.kind !== "comment") last = t;
  };
  while (i < n) {
    const c = text[i];
    const start = i;
    if (isBlank(c)) {
      i++;
    } else if (text.startsWith("//", i)) {
      while (i < n && text[i] !== "\n") i++;
      push({ kind: "comment", start, end: i });
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
      push({ kind: "comment", start, end: i });
    } else if (c === '"') {
      i++;
      while (i < n && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      i = Math.min(i, n);
      if (text[i] === '"') i++;
      push({ kind: "string", start, end: i });
    } else if (isWordChar(c)) {
      while (i < n && isWordChar(text[i])) i++;
      const word = text.slice(start, i);
      let kind;
      if (/^[0-9]/.test(word)) kind = /^[0-9_]+$/.test(word) ? "number" : "badnumber";
      else if (last && last.kind === "char" && last.lone_dot) kind = "field";
      else kind = KEYWORDS.has(word) ? "keyword" : "word";
      push({ kind, start, end: i, word });
    } else {
      i += c.codePointAt(0) > 0xffff ? 2 : 1;
      const t = { kind: "char", start, end: i };
      if (c === ".") t.lone_dot = text[start - 1] !== "." && text[i] !== ".";
      push(t);
    }
  }
  return out;
}

// ---------------------------------------------------------------- the TextMate side

await oniguruma.loadWASM(
  fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer,
);
const onigLib = Promise.resolve({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
});

const grammarPath = path.join(root, "editors", "cgl.tmLanguage.json");
const grammarText = read("editors/cgl.tmLanguage.json");

async function loadGrammar(json) {
  const registry = new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) =>
      scopeName === "source.cgl" ? vsctm.parseRawGrammar(json, grammarPath) : null,
  });
  const grammar = await registry.loadGrammar("source.cgl");
  if (!grammar) {
    console.error("tokenize: editors/cgl.tmLanguage.json does not load");
    process.exit(2);
  }
  return grammar;
}

/** The scopes of every UTF-16 unit of `text` (a newline gets those of the line's end). */
function scopesOf(grammar, text) {
  const at = new Array(text.length);
  let stack = vsctm.INITIAL;
  let offset = 0;
  for (const line of text.split("\n")) {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      for (let k = t.startIndex; k < Math.min(t.endIndex, line.length); k++) at[offset + k] = t.scopes;
    }
    if (offset + line.length < text.length) at[offset + line.length] = ["source.cgl"];
    stack = r.ruleStack;
    offset += line.length + 1;
  }
  return at;
}

// ---------------------------------------------------------------- the checks

const KEYWORDISH = /^(keyword\.(control|other|operator\.word)|constant\.language)\./;
const ARROWS = new Set(["↑", "⇑", "↓", "⇓"]);
const has = (scopes, prefix) => scopes.some((s) => s.startsWith(prefix));
const keywordish = (scopes) => scopes.some((s) => KEYWORDISH.test(s));
const plain = (scopes) => scopes.every((s) => s === "source.cgl" || s.startsWith("meta."));

/**
 * Checks one source; `where(i)` names the place of offset `i` (file:line:col). Returns the
 * mismatches, one line each.
 */
function check(grammar, text, where) {
  const scopes = scopesOf(grammar, text);
  const tokens = lex(text);
  const owner = new Array(text.length).fill(null);
  for (const t of tokens) for (let k = t.start; k < t.end; k++) owner[k] = t;
  const problems = [];
  const reported = new Set();
  const fail = (i, what) => {
    const t = owner[i];
    const key = t ? `${t.start}:${what}` : `${i}:${what}`;
    if (reported.has(key)) return; // once a token
    reported.add(key);
    const shown = t ? JSON.stringify(text.slice(t.start, Math.min(t.end, t.start + 30))) : JSON.stringify(text[i]);
    problems.push(`${where(i)}: ${what}: ${shown} has scopes ${scopes[i].join(" ")}`);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const s = scopes[i];
    const t = owner[i];
    const kind = t ? t.kind : "blank";
    if (kind === "comment") {
      if (!isBlank(c) && !has(s, "comment.")) fail(i, "a comment without a comment scope");
      continue;
    }
    if (has(s, "comment.")) fail(i, "a comment scope outside a comment");
    if (kind === "string") {
      if (c !== "\n" && !has(s, "string.")) fail(i, "a string without a string scope");
    } else if (has(s, "string.")) fail(i, "a string scope outside a string");
    if (kind === "number" && !has(s, "constant.numeric.")) fail(i, "a number without a numeric scope");
    if (kind !== "number" && has(s, "constant.numeric.")) fail(i, "a numeric scope outside a number");
    if (kind === "keyword") {
      if (!keywordish(s)) fail(i, `the keyword \`${t.word}\` without a keyword scope`);
    } else if (kind === "word" || kind === "field") {
      const clause = CONTEXTUAL.has(t.word) && s.includes("keyword.other.clause.cgl");
      if (keywordish(s) && !clause) fail(i, `\`${t.word}\`, no keyword here, with a keyword scope`);
    } else if (kind !== "string" && keywordish(s) && !ARROWS.has(c)) {
      fail(i, "a keyword scope outside a word");
    }
    if (!isBlank(c) && kind !== "string" && plain(s)) {
      const identifier = (kind === "word" || kind === "field") && /^[A-Za-z_]/.test(t.word);
      if (!identifier) fail(i, "left with no scope, and not an identifier");
    }
  }
  return problems;
}

/** `file:line:col` of offset `i` of `text`, the text's first line being line `firstLine`. */
function placer(file, text, firstLine) {
  const starts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === "\n") starts.push(k + 1);
  return (i) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= i) line++;
    return `${file}:${firstLine + line}:${i - starts[line] + 1}`;
  };
}

/** The fenced blocks of a Markdown text whose info string starts with `game` (as tests/spec.rs reads them). */
function gameBlocks(markdown) {
  const blocks = [];
  let current = null;
  markdown.split("\n").forEach((line, i) => {
    const trimmed = line.trimStart();
    if (trimmed.startsWith("```")) {
      if (current) {
        blocks.push(current);
        current = null;
      } else {
        current = { info: trimmed.slice(3).trim(), line: i + 2, text: "" };
      }
    } else if (current) {
      current.text += line + "\n";
    }
  });
  return blocks.filter((b) => b.info === "game" || b.info.startsWith("game "));
}

// ---------------------------------------------------------------- the synthetic file

const tm = JSON.parse(grammarText);
const wordsOf = (entry) =>
  (tm.repository[entry]?.patterns ?? []).flatMap((p) => {
    const m = /^\\b\((.*)\)\\b$/.exec(p.match ?? "");
    return m ? m[1].split("|") : [];
  });
const BUILTIN_NAMES = wordsOf("builtins");
const CONSTANT_NAMES = wordsOf("constants");

const SYNTHETIC = `// every keyword of the grammar, in use
import "nim.game" /* a block
   comment over lines, "not a string", if */
const LIMIT = 1_000_000
fn twice(x) = if x > 0 then 2 * x else none
game Take(S = {1, 2, (3)}, k = 2) { position n
    move n - s for s in S if s <= n and not (s in {}) or false
    left move n - 1
    right move n div 2
    play misere
    terminal if n == 0
    draw if n < 0
    loopy
    payoff {0 | {1 || 2 | -3}} if true
    show str(n) + "\\n\\t\\\\\\"end"
    start Take(10)
    compound disjunctive
}
game Chooser {
    player Row in ["a", "b"]
    player Column in ["c"]
    table [[(0, 1)], [(1, 0)]]
}
expect forall a in 0..4, b in 0..=4: a ^ b == b ^ a
expect exists n in 1..100: n * n == 49 and n % 7 != 1 and n ** 2 >= 0
expect [x for x in [1; 3]] == [1, 1, 1] and Take.start is N
expect (3, 4).0 == 3 and G.if . for
expect ±1 == +-1 and ↑ + ↓ == 0 and ⇑ == ^^ and ⇓ == vv and *3 & * | ^3*2 == v
print 7 / 2 - -1
show true
expect ${BUILTIN_NAMES.map((b) => `${b}(x)`).join(" + ")}
expect [${CONSTANT_NAMES.join(", ")}]
`;

/** Specific scopes the synthetic file must show: [word, nth occurrence, scope prefix]. */
const SYNTHETIC_EXPECTED = [
  ["LIMIT", 0, "entity.name.constant."],
  ["twice", 0, "entity.name.function."],
  ["Take", 0, "entity.name.type.game."],
  ["Chooser", 0, "entity.name.type.game."],
  ["position", 0, "keyword.other.clause."],
  ["left", 0, "keyword.other.clause."],
  ["misere", 0, "keyword.other.clause."],
  ["player", 0, "keyword.other.clause."],
  ["table", 0, "keyword.other.clause."],
  ["start", 0, "keyword.other.clause."],
  ["start", 1, "variable.other.member."],
  ["if", 6, "variable.other.member."],
  ["\\n", 0, "constant.character.escape."],
  ...BUILTIN_NAMES.map((b) => [`${b}(x)`, 0, "support.function."]),
  ...CONSTANT_NAMES.map((c) => [c, -1, "support.constant."]),
];

function checkSynthetic(grammar, where) {
  const problems = check(grammar, SYNTHETIC, where);
  const scopes = scopesOf(grammar, SYNTHETIC);
  for (const [word, nth, prefix] of SYNTHETIC_EXPECTED) {
    // A word counts where it stands whole (not inside a longer word); -1 is the last.
    const found = [];
    const tail = /\w$/.test(word) ? "(?![A-Za-z0-9_])" : "";
    const re = new RegExp(`(?<![A-Za-z0-9_])${word.replace(/[\\()[\]|*+?.^$]/g, "\\$&")}${tail}`, "g");
    for (const m of SYNTHETIC.matchAll(re)) found.push(m.index);
    const at = nth < 0 ? found[found.length - 1] : found[nth];
    if (at === undefined) {
      problems.push(`${where(0)}: the synthetic file has no occurrence ${nth} of ${word}`);
      continue;
    }
    const length = word.endsWith("(x)") ? word.length - 3 : word.length;
    for (let k = at; k < at + length; k++) {
      if (!has(scopes[k], prefix)) {
        problems.push(`${where(k)}: ${JSON.stringify(word)} should have ${prefix}*, has ${scopes[k].join(" ")}`);
        break;
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- run

const grammar = await loadGrammar(grammarText);
const problems = [];
let files = 0;
let blocks = 0;
let lines = 0;

const exampleDir = path.join(root, "examples");
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.name.endsWith(".game") ? [p] : [];
  });
const examples = walk(exampleDir).sort();
if (examples.length === 0) {
  console.error("tokenize: no .game file under examples/");
  process.exit(2);
}
for (const file of examples) {
  const rel = path.relative(root, file);
  const text = fs.readFileSync(file, "utf8");
  problems.push(...check(grammar, text, placer(rel, text, 1)));
  files++;
  lines += text.split("\n").length;
}
for (const doc of ["spec/language.md", "spec/tutorial.md", "README.md"]) {
  const found = gameBlocks(read(doc));
  if (doc.startsWith("spec/") && found.length === 0) {
    console.error(`tokenize: no \`\`\`game block in ${doc}: has the fence changed?`);
    process.exit(2);
  }
  for (const b of found) {
    problems.push(...check(grammar, b.text, placer(doc, b.text, b.line)));
    blocks++;
    lines += b.text.split("\n").length;
  }
}
problems.push(...checkSynthetic(grammar, placer("(synthetic file in tokenize.mjs)", SYNTHETIC, 1)));

// The checks must see a broken grammar: without its keyword and string patterns, the
// synthetic file cannot pass.
const broken = JSON.parse(grammarText);
broken.repository.keywords.patterns = [];
broken.repository.strings = { patterns: [] };
const brokenProblems = checkSynthetic(await loadGrammar(JSON.stringify(broken)), () => "");
const sawKeyword = brokenProblems.some((p) => p.includes("without a keyword scope"));
const sawString = brokenProblems.some((p) => p.includes("a string without a string scope"));
if (!sawKeyword || !sawString) {
  problems.push("tokenize.mjs: the checks did not notice a grammar without keywords and strings");
}

if (problems.length > 0) {
  const shown = 60;
  for (const p of problems.slice(0, shown)) console.error(p);
  if (problems.length > shown) console.error(`... and ${problems.length - shown} more`);
  console.error(`tokenize: ${problems.length} mismatches between editors/cgl.tmLanguage.json and the lexer`);
  process.exit(1);
}
console.log(
  `tokenize: ${files} example files, ${blocks} Markdown blocks and the synthetic file ` +
    `(${lines} lines): every comment, string, number and keyword scoped, nothing else left plain`,
);
