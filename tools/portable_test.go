package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// portabilityRules are the checks MCP Inspector 2.12.0 runs on every tool's
// inputSchema and outputSchema for `tools/list --strict` (its CLI's
// schema lint), one row each; a finding of any of them is a client that may
// reject the tool or drop the constraint.
var portabilityRules = []struct {
	name, reason string
	check        func(node any, keyword string) string // "" when the node passes
}{
	{"boolean-schema", "a bare true/false where a schema object is expected (outside additionalProperties and the like) is not understood by every client",
		func(node any, keyword string) string {
			if _, ok := node.(bool); ok && !booleanValued[keyword] {
				return "bare boolean schema"
			}
			return ""
		}},
	{"type-union", "type given as an array cannot be mapped onto single-type dialects (Gemini's OpenAPI subset); nullable is anyOf with {\"type\":\"null\"}",
		func(node any, _ string) string {
			if m, ok := node.(map[string]any); ok {
				if _, isArr := m["type"].([]any); isArr {
					return "type is an array"
				}
			}
			return ""
		}},
	{"remote-ref", "clients do not fetch remote schemas",
		func(node any, _ string) string {
			if m, ok := node.(map[string]any); ok {
				if ref, _ := m["$ref"].(string); ref != "" && !strings.HasPrefix(ref, "#") {
					return "$ref outside the document"
				}
			}
			return ""
		}},
	{"untyped-schema", "a schema with no validation keyword (e.g. only a description) accepts any value: the field has no type",
		func(node any, keyword string) string {
			m, ok := node.(map[string]any)
			if !ok || keyword == "not" {
				return ""
			}
			for k := range m {
				if constraining[k] {
					return ""
				}
			}
			if _, ok := m["if"]; ok && (m["then"] != nil || m["else"] != nil) {
				return ""
			}
			return "constrains nothing"
		}},
}

// booleanValued are the keywords whose value may be a bare boolean.
var booleanValued = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true,
	"additionalItems": true, "unevaluatedItems": true, "uniqueItems": true, "exclusiveMinimum": true, "exclusiveMaximum": true}

// constraining are the JSON Schema keywords that constrain a value (the
// Inspector's list).
var constraining = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum
		maxLength minLength pattern format maxItems minItems uniqueItems maxContains minContains maxProperties
		minProperties required dependentRequired allOf anyOf oneOf not items prefixItems contains additionalItems
		unevaluatedItems properties patternProperties additionalProperties unevaluatedProperties propertyNames
		dependentSchemas dependencies $ref $dynamicRef $recursiveRef`) {
		constraining[k] = true
	}
}

// lintSchema walks a schema as the Inspector does and returns its findings
// as "path: rule: what".
func lintSchema(node any, path, keyword string) []string {
	var out []string
	for _, r := range portabilityRules {
		if msg := r.check(node, keyword); msg != "" {
			out = append(out, fmt.Sprintf("%s: %s: %s", path, r.name, msg))
		}
	}
	m, ok := node.(map[string]any)
	if !ok {
		return out
	}
	for _, k := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
		sub, _ := m[k].(map[string]any)
		for _, name := range sortedKeys(sub) {
			out = append(out, lintSchema(sub[name], path+"."+k+"."+name, k)...)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		arr, _ := m[k].([]any)
		for i, sub := range arr {
			out = append(out, lintSchema(sub, fmt.Sprintf("%s.%s[%d]", path, k, i), k)...)
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"} {
		if sub, ok := m[k]; ok {
			out = append(out, lintSchema(sub, path+"."+k, k)...)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestSchemasPortable: every tool's input and output schema passes the
// portability rules above (Inspector 2.12.0 `tools/list --strict` printed 34
// untyped-schema warnings for output fields {"description":"page text"}).
func TestSchemasPortable(t *testing.T) {
	for _, r := range portabilityRules {
		t.Logf("rule %s: %s", r.name, r.reason)
	}
	s := newTable(browser.Options{MaxElements: 500, MaxTextChars: 50000})
	for _, tool := range s.Tools() {
		for kind, raw := range map[string]json.RawMessage{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			var sc any
			if err := json.Unmarshal(raw, &sc); err != nil {
				t.Fatalf("%s %s: %v", tool.Name, kind, err)
			}
			for _, f := range lintSchema(sc, kind, "") {
				t.Errorf("tool %s: %s", tool.Name, f)
			}
		}
	}
}

// TestPortabilityRules checks each rule on a schema that breaks it and one
// that does not.
func TestPortabilityRules(t *testing.T) {
	bad := map[string]string{
		"boolean-schema": `{"type":"object","properties":{"x":true}}`,
		"type-union":     `{"type":"object","properties":{"x":{"type":["string","null"]}}}`,
		"remote-ref":     `{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json"}}}`,
		"untyped-schema": `{"type":"object","properties":{"x":{"description":"page text"}}}`,
	}
	good := `{"type":"object","additionalProperties":false,"properties":{"x":{"anyOf":[{"type":"string","description":"page text"},{"type":"null"}]},"y":{"$ref":"#/$defs/y"}},"$defs":{"y":{"type":"integer"}}}`
	for _, r := range portabilityRules {
		var sc any
		if err := json.Unmarshal([]byte(bad[r.name]), &sc); err != nil {
			t.Fatal(err)
		}
		if f := lintSchema(sc, "s", ""); len(f) != 1 || !strings.Contains(f[0], r.name) {
			t.Errorf("rule %s on %s: findings %v", r.name, bad[r.name], f)
		}
	}
	var sc any
	if err := json.Unmarshal([]byte(good), &sc); err != nil {
		t.Fatal(err)
	}
	if f := lintSchema(sc, "s", ""); len(f) != 0 {
		t.Errorf("findings on a portable schema: %v", f)
	}
}
