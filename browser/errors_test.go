package browser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestRetryablePinned pins what every error code tells an agent about
// repeating the same call. Changing one is a change of the tool contract:
// change it here too, on purpose.
func TestRetryablePinned(t *testing.T) {
	want := map[string]bool{
		"invalid_arguments":        false,
		"not_connected":            true,
		"connection_lost":          true,
		"rdp_timeout":              true,
		"rdp_protocol_error":       false,
		"no_tab_selected":          false,
		"tab_not_found":            false,
		"target_replaced":          true,
		"element_not_found":        false,
		"stale_element":            false,
		"element_not_interactable": true,
		"invalid_selector":         false,
		"unsupported_element":      false,
		"navigation_timeout":       true,
		"navigation_failed":        true,
		"page_unresponsive":        true,
		"target_gone":              false,
		"wait_timeout":             true,
		"dialog_open":              false,
		"no_dialog":                false,
		"uploads_disabled":         false,
		"upload_file_invalid":      false,
		"upload_too_large":         false,
		"upload_target_invalid":    false,
		"upload_transfer_failed":   true,
		"upload_assignment_failed": true,
		"page_script_failed":       true,
		"request_not_found":        false,
		"tab_not_owned":            false,
		"history_unavailable":      false,
		"option_not_found":         false,
		"close_blocked":            false,
		"cancelled":                true,
		"internal_error":           false,
	}
	// Every Code constant declared in errors.go has an entry in both tables.
	for _, code := range declaredCodes(t) {
		if _, ok := want[code]; !ok {
			t.Errorf("code %s is not pinned in this test", code)
		}
		if _, ok := retryable[code]; !ok {
			t.Errorf("code %s has no retryable entry", code)
		}
	}
	for code, w := range want {
		if _, ok := retryable[code]; !ok {
			t.Errorf("pinned code %s is not a code of the server", code)
		}
		if got := (&Error{Code: code}).Retryable(); got != w {
			t.Errorf("%s: retryable %v, want %v", code, got, w)
		}
	}
}

// declaredCodes lists the values of the Code* constants in errors.go.
func declaredCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Code") || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			v, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			codes = append(codes, v)
		}
		return true
	})
	if len(codes) < 20 {
		t.Fatalf("found only %d codes in errors.go", len(codes))
	}
	return codes
}

// TestScriptCodes: every code a page script may put in its envelope becomes
// a tool code with the right retryable flag, never the catch-all
// page_script_failed (which claims a retry may help).
func TestScriptCodes(t *testing.T) {
	for _, c := range []struct{ script, tool string }{
		{pagejs.CodeInvalidArgument, CodeInvalidArguments},
		{pagejs.CodeOptionNotFound, CodeOptionNotFound},
		{pagejs.CodeStaleElement, CodeStaleElement},
		{pagejs.CodeElementNotFound, CodeElementNotFound},
		{pagejs.CodeElementNotInteractable, CodeElementNotInteractable},
		{pagejs.CodeInvalidSelector, CodeInvalidSelector},
		{pagejs.CodeUnsupportedElement, CodeUnsupportedElement},
		{pagejs.CodeTabNotFound, CodeTabNotFound},
		{pagejs.CodeUploadTargetInvalid, CodeUploadTargetInvalid},
		{pagejs.CodeUploadTransferFailed, CodeUploadTransferFailed},
		{pagejs.CodeUploadAssignmentFailed, CodeUploadAssignFailed},
		{pagejs.CodeTargetReplaced, CodeTargetReplaced},
		{"internal_error", CodePageScriptFailed},
		{"made_up", CodePageScriptFailed},
	} {
		if got := scriptError(&pagejs.ScriptError{Code: c.script, Message: "m"}).Code; got != c.tool {
			t.Errorf("script code %s became %s, want %s", c.script, got, c.tool)
		}
	}
}

// TestNotConnectedNamesEverything: Firefox opens no port without any one of
// the flag, remote-enabled and chrome.enabled, so not_connected names all
// of them (and the prompt pref), not only the first.
func TestNotConnectedNamesEverything(t *testing.T) {
	cfg := Options{Host: "127.0.0.1", Addr: freeAddr(t), RequestTimeout: time.Second, MaxElements: 1, MaxTextChars: 1}
	s := New(cfg)
	_, e := call(t, s, "snapshot_page", map[string]any{})
	wantCode(t, e, CodeNotConnected)
	for _, want := range []string{"--start-debugger-server ws:" + strconv.Itoa(int(cfg.Addr.Port())), "devtools.debugger.remote-enabled=true",
		"devtools.chrome.enabled=true", "devtools.debugger.prompt-connection=false", "firefox-rdp-mcp setup", "firefox-rdp-mcp doctor"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("not_connected lacks %q: %s", want, e.Message)
		}
	}
	if !e.Retryable() {
		t.Error("not_connected must be retryable: Firefox may be started")
	}
}
