// The grammar has one home, editors/cgl.tmLanguage.json (tests/editors.rs and
// editors/test/tokenize.mjs check that one); `npm install` and `vsce package` copy it here,
// into syntaxes/, because VS Code reads an extension's files from inside its folder only.
const fs = require("fs");
const path = require("path");

const from = path.join(__dirname, "..", "cgl.tmLanguage.json");
const to = path.join(__dirname, "syntaxes", "cgl.tmLanguage.json");
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.copyFileSync(from, to);
