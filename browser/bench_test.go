package browser_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
)

// Benchmarks of the tool handlers against real Firefox, realm by realm
// (the "hidden cost" of the isolated realm). The full MCP path through the
// binary is measured in e2e. Each reports the median in ms; run with
// -benchtime=20x or more.

func benchSession(b *testing.B, realm string) *session {
	b.Helper()
	return newSession(b, func(o *browser.Options) {
		o.MaxElements = 5000
		o.MaxTextChars = 300000
		switch realm {
		case "page":
			o.PageRealmOnly = true
		case "read-page":
			o.ReadInPageRealm = true
		case "read-isolated":
			o.ReadInIsolatedRealm = true
		case "unbound":
			o.NoNodeBinding = true
		}
	})
}

var fixtureServer *httptest.Server

func fixtureURL(b testing.TB, path string) string {
	if fixtureServer == nil {
		fixtureServer = fixtures.Server()
	}
	return fixtureServer.URL + path
}

func BenchmarkSnapshotLarge(b *testing.B) {
	// realm=unbound: refs not bound to nodes (the cost of binding.go).
	for _, realm := range []string{"unbound", "default", "unbound", "default", "read-isolated"} {
		b.Run("realm="+realm, func(b *testing.B) {
			s := benchSession(b, realm)
			must(b, s, "select_tab", map[string]any{"index": 0})
			must(b, s, "navigate", map[string]any{"url": fixtureURL(b, "/large.html"), "wait": "complete"})
			var text string
			benchutil.Run(b, nil, func() {
				text = must(b, s, "snapshot_page", map[string]any{"max_elements": 5000}).Text
			})
			benchutil.ReportLines(b, text)
		})
	}
}

func BenchmarkActions(b *testing.B) {
	for _, realm := range []string{"isolated", "page"} {
		b.Run("realm="+realm, func(b *testing.B) {
			s := benchSession(b, realm)
			open(b, s, "form.html")
			snap := snapshot(b, s)
			goBtn, name, notes := ref(b, snap, "button", "Go"), ref(b, snap, "textbox", "Name"), ref(b, snap, "textbox", "Notes")
			b.Run("click-wait0", func(b *testing.B) {
				benchutil.Run(b, nil, func() { must(b, s, "click", map[string]any{"element": goBtn, "wait_after_ms": 0}) })
			})
			b.Run("click-default", func(b *testing.B) {
				benchutil.Run(b, nil, func() { must(b, s, "click", map[string]any{"element": goBtn}) })
			})
			b.Run("fill", func(b *testing.B) {
				benchutil.Run(b, nil, func() { must(b, s, "fill", map[string]any{"element": name, "value": "Ada Lovelace"}) })
			})
			b.Run("type100", func(b *testing.B) {
				benchutil.Run(b, func() {
					must(b, s, "fill", map[string]any{"element": notes, "value": ""})
				}, func() {
					must(b, s, "type_text", map[string]any{"element": notes, "text": strings.Repeat("abcdefghij", 10)})
				})
			})
		})
	}
}

// BenchmarkFrameActions: a click inside a cross-origin frame (the portal's
// application form, beside three other visible frames), without and with
// the delta (which compares the frames' documents too).
func BenchmarkFrameActions(b *testing.B) {
	s := benchSession(b, "isolated")
	openPortal(b, s)
	waitText(b, s, "apply ready")
	waitText(b, s, "consent ready")
	verify := ref(b, snapshot(b, s), "button", "Verify email")
	b.Run("click-wait0-no-delta", func(b *testing.B) {
		benchutil.Run(b, nil, func() {
			must(b, s, "click", map[string]any{"element": verify, "wait_after_ms": 0, "observe": false})
		})
	})
	b.Run("click-wait0-delta", func(b *testing.B) {
		benchutil.Run(b, nil, func() { must(b, s, "click", map[string]any{"element": verify, "wait_after_ms": 0}) })
	})
}

// BenchmarkFillForm: the six value fields and the checkbox of form.html in one
// fill_form call, against the same seven fields filled one call each (fill, and
// click for the checkbox); both with the default wait and delta, on a freshly
// loaded form each time. Reports the median ms and the characters the model reads.
func BenchmarkFillForm(b *testing.B) {
	s := benchSession(b, "isolated")
	var fields []map[string]any
	load := func() {
		open(b, s, "form.html")
		snap := snapshot(b, s)
		fields = []map[string]any{
			{"element": ref(b, snap, "textbox", "Name"), "value": "Ada"},
			{"element": ref(b, snap, "textbox", "Controlled"), "value": "Lovelace"},
			{"element": ref(b, snap, "textbox", "Password"), "value": "pw"},
			{"element": ref(b, snap, "combobox", "Color"), "value": "Green"},
			{"element": ref(b, snap, "textbox", "Editor"), "value": "Hello"},
			{"element": ref(b, snap, "textbox", "Notes"), "value": "notes"},
			{"element": ref(b, snap, "checkbox", "I agree"), "value": true},
		}
	}
	b.Run("fill_form", func(b *testing.B) {
		chars := 0
		benchutil.Run(b, load, func() {
			chars = len(must(b, s, "fill_form", map[string]any{"fields": fields}).Text)
		})
		b.ReportMetric(float64(chars), "chars")
	})
	b.Run("one-call-each", func(b *testing.B) {
		chars := 0
		benchutil.Run(b, load, func() {
			chars = 0
			for _, f := range fields[:6] {
				chars += len(must(b, s, "fill", f).Text)
			}
			chars += len(must(b, s, "click", map[string]any{"element": fields[6]["element"]}).Text)
		})
		b.ReportMetric(float64(chars), "chars")
	})
}
