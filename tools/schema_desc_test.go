package tools

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// TestEverySchemaPropertyIsDescribed: a client shows the schema to the model,
// so every argument says what it means, and a rule across arguments
// ("exactly one of") is stated in the schema, not only in an error.
func TestEverySchemaPropertyIsDescribed(t *testing.T) {
	for _, tool := range newTable(browser.Options{}).tools {
		for name, p := range tool.schema.Properties {
			if len(p.Description) < 8 {
				t.Errorf("%s.%s has no description", tool.Name, name)
			}
		}
	}
	for tool, props := range map[string][]string{"select_tab": {"tab_id", "index"}, "wait_for": {"text", "selector", "url_contains"}} {
		var def *toolDef
		for _, d := range newTable(browser.Options{}).tools {
			if d.Name == tool {
				def = &d
			}
		}
		if def == nil || !strings.Contains(def.schema.Description, "exactly one of") {
			t.Errorf("%s: the schema does not say \"exactly one of\"", tool)
			continue
		}
		for _, p := range props {
			if !strings.Contains(def.schema.Description, p) {
				t.Errorf("%s: the schema's rule does not name %s", tool, p)
			}
		}
	}
}
