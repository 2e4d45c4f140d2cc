// The official MCP TypeScript v2 client (@modelcontextprotocol/client)
// driving the real firefox-rdp-mcp binary over stdio under the 2026-07-28
// revision: it probes with server/discover (on a short-lived second process,
// as it does for stdio servers), then sends every request with the _meta
// envelope and no initialize. e2e/tsclient2_test.go copies this file next to
// the pinned, cached package and runs it with node; it prints one JSON object
// describing what the server answered and what crossed the wire.
//
// Usage: node tsclient2.mjs BINARY PAGE_URL   (FIREFOX_RDP_SOCKET in the environment)
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [binary, pageURL] = process.argv.slice(2);

function text(res) {
  return (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

const out = { sent: [], received: [] };
const transport = new StdioClientTransport({
  command: binary,
  args: [],
  env: { FIREFOX_RDP_SOCKET: process.env.FIREFOX_RDP_SOCKET, FIREFOX_MCP_LOG_LEVEL: "debug" },
  stderr: "pipe",
});
let serverLog = "";
transport.stderr.on("data", (b) => { serverLog += b; });
transport.setProtocolVersion = (v) => { out.transportVersion = v; };
const send = transport.send.bind(transport);
transport.send = (m, o) => {
  out.sent.push({ method: m.method, meta: m.params?._meta ?? null });
  return send(m, o);
};
const client = new Client({ name: "ts-v2-e2e", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
await client.connect(transport);
const onmessage = transport.onmessage;
transport.onmessage = (m, extra) => {
  if (m.result) out.received.push({ resultType: m.result.resultType, serverInfo: m.result._meta?.["io.modelcontextprotocol/serverInfo"] ?? null });
  return onmessage(m, extra);
};
try {
  out.version = client.getNegotiatedProtocolVersion();
  out.era = client.getProtocolEra();
  out.discover = client.getDiscoverResult();
  out.server = client.getServerVersion();
  out.instructions = client.getInstructions();
  const tools = await client.listTools();
  out.tools = tools.tools.map((t) => t.name);
  const nav = await client.callTool({ name: "navigate", arguments: { url: pageURL, wait: "complete" } });
  out.navigate = { text: text(nav), isError: !!nav.isError };
  const snap = await client.callTool({ name: "snapshot_page", arguments: {} });
  out.snapshot = text(snap);
  const m = out.snapshot.match(/^\[(e\d+)\] textbox "Search by title"/m);
  if (m) {
    const fill = await client.callTool({ name: "fill", arguments: { element: m[1], value: "from the v2 client" } });
    out.fill = { text: text(fill), isError: !!fill.isError, structured: fill.structuredContent };
  }
  const progress = [];
  const wait = await client.callTool(
    { name: "wait_for", arguments: { text: "never shown on the page", timeout_ms: 1200, poll_ms: 200 } },
    { onprogress: (p) => progress.push(p.progress) },
  );
  out.waitTimeout = { isError: !!wait.isError, structured: wait.structuredContent, progress: progress.length };
  // Cancellation: a long wait is aborted once its first progress report
  // arrives; the client sends notifications/cancelled and stops waiting.
  const abort = new AbortController();
  try {
    await client.callTool(
      { name: "wait_for", arguments: { text: "never shown either", timeout_ms: 30000, poll_ms: 200 } },
      { signal: abort.signal, onprogress: () => abort.abort("the test gave up") },
    );
    out.cancel = { rejected: false };
  } catch (e) {
    out.cancel = { rejected: true, error: String(e) };
  }
  const status = await client.callTool({ name: "browser_status", arguments: {} });
  out.afterCancel = { isError: !!status.isError, connected: status.structuredContent?.connected };
} finally {
  await client.close();
}
out.serverCancelled = /call cancelled by client/.test(serverLog);
out.serverLoggedModern = /mcp modern request/.test(serverLog);
process.stdout.write(JSON.stringify(out) + "\n");
