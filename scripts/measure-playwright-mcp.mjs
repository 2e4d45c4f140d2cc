#!/usr/bin/env node
// Measures Playwright MCP's answers for pages, as docs/snapshot-targets.md
// ("Figures") reports them: for each URL, browser_navigate then
// browser_snapshot over stdio JSON-RPC, and the characters (Unicode code
// points, as Go's runes) of each answer's text content and its refs.
//
// Usage: node scripts/measure-playwright-mcp.mjs CLI_JS URL... [-- ARGS...]
//   CLI_JS  @playwright/mcp's cli.js, installed by hand (nothing is downloaded
//           here), e.g. /tmp/pwmcp/node_modules/@playwright/mcp/cli.js
//   ARGS    Playwright MCP's own flags; default: --browser chromium
//           --executable-path /usr/bin/chromium --headless --no-sandbox --isolated
// Prints one JSON object a line: {url, tool, chars, refs, text}.
// browser/playwright_figures_test.go runs it (PLAYWRIGHT_MCP=CLI_JS).

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const [cli, ...urls] = dash < 0 ? argv : argv.slice(0, dash);
const flags = dash < 0
  ? ["--browser", "chromium", "--executable-path", "/usr/bin/chromium", "--headless", "--no-sandbox", "--isolated"]
  : argv.slice(dash + 1);
if (!cli || urls.length === 0) {
  console.error("usage: measure-playwright-mcp.mjs CLI_JS URL... [-- ARGS...]");
  process.exit(2);
}

const child = spawn(process.execPath, [cli, ...flags], { stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map();
let nextID = 1;
createInterface({ input: child.stdout }).on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  const w = waiting.get(msg.id);
  if (!w) return;
  waiting.delete(msg.id);
  if (msg.error) w.reject(new Error(JSON.stringify(msg.error)));
  else w.resolve(msg.result);
});
child.on("exit", (code) => {
  for (const w of waiting.values()) w.reject(new Error(`Playwright MCP exited (${code})`));
});

function request(method, params) {
  const id = nextID++;
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

// textOf joins the text items of a tool result's content (what the model reads).
function textOf(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

async function measure(url, tool, args) {
  const result = await request("tools/call", { name: tool, arguments: args });
  if (result.isError) throw new Error(`${tool} ${url}: ${textOf(result)}`);
  const text = textOf(result);
  const refs = (text.match(/\[ref=[^\]]+\]/g) || []).length;
  console.log(JSON.stringify({ url, tool, chars: [...text].length, refs, text }));
}

try {
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "measure-playwright-mcp", version: "1" },
  });
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  for (const url of urls) {
    await measure(url, "browser_navigate", { url });
    await measure(url, "browser_snapshot", {});
  }
  await request("tools/call", { name: "browser_close", arguments: {} }).catch(() => {});
} finally {
  child.stdin.end();
  child.kill();
}
