// Package tools is the tool table of firefox-rdp-mcp: the tools an agent
// calls, over the engine (package browser) that carries them out in the
// user's Firefox. It decodes a call, runs it on the engine and shapes the
// answer: a short text for the model and a structured object.
//
// Each tool is one typed unit, tool[In, Out] (tool.go), declared beside its
// handler: In's struct tags give the input schema, its limits, defaults and
// "exactly one of" rules (schema.go), which decodeArgs (args.go) applies
// once, before the handler runs; Out is the structured result, and its
// browser.Page fields give the output schema (output.go). Table.Answer
// shapes every failure as a tool error. Adding a tool is its file (In, Out,
// the tool value and a straight-line handler over the engine's Op), a line
// in toolTable, and where needed a page script in pagejs and an engine verb.
//
// # Trust boundary
//
// Tool arguments from the MCP client are decoded against the tool's schema
// (exact field names, unknown fields refused, every limit applied) before a
// handler runs. Everything the engine hands up from a page is page text: it
// goes into answers only between the untrusted markers (browser.Untrusted)
// or as browser.Page fields, never into the server's own words; whether
// input was trusted is the engine's ExecInfo.Trusted, not the page's.
//
// # Example
//
//	eng := browser.New(opts)
//	defer eng.Close()
//	tb := tools.New(eng)
//	res, ok := tb.Answer(ctx, "snapshot_page", json.RawMessage(`{}`), nil)
package tools
