package tools

import "github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"

// newTable is the tool table over an engine made with opts (which dials
// nothing until a tool needs Firefox).
func newTable(opts browser.Options) *Table { return New(browser.New(opts)) }
