package browser

import "encoding/json"

// Output schemas. Each tool's outputSchema (sent to clients of protocol
// 2025-06-18 and newer, with structuredContent) declares the fields that
// hold page-provided strings: those are Page values, escaped like text
// inside the untrusted markers (see untrusted.go). Other fields are left
// undeclared to keep tools/list small; no field is required, so error
// results ({"error":{…}}) fit every schema.

// pageDesc describes every page-provided string field.
const pageDesc = "page-provided, escaped"

// pageProp is the schema of a page-provided string (a JSON string; the
// type is left out to keep tools/list small).
var pageProp = map[string]any{"description": pageDesc}

// object is a tool's output schema (type object, as MCP requires).
func object(props map[string]any) map[string]any {
	if len(props) == 0 {
		return map[string]any{"type": "object"}
	}
	return map[string]any{"type": "object", "properties": props}
}

// nested is an object inside one (its type is implied by the properties).
func nested(props map[string]any) map[string]any { return map[string]any{"properties": props} }

func arrayOf(items any) map[string]any { return map[string]any{"items": items} }

// titleURL is the shape of a page's title and URL.
func titleURL() map[string]any { return map[string]any{"title": pageProp, "url": pageProp} }

// dialogText is the dialog an action opened (click, press_key).
var dialogText = nested(map[string]any{"text": pageProp})

// outputSchemas has one entry per tool (TestOutputSchemas holds this true).
var outputSchemas = map[string]map[string]any{
	"browser_status": object(map[string]any{"selected_tab": nested(titleURL())}),
	"list_tabs":      object(map[string]any{"tabs": arrayOf(nested(titleURL()))}),
	"select_tab":     object(titleURL()),
	"snapshot_page":  object(titleURL()),
	"click":          object(map[string]any{"url": pageProp, "dialog": dialogText}),
	"fill":           object(map[string]any{"url": pageProp, "value": pageProp}),
	"type_text":      object(map[string]any{"url": pageProp}),
	"press_key":      object(map[string]any{"url": pageProp, "focused": pageProp, "dialog": dialogText}),
	"navigate":       object(titleURL()),
	"wait_for":       object(nil),
	"upload_files":   object(map[string]any{"warnings": arrayOf(pageProp)}),
	"handle_dialog":  object(map[string]any{"text": pageProp}),
	// Page text of these three is only in their text, inside markers.
	"screenshot":       object(nil),
	"console_messages": object(nil),
	"network_requests": object(nil),
	"network_request":  object(nil),
}

// errorPagePaths are the page-provided fields of error results
// ({"error":{…}}), which no output schema describes: the shared untrusted
// note in the tool descriptions names them.
var errorPagePaths = map[string]bool{"error.dialog.text": true}

// outputSchema returns the tool's output schema as JSON; nil when the tool
// has none.
func outputSchema(name string) json.RawMessage {
	sc, ok := outputSchemas[name]
	if !ok {
		return nil
	}
	b, err := json.Marshal(sc)
	if err != nil {
		panic(err) // a literal above
	}
	return b
}
