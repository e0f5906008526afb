// The cgl extension: the language (.game files, their grammar and brackets, from
// package.json) and a client of `cgl lsp` over stdio, which gives diagnostics as you type
// (failing `expect` lines too), hover, go to definition and the outline.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

/** @type {LanguageClient | undefined} */
let client;

function start() {
  const command = vscode.workspace.getConfiguration("cgl").get("path", "cgl") || "cgl";
  client = new LanguageClient(
    "cgl",
    "cgl lsp",
    { command, args: ["lsp"] },
    {
      documentSelector: [
        { scheme: "file", language: "cgl" },
        { scheme: "untitled", language: "cgl" },
      ],
    },
  );
  return client.start().catch((e) => {
    vscode.window.showErrorMessage(
      `cgl: could not start \`${command} lsp\` (${e && e.message ? e.message : e}). ` +
        "Install cgl (`cargo install --path .` in its repository) or set `cgl.path`.",
    );
  });
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch {
      // It never started, or is gone already.
    }
  }
}

function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("cgl.path")) {
        await stop();
        await start();
      }
    }),
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
