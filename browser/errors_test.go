package browser

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
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
	// Every tool code errcode defines is pinned here, and every pinned code
	// is a tool code (errcode's own test checks each constant is in its
	// table).
	var codes int
	for _, code := range errcode.All() {
		if !code.Tool() {
			continue
		}
		codes++
		if _, ok := want[string(code)]; !ok {
			t.Errorf("code %s is not pinned in this test", code)
		}
	}
	if codes < 20 {
		t.Fatalf("errcode defines only %d tool codes", codes)
	}
	for code, w := range want {
		if !errcode.Code(code).Tool() {
			t.Errorf("pinned code %s is not a code of the server", code)
		}
		if got := (&Error{Code: errcode.Code(code)}).Retryable(); got != w {
			t.Errorf("%s: retryable %v, want %v", code, got, w)
		}
	}
}

// TestScriptCodes: every code a page script may put in its envelope becomes
// a tool code with the right retryable flag, never the catch-all
// page_script_failed (which claims a retry may help). What a script may
// not claim (internal_error, the resident-call code, a page's own word)
// is page_script_failed.
func TestScriptCodes(t *testing.T) {
	for _, c := range []struct{ script, tool errcode.Code }{
		{"invalid_argument", errcode.InvalidArguments},
		{"invalid_arguments", errcode.InvalidArguments},
		{"option_not_found", errcode.OptionNotFound},
		{"stale_element", errcode.StaleElement},
		{"element_not_found", errcode.ElementNotFound},
		{"element_not_interactable", errcode.ElementNotInteractable},
		{"invalid_selector", errcode.InvalidSelector},
		{"unsupported_element", errcode.UnsupportedElement},
		{"tab_not_found", errcode.TabNotFound},
		{"history_unavailable", errcode.HistoryUnavailable},
		{"upload_target_invalid", errcode.UploadTargetInvalid},
		{"upload_transfer_failed", errcode.UploadTransferFailed},
		{"upload_assignment_failed", errcode.UploadAssignmentFailed},
		{"target_replaced", errcode.TargetReplaced},
		{"internal_error", errcode.PageScriptFailed},
		{"not_connected", errcode.PageScriptFailed},    // a page-realm page could throw it:
		{"uploads_disabled", errcode.PageScriptFailed}, // the server's claims never come from a script
		{"dialog_open", errcode.PageScriptFailed},
		{"resident_missing", errcode.PageScriptFailed},
		{"broker_protocol", errcode.PageScriptFailed},
		{"made_up", errcode.PageScriptFailed},
		{"", errcode.PageScriptFailed},
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
	wantCode(t, e, errcode.NotConnected)
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
