// The page of `cgl serve` as a student uses it, in Debian's Chromium (headless), driven by
// playwright-core: type a game with a mistake and see its diagnostic, fix it and see the
// expectations pass, ask a query and a :table, open tic-tac-toe and play three moves against
// perfect play, take one back. Screenshots go to CGL_ARTIFACTS (target/browser-artifacts).
//
// Run by tests/serve.rs with CGL_SERVE_URL set to a server it started on examples/.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const url = process.env.CGL_SERVE_URL;
const artifacts = process.env.CGL_ARTIFACTS || "target/browser-artifacts";
if (!url) {
  console.error("set CGL_SERVE_URL to the page of a running cgl serve");
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });

const profile = mkdtempSync(join(tmpdir(), "cgl-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CGL_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});
const page = browser.pages()[0] || (await browser.newPage());
const problems = [];
page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
page.setDefaultTimeout(30000);

let step = 0;
async function shot(name) {
  step += 1;
  const file = join(artifacts, `${String(step).padStart(2, "0")}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot ${file}`);
}

function check(what, ok) {
  if (!ok) throw new Error(`failed: ${what}`);
  console.log(`ok: ${what}`);
}

try {
  await page.goto(url);
  await page.waitForSelector("#editor");

  // A game with a mistake: `Nimm` for `Nim` on line 3.
  const broken = "game Nim { position n  move k for k in 0..n }\n\n" +
    "expect Nimm(3) + Nim(3) is P\nexpect grundy(Nim(5)) == 5\n";
  await page.fill("#editor", broken);
  const diagnostic = page.locator("#problems li.error").first();
  await diagnostic.waitFor();
  const text = await diagnostic.innerText();
  check("the mistake is listed at 3:8 with a suggestion", text.includes("3:8") && text.includes("Nimm") && text.includes("did you mean `Nim`"));
  await shot("mistake");

  // Fixed: both expectations pass.
  await page.fill("#editor", broken.replace("Nimm", "Nim"));
  await page.waitForFunction(() => document.getElementById("summary").textContent === "2 passed, 0 failed");
  check("two expectations pass", (await page.locator("#expectations li.passed").count()) === 2);
  check("no problem is left", (await page.locator("#problems li.error").count()) === 0);

  // A query, then a table.
  await page.fill("#query", "[grundy(Nim(n) + Nim(2)) for n in 0..6]");
  await page.press("#query", "Enter");
  await page.waitForFunction(() => {
    const v = document.querySelector("#answers li pre.value");
    return v && v.textContent === "[2, 3, 0, 1, 6, 7]";
  });
  check("the query is answered", true);
  await page.fill("#query", ":table grundy(Nim(n) + Nim(3)) for n in 0..8");
  await page.press("#query", "Enter");
  await page.waitForSelector("#answers li table");
  check("the table has 8 rows", (await page.locator("#answers li:first-child table tr").count()) === 9);
  check("and its picture", (await page.locator("#answers li:first-child img.plot").count()) === 1);
  await shot("fixed-and-asked");
  // A take-and-break game by code: Kayles's heaps to the proof, and what was proved.
  await page.fill("#query", ':table octal("0.77")');
  await page.press("#query", "Enter");
  await page.waitForFunction(() => {
    const note = document.querySelector("#answers li:first-child .note");
    return note && note.textContent.startsWith("period 12, from n = 71");
  });
  // 168 heaps, a period of 12 to a row: a header and 14 rows of 12.
  check("Kayles's table says its period is proved, a period to a row",
    (await page.locator("#answers li:first-child table tr").count()) === 15 &&
    (await page.locator("#answers li:first-child table tr:nth-child(8) td").count()) === 12);
  await shot("kayles-proved");

  // Tic-tac-toe from the served folder, against perfect play.
  await page.selectOption("#file-list", "tictactoe.game");
  await page.waitForFunction(() => document.getElementById("summary").textContent === "19 passed, 0 failed", null, { timeout: 120000 });
  check("tic-tac-toe's 19 expectations pass", (await page.locator("#expectations li.passed").count()) === 19);
  await page.fill("#play-start", "TicTacToe.start");
  await page.selectOption("#play-mode", "you");
  await page.click("#play-go");
  await page.waitForFunction(() => document.querySelectorAll("#options button").length === 9);
  check("the start has 9 options, each a draw", (await page.locator("#options button.draw").count()) === 9);
  await shot("tictactoe-start");
  for (let move = 1; move <= 3; move++) {
    // A move that does not lose: a winning one if there is one, else a draw.
    const win = page.locator("#options button.win:not([disabled])");
    const button = (await win.count()) > 0 ? win.first() : page.locator("#options button.draw:not([disabled])").first();
    const before = await page.locator("#line li").count();
    await button.click();
    await page.waitForFunction((n) => document.querySelectorAll("#line li").length === n + 2 ||
      /game over/.test(document.getElementById("play-status").textContent), before);
    const status = await page.locator("#play-status").innerText();
    console.log(`after move ${move}: ${status}`);
    check(`move ${move} is answered by the computer`, /the computer played/.test(status) || /game over/.test(status));
    check(`after move ${move} the computer has not won`, !/the computer wins/.test(status));
  }
  const marks = (await page.locator("#board").innerText()).replace(/[^XO]/g, "").length;
  check("six marks on the board after three moves each", marks === 6);
  await shot("tictactoe-three-moves");

  // Undo takes back our move and the computer's reply.
  await page.click("#play-undo");
  await page.waitForFunction(() => document.getElementById("board").textContent.replace(/[^XO]/g, "").length === 4);
  check("undo takes back a move and its reply", true);

  // A strategic game: its payoff table with best responses marked, and its equilibria.
  await page.selectOption("#file-list", "strategic.game");
  await page.waitForFunction(() => /^\d+ passed, 0 failed/.test(document.getElementById("summary").textContent), null, { timeout: 120000 });
  await page.fill("#query", "Prisoners");
  await page.press("#query", "Enter");
  await page.waitForSelector("#answers li:first-child table span.best");
  // Defect is the best response to anything, for both players: four payoffs marked.
  check("the prisoner's dilemma's table marks best responses", (await page.locator("#answers li:first-child table span.best").count()) === 4);
  const equilibria = await page.locator("#answers li:first-child li.mono").allInnerTexts();
  check("and lists its one equilibrium", equilibria.length === 1 && equilibria[0].includes("Defect: 1"));
  await page.fill("#query", ":grid a ^ b == 0 for a in 0..6, b in 0..6");
  await page.press("#query", "Enter");
  await page.waitForSelector("#answers li:first-child img.plot");
  await shot("strategic-and-grid");

  // A partizan game: a thermograph beside a game value, a graph of moves, and play with
  // Right moving first.
  await page.selectOption("#file-list", "domineering.game");
  await page.waitForFunction(() => /^\d+ passed, 0 failed/.test(document.getElementById("summary").textContent), null, { timeout: 120000 });
  await page.fill("#query", "value(rect(2, 3))");
  await page.press("#query", "Enter");
  await page.waitForSelector("#answers li:first-child figure.thermograph img");
  check("a game value has its thermograph", (await page.locator("#answers li:first-child pre.value").innerText()) === "{2|-1/2}");
  await page.fill("#query", ":dot rect(2, 2)");
  await page.press("#query", "Enter");
  await page.waitForSelector("#answers li:first-child figure.graph img");
  const caption = await page.locator("#answers li:first-child figure.graph figcaption").innerText();
  check("the graph of moves from the 2 x 2 board has 4 positions", caption.includes("(4 positions"));
  const loaded = await page.locator("#answers li:first-child figure.graph img").evaluate((img) => img.complete && img.naturalWidth > 0);
  check("and its drawing loads", loaded);
  await page.fill("#play-start", "rect(2, 3)");
  await page.selectOption("#play-mode", "two");
  await page.selectOption("#play-side", "right");
  await page.click("#play-go");
  await page.waitForFunction(() => /\(right\) to move/.test(document.getElementById("play-status").textContent));
  check("Right moves first when asked", true);
  await shot("thermograph-graph-partizan-play");

  check("no error in the page's console", problems.length === 0 || (console.error(problems.join("\n")), false));
  console.log("browser: all steps passed");
} catch (e) {
  console.error(String(e && e.stack || e));
  if (problems.length) console.error(problems.join("\n"));
  try { await shot("failure"); } catch (_) { /* nothing more to show */ }
  await browser.close();
  process.exit(1);
}
await browser.close();
