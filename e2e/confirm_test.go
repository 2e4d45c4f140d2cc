package e2e

import (
	"context"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/xwin"
)

// TestConfirmWindowSandboxed: the real binary, sandboxed, asks through its
// window helper process (started before the sandbox) in a real zenity
// window; a yes pays once, the default button refuses; without a display
// the action fails closed.
func TestConfirmWindowSandboxed(t *testing.T) {
	xwin.Need(t, "zenity")
	d := xwin.Start(t)
	ctx := testCtx(t)
	s := startServer(t, ctx, binary, "DISPLAY="+d.Name, "PATH="+os.Getenv("PATH"), "HOME="+t.TempDir())
	_, st := s.must(t, ctx, "browser_status", map[string]any{})
	if c, _ := st["confirmation"].(map[string]any); c["window_available"] != true || c["program"] != "zenity" {
		t.Fatalf("status: %v", st["confirmation"])
	}
	if sb, _ := st["sandbox"].(map[string]any); sb["mode"] != "enforce" {
		t.Fatalf("sandbox: %v", st["sandbox"])
	}
	pay := ref(t, s.open(t, ctx, "/pay.html"), "button", "Pay €49.00")
	go d.Answer(t, "firefox-rdp-mcp: allow a payment", xwin.Allow)
	if txt, _ := s.must(t, ctx, "click", map[string]any{"element": pay}); !strings.Contains(txt, "The user confirmed this action") {
		t.Fatalf("click: %s", txt)
	}
	go d.Answer(t, "firefox-rdp-mcp: allow a payment", xwin.Refuse)
	if _, _, e := s.call(t, ctx, "click", map[string]any{"element": pay}); e == nil || e.Code != "confirmation_refused" {
		t.Fatalf("refused click: %+v", e)
	}
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"selector": `body[data-paid="1"]`, "timeout_ms": 3000}); e != nil {
		t.Fatalf("paid once: %+v", e)
	}

	bare := startServer(t, ctx, binary)
	pay = ref(t, bare.open(t, ctx, "/pay.html"), "button", "Pay €49.00")
	_, _, e := bare.call(t, ctx, "click", map[string]any{"element": pay})
	if e == nil || e.Code != "confirmation_unavailable" || !strings.Contains(e.Message, "apt install zenity") {
		t.Fatalf("no display: %+v", e)
	}
}

// TestConfirmElicitSandboxed: the real binary, sandboxed, with
// FIREFOX_MCP_CONFIRM=elicit and no display: a client that declared
// elicitation (the official Go SDK with a handler) is asked in the client;
// a decline refuses, allow=true pays once. A client without the capability
// gets the window, which cannot be shown here: confirmation_unavailable.
func TestConfirmElicitSandboxed(t *testing.T) {
	ctx := testCtx(t)
	var answer atomic.Value
	s := startServerEliciting(t, ctx, func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		if !strings.Contains(r.Params.Message, "Declining is the safe answer") {
			t.Errorf("message %q", r.Params.Message)
		}
		return answer.Load().(*sdk.ElicitResult), nil
	}, binary, "FIREFOX_RDP_SOCKET="+firefox.Get(t).Socket, "FIREFOX_MCP_LOG_LEVEL=warn", "FIREFOX_MCP_CONFIRM=elicit")
	_, st := s.must(t, ctx, "browser_status", map[string]any{})
	if c, _ := st["confirmation"].(map[string]any); c["asks_in"] != "mcp_client" || c["client_elicitation"] != true || c["window_available"] != false {
		t.Fatalf("status: %v", st["confirmation"])
	}
	pay := ref(t, s.open(t, ctx, "/pay.html"), "button", "Pay €49.00")
	answer.Store(&sdk.ElicitResult{Action: "decline"})
	if _, _, e := s.call(t, ctx, "click", map[string]any{"element": pay}); e == nil || e.Code != "confirmation_refused" {
		t.Fatalf("declined click: %+v", e)
	}
	answer.Store(&sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": true}})
	if txt, _ := s.must(t, ctx, "click", map[string]any{"element": pay}); !strings.Contains(txt, "in your MCP client") {
		t.Fatalf("click: %s", txt)
	}
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"selector": `body[data-paid="1"]`, "timeout_ms": 3000}); e != nil {
		t.Fatalf("paid once: %+v", e)
	}

	bare := startServer(t, ctx, binary, "FIREFOX_MCP_CONFIRM=elicit")
	pay = ref(t, bare.open(t, ctx, "/pay.html"), "button", "Pay €49.00")
	if _, _, e := bare.call(t, ctx, "click", map[string]any{"element": pay}); e == nil || e.Code != "confirmation_unavailable" {
		t.Fatalf("no capability, no display: %+v", e)
	}
}
