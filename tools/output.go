package tools

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// Output schemas. Each tool's outputSchema (sent to clients of protocol
// 2025-06-18 and newer, with structuredContent) is derived from its Out
// type and declares the fields that hold page-provided strings: those are
// browser.Page values, escaped like text inside the untrusted markers (see
// browser/untrusted.go). Other fields are left undeclared to keep tools/list small;
// no field is required, so error results ({"error":{…}}) fit every schema.
//
// Every declared field is typed, so that clients which check tool schemas
// for portability accept them (the rules of MCP Inspector's tools/list
// --strict, checked by TestSchemasPortable): no schema that constrains
// nothing, no type given as an array (a field that can be null is anyOf a
// typed schema and {"type":"null"}), no bare true or false as a schema, no
// $ref outside the document.

// PageTextDescription describes every page-provided string field of an
// output schema.
const PageTextDescription = "page text"

// Error results ({"error":{…}}) hold no page-provided strings in
// structuredContent (no output schema declares error fields): an error's
// page text is in its text, inside the markers (browser.Error.Text).

var pageType = reflect.TypeFor[browser.Page]()

// outputSchemaOf is the output schema of Out type t, as JSON.
func outputSchemaOf(t reflect.Type) json.RawMessage {
	sc := map[string]any{"type": "object"}
	if props := pageProps(t); len(props) > 0 {
		sc["properties"] = props
	}
	b, err := json.Marshal(sc)
	if err != nil {
		panic(err) // maps of strings
	}
	return b
}

// pageProps are the properties of struct t that hold page text, with their
// schemas; fields of embedded structs count as t's own, as in JSON.
func pageProps(t reflect.Type) map[string]any {
	props := map[string]any{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for k, v := range pageProps(f.Type) {
				props[k] = v
			}
			continue
		}
		tag := strings.Split(f.Tag.Get("json"), ",")
		if !f.IsExported() || tag[0] == "-" || tag[0] == "" {
			continue
		}
		p := pageSchema(f.Type)
		if p == nil {
			continue
		}
		if nullable(f.Type) && !slices.Contains(tag[1:], "omitempty") {
			p = map[string]any{"anyOf": []any{p, map[string]any{"type": "null"}}}
		}
		props[tag[0]] = p
	}
	return props
}

// nullable reports whether encoding/json can write a value of type t as
// null (a nil pointer, slice or map).
func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// pageSchema is the schema of a value of type t when it holds page text,
// else nil.
func pageSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == pageType:
		return map[string]any{"type": "string", "description": PageTextDescription}
	case t.Kind() == reflect.Slice:
		if items := pageSchema(t.Elem()); items != nil {
			return map[string]any{"type": "array", "items": items}
		}
	case t.Kind() == reflect.Struct:
		if props := pageProps(t); len(props) > 0 {
			return map[string]any{"type": "object", "properties": props}
		}
	}
	return nil
}
