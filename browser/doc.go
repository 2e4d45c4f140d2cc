// Package browser is the domain of firefox-rdp-mcp: the tools an agent calls
// and the session that carries them out in the user's Firefox. It turns a
// validated tool call into RDP requests (package rdp) and page scripts
// (package pagejs), reads local files only through the broker client
// (package broker), and shapes every answer: a short text for the model and
// a structured object.
//
// # Trust boundary
//
// Three kinds of input arrive here, and none is trusted for the server's own
// claims:
//
//   - tool arguments from the MCP client: decoded against the tool's schema
//     (exact field names, unknown fields refused, every limit applied) before
//     a handler runs;
//   - everything a page says (titles, URLs, names, values, dialog text, script
//     results): rendered only between nonce markers (untrusted.go), bounded,
//     and never used to decide what the server reports about itself. Whether
//     input was trusted comes from where the script ran, not from the page's
//     reply, and refs are checked against a server-side fingerprint before
//     every action, so a page cannot steer an action onto a look-alike;
//   - Firefox's replies over RDP: decoded with caps on every size.
//
// Actions run in Firefox's isolated realm (system principal, the page seen
// through Xray wrappers) when it is available, so page monkeypatches are
// invisible and input events are trusted; the page realm is a
// feature-detected fallback that results report as trusted: false.
//
// # The tool table
//
// Each tool is one typed unit, tool[In, Out] (tool.go), declared beside its
// handler: In's struct tags give the input schema, its limits, defaults and
// "exactly one of" rules (schema.go), which decodeArgs (args.go) applies
// once, before the handler runs; Out is the structured result, and its Page
// fields give the output schema (output.go). Session.Answer shapes every
// failure as a tool error. Adding a tool is its file (In, Out, the tool
// value and a straight-line handler), a line in toolTable, and where needed
// a page script in pagejs.
//
// # Limitations
//
// IMPORTANT: the server acts with the user's signed-in sessions. It never
// submits a form on its own, but a click the agent asks for is the user's
// click: sites see no difference. Uploads read only files whose absolute
// paths the client names, through the broker's checks; what the page does
// with them after assignment (many widgets send them at once) is the page's.
//
// # Example
//
//	s := browser.New(browser.Options{Host: "127.0.0.1", Addr: addr, RequestTimeout: 30 * time.Second,
//		MaxElements: 500, MaxTextChars: 50000, Logger: log})
//	defer s.Close()
//	res, ok := s.Answer(ctx, "snapshot_page", json.RawMessage(`{}`), nil)
package browser
