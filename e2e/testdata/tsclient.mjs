// The official MCP TypeScript SDK's client driving the real firefox-rdp-mcp
// binary over stdio. e2e/tsclient_test.go copies this file next to a pinned,
// cached @modelcontextprotocol/sdk and runs it with node; it prints one JSON
// object describing what the server answered, which the Go test checks.
//
// Usage: node tsclient.mjs BINARY PAGE_URL   (FIREFOX_RDP_SOCKET in the environment)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, pageURL] = process.argv.slice(2);

function text(res) {
  return (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

async function session(fn) {
  const transport = new StdioClientTransport({
    command: binary,
    args: [],
    env: { FIREFOX_RDP_SOCKET: process.env.FIREFOX_RDP_SOCKET, FIREFOX_MCP_LOG_LEVEL: "warn" },
    stderr: "inherit",
  });
  transport.setProtocolVersion = (v) => { out.protocolVersion = v; };
  const client = new Client({ name: "ts-sdk-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const out = {};
await session(async (client) => {
  out.server = client.getServerVersion();
  out.capabilities = client.getServerCapabilities();
  out.instructions = client.getInstructions();
  const tools = await client.listTools();
  out.tools = tools.tools.map((t) => t.name);
  out.selectTabSchema = tools.tools.find((t) => t.name === "select_tab").inputSchema;
  const status = await client.callTool({ name: "browser_status", arguments: {} });
  out.status = status.structuredContent;
  // No select_tab: the first page tool acts on the active tab and says so.
  const nav = await client.callTool({ name: "navigate", arguments: { url: pageURL, wait: "complete" } });
  out.navigate = { text: text(nav), structured: nav.structuredContent, isError: !!nav.isError };
  const snap = await client.callTool({ name: "snapshot_page", arguments: {} });
  out.snapshot = text(snap);
  const m = out.snapshot.match(/^\[(e\d+)\] textbox "Search by title"/m);
  if (m) {
    const fill = await client.callTool({ name: "fill", arguments: { element: m[1], value: "from the TypeScript SDK" } });
    out.fill = { text: text(fill), isError: !!fill.isError };
  }
  const progress = [];
  const wait = await client.callTool(
    { name: "wait_for", arguments: { text: "never shown on the page", timeout_ms: 1200, poll_ms: 200 } },
    undefined,
    { onprogress: (p) => progress.push(p.progress) },
  );
  out.waitTimeout = { isError: !!wait.isError, structured: wait.structuredContent, progress: progress.length };
  const bad = await client.callTool({ name: "click", arguments: { element: "e999999" } });
  out.badRef = { isError: !!bad.isError, structured: bad.structuredContent };
  const inv = await client.callTool({ name: "select_tab", arguments: { tab_id: "tab-1", index: 0 } });
  out.invalid = { isError: !!inv.isError, structured: inv.structuredContent };
});
// A second process, as a one-shot client (the MCP Inspector CLI) runs one:
// it sees the page the first one navigated to, without select_tab.
await session(async (client) => {
  const snap = await client.callTool({ name: "snapshot_page", arguments: {} });
  out.secondProcess = text(snap);
});
process.stdout.write(JSON.stringify(out) + "\n");
