package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// TestEveryToolDecodesItsArguments is derived from the tool table, not a
// hand list: for every tool it builds a minimal valid call from the
// schema, checks that it decodes and that every default lands in the
// argument struct, then breaks each argument in every way its schema
// forbids (wrong type, too short or long, too small or large, too few or
// many items, outside the enum, an unknown key, the "exactly one of"
// rules) and checks each is refused naming the argument.
func TestEveryToolDecodesItsArguments(t *testing.T) {
	s := newTable(browser.Options{MaxElements: 500, MaxTextChars: 50000})
	if len(s.tools) < 22 {
		t.Fatalf("only %d tools in the table", len(s.tools))
	}
	for _, td := range s.tools {
		t.Run(td.Name, func(t *testing.T) {
			valid := minimalArgs(td.schema)
			out := reflect.New(td.in)
			if err := decodeArgs(td.schema, mustJSON(t, valid), out.Interface()); err != nil {
				t.Fatalf("minimal call %v: %v", valid, err)
			}
			checkDefaults(t, td.schema, out.Elem())
			for name, p := range td.schema.Properties {
				for _, bad := range badValues(p) {
					args := maps.Clone(valid)
					args[name] = bad
					err := decodeArgs(td.schema, mustJSON(t, args), reflect.New(td.in).Interface())
					if err == nil || !strings.Contains(err.Error(), `"`+name) {
						t.Errorf("%s=%.40v: err = %v, want a refusal naming %s", name, bad, err, name)
					}
				}
			}
			args := maps.Clone(valid)
			args["no_such_argument"] = 1
			if err := decodeArgs(td.schema, mustJSON(t, args), reflect.New(td.in).Interface()); err == nil {
				t.Errorf("an unknown argument was accepted")
			}
			for _, r := range td.schema.oneOf {
				checkOneOf(t, td, valid, r)
			}
		})
	}
}

// minimalArgs gives every required argument, and the first of each
// "exactly one of" rule, its smallest valid value.
func minimalArgs(s *schema) map[string]any {
	args := map[string]any{}
	for _, r := range s.Required {
		args[r] = validValue(s.Properties[r])
	}
	for _, r := range s.oneOf {
		args[r.names[0]] = validValue(s.Properties[r.names[0]])
	}
	return args
}

func validValue(p *schema) any {
	if len(p.AnyOf) > 0 {
		return validValue(p.AnyOf[0])
	}
	switch p.Type {
	case "object":
		return minimalArgs(p)
	case "string":
		if len(p.Enum) > 0 {
			return p.Enum[0]
		}
		n := 2
		if p.MinLength != nil {
			n = max(n, *p.MinLength)
		}
		return "e" + strings.Repeat("1", n-1)
	case "integer":
		if p.Minimum != nil {
			return int(*p.Minimum)
		}
		return 0
	case "boolean":
		return true
	case "array":
		return []any{validValue(p.Items)}
	}
	panic("no valid value for a " + p.Type)
}

// badValues are values p's schema refuses.
func badValues(p *schema) []any {
	bad := []any{map[string]any{}}
	switch p.Type {
	case "string":
		bad = append(bad, 7, true)
		if p.MinLength != nil && *p.MinLength > 0 {
			bad = append(bad, strings.Repeat("x", *p.MinLength-1))
		}
		if p.MaxLength != nil {
			bad = append(bad, strings.Repeat("x", *p.MaxLength+1))
		}
		if len(p.Enum) > 0 {
			bad = append(bad, "not-"+p.Enum[0])
		}
	case "integer":
		bad = append(bad, "1", 1.5)
		if p.Minimum != nil {
			bad = append(bad, *p.Minimum-1)
		}
		if p.Maximum != nil {
			bad = append(bad, *p.Maximum+1)
		}
	case "boolean":
		bad = append(bad, "true", 1)
	case "": // anyOf
		bad = append(bad, 7, []any{})
		for _, alt := range p.AnyOf {
			if alt.Type == "string" && alt.MaxLength != nil {
				bad = append(bad, strings.Repeat("x", *alt.MaxLength+1))
			}
		}
	case "array":
		bad = append(bad, "x", []any{7})
		if p.Items.Type == "object" {
			unknown := minimalArgs(p.Items)
			unknown["no_such_member"] = 1
			bad = append(bad, []any{unknown}, []any{map[string]any{}})
			for name, q := range p.Items.Properties {
				for _, b := range badValues(q) {
					item := minimalArgs(p.Items)
					item[name] = b
					bad = append(bad, []any{item})
				}
			}
		}
		if p.MinItems != nil && *p.MinItems > 0 {
			bad = append(bad, []any{})
		}
		if p.MaxItems != nil {
			bad = append(bad, slices.Repeat([]any{validValue(p.Items)}, *p.MaxItems+1))
		}
	}
	return bad
}

// checkDefaults: every argument with a default that the call left out
// holds the default in the decoded struct.
func checkDefaults(t *testing.T, s *schema, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		p := s.Properties[name]
		if p == nil || p.Default == nil {
			continue
		}
		if got, want := fmt.Sprint(v.Field(i).Interface()), fmt.Sprint(p.Default); got != want {
			t.Errorf("%s: decoded %s, default %s", name, got, want)
		}
	}
}

// checkOneOf: none, and two, of a rule's arguments are refused with its
// message, and the schema states the rule.
func checkOneOf(t *testing.T, td toolDef, valid map[string]any, r oneOf) {
	t.Helper()
	none := maps.Clone(valid)
	for _, n := range r.names {
		delete(none, n)
	}
	two := maps.Clone(valid)
	two[r.names[1]] = validValue(td.schema.Properties[r.names[1]])
	for _, args := range []map[string]any{none, two} {
		err := decodeArgs(td.schema, mustJSON(t, args), reflect.New(td.in).Interface())
		if err == nil || err.Error() != r.msg {
			t.Errorf("%v: err = %v, want %q", args, err, r.msg)
		}
	}
	if !strings.Contains(td.schema.Description, "exactly one of "+orList(r.names)) {
		t.Errorf("the schema does not state the rule over %v: %q", r.names, td.schema.Description)
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestClickWaitDefaultIsTheSettleCap: click's wait_after_ms default (a tag)
// and the cap every other action settles with are one figure.
func TestClickWaitDefaultIsTheSettleCap(t *testing.T) {
	s := newTable(browser.Options{})
	if d := s.byKey["click"].schema.Properties["wait_after_ms"].Default; d != int(browser.DefaultSettleCap.Milliseconds()) {
		t.Errorf("click's wait_after_ms defaults to %v, the settle cap is %v", d, browser.DefaultSettleCap)
	}
}

// TestAnswerShapesErrors: a failed call is one tool error result, its text
// the code and message and its structured content {"error":{code, message,
// retryable}}; an unknown tool is ok == false.
func TestAnswerShapesErrors(t *testing.T) {
	s := newTable(browser.Options{})
	res, ok := s.Answer(t.Context(), "select_tab", json.RawMessage(`{}`), nil)
	st, _ := res.Structured.(map[string]any)
	e, _ := st["error"].(map[string]any)
	if !ok || !res.IsError || !strings.HasPrefix(res.Text, "invalid_arguments: give exactly one of tab_id or index") ||
		e["code"] != string(errcode.InvalidArguments) || e["retryable"] != false {
		t.Errorf("Answer = %+v, %v", res, ok)
	}
	if _, ok := s.Answer(t.Context(), "no_such_tool", nil, nil); ok {
		t.Error("an unknown tool was answered")
	}
}
