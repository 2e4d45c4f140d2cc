package browser_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
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
		"confirmation_refused":     false,
		"confirmation_unavailable": false,
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
		if got := (&browser.Error{Code: errcode.Code(code)}).Retryable(); got != w {
			t.Errorf("%s: retryable %v, want %v", code, got, w)
		}
	}
}

// TestNotConnectedNamesEverything: Firefox opens no port without any one of
// the flag, remote-enabled and chrome.enabled, so not_connected names all
// of them (and the prompt pref), not only the first.
func TestNotConnectedNamesEverything(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "rdp.sock")
	cfg := browser.Options{Socket: sock, RequestTimeout: time.Second, MaxElements: 1, MaxTextChars: 1}
	s := wrap(browser.New(cfg))
	_, e := call(t, s, "snapshot_page", map[string]any{})
	wantCode(t, e, errcode.NotConnected)
	for _, want := range []string{"unix:" + sock, "--start-debugger-server " + sock, "devtools.debugger.remote-enabled=true",
		"devtools.chrome.enabled=true", "devtools.debugger.prompt-connection=false", "firefox-rdp-mcp setup", "firefox-rdp-mcp doctor"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("not_connected lacks %q: %s", want, e.Message)
		}
	}
	// The ws: endpoint names its port.
	ws := browser.Options{Host: "127.0.0.1", Addr: freeAddr(t), RequestTimeout: time.Second, MaxElements: 1, MaxTextChars: 1}
	_, e = call(t, wrap(browser.New(ws)), "snapshot_page", map[string]any{})
	if want := "--start-debugger-server ws:" + strconv.Itoa(int(ws.Addr.Port())); !strings.Contains(e.Message, want) {
		t.Errorf("not_connected lacks %q: %s", want, e.Message)
	}
	if !e.Retryable() {
		t.Error("not_connected must be retryable: Firefox may be started")
	}
}
