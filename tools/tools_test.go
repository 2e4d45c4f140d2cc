package tools

import (
	"encoding/json"
	"errors"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"reflect"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

func TestToolTableIsWellFormed(t *testing.T) {
	s := newTable(browser.Options{MaxElements: 777, MaxTextChars: 1234})
	seen := map[string]bool{}
	for _, tool := range s.Tools() {
		if seen[tool.Name] {
			t.Errorf("duplicate tool %s", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Title == "" || len(tool.Description) < 40 {
			t.Errorf("%s: title or description missing", tool.Name)
		}
		var sc map[string]any
		if err := json.Unmarshal(tool.InputSchema, &sc); err != nil || sc["additionalProperties"] != false || sc["type"] != "object" {
			t.Errorf("%s: schema %s", tool.Name, tool.InputSchema)
		}
		if tool.Annotations.ReadOnly && tool.Annotations.Destructive {
			t.Errorf("%s: read-only and destructive", tool.Name)
		}
	}
	// Configured limits reach the advertised schema.
	var snap *Tool
	for _, tool := range s.Tools() {
		if tool.Name == "snapshot_page" {
			snap = &tool
		}
	}
	if snap == nil || !strings.Contains(string(snap.InputSchema), `"maximum":777`) || !strings.Contains(string(snap.InputSchema), `"maximum":1234`) {
		t.Errorf("snapshot_page schema lacks configured limits: %s", snap.InputSchema)
	}
	for _, ro := range []string{"browser_status", "list_tabs", "snapshot_page", "wait_for"} {
		if !s.byKey[ro].Annotations.ReadOnly {
			t.Errorf("%s should be read-only", ro)
		}
	}
	// Tools that change what the server or the page is doing are not read-only
	// (select_tab changes the selection and starts a new generation).
	for _, name := range []string{"select_tab", "new_tab", "close_tab", "hover", "scroll", "select_option", "drag", "type_text", "handle_dialog"} {
		if s.byKey[name].Annotations.ReadOnly {
			t.Errorf("%s must not be read-only", name)
		}
	}
	for _, d := range []string{"click", "fill", "press_key", "navigate", "upload_files", "close_tab", "select_option", "drag"} {
		if !s.byKey[d].Annotations.Destructive || s.byKey[d].Annotations.ReadOnly {
			t.Errorf("%s should be destructive", d)
		}
	}
}

func TestDecodeArgs(t *testing.T) {
	s := newTable(browser.Options{MaxElements: 500, MaxTextChars: 50000})
	call := func(tool, args string) error {
		td := s.byKey[tool]
		return decodeArgs(td.schema, json.RawMessage(args), reflect.New(td.in).Interface())
	}
	good := [][2]string{
		{"fill", `{"element":"e1","value":""}`},
		{"fill", `{"element":"e1","value":"x","submit":null}`},
		{"wait_for", `{"text":"hi","timeout_ms":0,"poll_ms":50}`},
		{"snapshot_page", `{}`},
		{"snapshot_page", `{"max_elements":500}`},
		{"browser_status", ``},
		{"browser_status", `null`},
		{"upload_files", `{"element":"e3","paths":["/tmp/a"]}`},
	}
	for _, g := range good {
		if err := call(g[0], g[1]); err != nil {
			t.Errorf("%s %s: %v", g[0], g[1], err)
		}
	}
	bad := []struct{ tool, args, want string }{
		{"fill", `{"element":"e1"}`, `missing required argument "value"`},
		{"fill", `{"element":"e1","value":"x","Value":"y"}`, `unknown argument "Value"`},
		{"fill", `{"element":"e1","value":"x","value":"y"}`, `given twice`},
		{"fill", `{"element":"e1","value":1}`, `must be a string`},
		{"fill", `{"element":"e1","value":"x","submit":"yes"}`, `true or false`},
		{"fill", `{"element":null,"value":"x"}`, `must be a string, not null`},
		{"fill", `[1]`, `JSON object`},
		{"fill", `{"element":"e1","value":"` + strings.Repeat("é", 100001) + `"}`, `100001 characters; the maximum is 100000`},
		{"wait_for", `{"text":"a","poll_ms":49}`, `at least 50`},
		{"wait_for", `{"text":"a","timeout_ms":1.5}`, `whole number`},
		{"wait_for", `{"text":"a","state":"gone"}`, `one of present, absent`},
		{"wait_for", `{"text":"a","selector":"b"}`, `exactly one of text, selector, url_contains or url`},
		{"wait_for", `{}`, `exactly one of text, selector, url_contains or url`},
		{"wait_for", `{"url":"**/orders/*","url_contains":"/orders"}`, `exactly one of text, selector, url_contains or url`},
		{"navigate", `{"url":"https://a.example/","history":"back"}`, `exactly one of url`},
		{"select_tab", `{}`, `exactly one of tab_id or index`},
		{"snapshot_page", `{"max_elements":501}`, `at most 500`},
		{"upload_files", `{"element":"e3","paths":[]}`, `at least 1`},
		{"upload_files", `{"element":"e3","paths":[""]}`, `paths[0]`},
		{"browser_status", `{"x":1}`, `unknown argument "x" (allowed: none)`},
	}
	for _, b := range bad {
		err := call(b.tool, b.args)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s %.60s: err = %v, want it to contain %q", b.tool, b.args, err, b.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, ok := range []string{"https://example.com/", "http://127.0.0.1:8080/a?b=c#d"} {
		if _, err := checkURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "chrome://browser/content",
		"resource://gre/", "about:config", "ftp://x/", "//example.com", "/relative", "https://user:pw@example.com/", "HTTPS:/x", "view-source:https://a.b/"} {
		if _, err := checkURL(bad); !errors.Is(err, &browser.Error{Code: errcode.InvalidArguments}) {
			t.Errorf("%s accepted (err %v)", bad, err)
		}
	}
	// A host written without its scheme is refused with the URL it may have meant.
	for raw, want := range map[string]string{
		"example.com/jobs":     `"https://example.com/jobs"`,
		"www.example.com":      `"https://www.example.com"`,
		"localhost:8080/x":     `"http://localhost:8080/x" (or https://)`,
		"127.0.0.1:8080":       `"http://127.0.0.1:8080" (or https://)`,
		"tel:5551234":          "only http and https",
		"/relative/page.html":  "must be absolute",
		"mailto:a@example.com": "only http and https",
	} {
		_, err := checkURL(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to contain %s", raw, err, want)
		}
	}
}

// TestOutputSchemas: every tool has an output schema (type object, no
// required fields, so error results fit it too), and the schema derived
// from its Out type declares its page-provided fields with the shared
// description.
func TestOutputSchemas(t *testing.T) {
	for _, tool := range toolTable() {
		var sc map[string]any
		if err := json.Unmarshal(tool.OutputSchema, &sc); err != nil || sc["type"] != "object" {
			t.Errorf("%s: output schema %s (%v)", tool.Name, tool.OutputSchema, err)
			continue
		}
		if strings.Contains(string(tool.OutputSchema), `"required"`) {
			t.Errorf("%s: output schema requires fields; error results would not fit it", tool.Name)
		}
	}
	type inner struct {
		Text browser.Page   `json:"text"`
		N    int            `json:"n"`
		Tags []browser.Page `json:"tags"`
	}
	type out struct {
		said
		acted
		checked
		opened
		Title browser.Page  `json:"title"`
		Maybe *browser.Page `json:"maybe,omitempty"`
		Rows  []inner       `json:"rows"`
		Plain string        `json:"plain"`
	}
	got := string(outputSchemaOf(reflect.TypeFor[out]()))
	want := `{"properties":{"dialog":{"properties":{"text":{"description":"page text","type":"string"}},"type":"object"},` +
		`"frame_origin":{"description":"page text","type":"string"},"maybe":{"description":"page text","type":"string"},` +
		`"rows":{"anyOf":[{"items":{"properties":{"tags":{"anyOf":[{"items":{"description":"page text","type":"string"},"type":"array"},{"type":"null"}]},` +
		`"text":{"description":"page text","type":"string"}},"type":"object"},"type":"array"},{"type":"null"}]},` +
		`"title":{"description":"page text","type":"string"},"url":{"description":"page text","type":"string"}},"type":"object"}`
	if got != want {
		t.Errorf("derived output schema\n got %s\nwant %s", got, want)
	}
}

// TestToolsListSize: the tools' descriptions and schemas stay within
// 20 KiB, so that tools/list as the binary sends it (with titles and
// annotations; e2e TestToolsListIsCompact holds it to 21,000 bytes) stays
// small in a model's context. The figure and the room left are printed.
// (17 KiB until every output field got its type for clients that check
// schemas, +780 bytes, and fill_form came, +1,300 bytes; 19 KiB until
// list_downloads, a tool of its own, and wait_for's url came, +930 bytes.)
func TestToolsListSize(t *testing.T) {
	const budget = 20 << 10
	s := newTable(browser.Options{MaxElements: 500, MaxTextChars: 50000})
	type wire struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	}
	var tools []wire
	out := 0
	for _, tool := range s.Tools() {
		tools = append(tools, wire{tool.Name, tool.Title, tool.Description, tool.InputSchema, tool.OutputSchema})
		out += len(tool.OutputSchema)
	}
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	n := len(b)
	t.Logf("tools: %d bytes for %d tools (%d of them output schemas); %d bytes left of %d",
		n, len(tools), out, budget-n, budget)
	if n > budget {
		t.Errorf("the tools take %d bytes, over the %d-byte budget", n, budget)
	}
}
