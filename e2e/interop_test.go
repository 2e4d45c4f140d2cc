package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect starts the real binary under the official SDK's client.
func connect(t *testing.T, ctx context.Context, env ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = env
	client := sdk.NewClient(&sdk.Implementation{Name: "interop-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, ctx context.Context, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%s: structuredContent %s: %v", name, b, err)
	}
	return res, st
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestSDKClientInterop: initialize → tools/list → browser_status →
// list_tabs → select_tab through the official Go SDK against real Firefox.
func TestSDKClientInterop(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs := connect(t, ctx, "FIREFOX_RDP_SOCKET="+ff.Socket)

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "firefox-rdp-mcp" || init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize result: %+v (the Go SDK keeps the 2025-11-25 handshake)", init)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"browser_status": true, "list_tabs": true, "select_tab": true, "snapshot_page": true,
		"click": true, "fill": true, "type_text": true, "press_key": true, "navigate": true, "wait_for": true, "upload_files": true,
		"new_tab": true, "close_tab": true, "hover": true, "scroll": true, "select_option": true, "drag": true}
	// The whole list goes into the model's context with every request.
	// 18 KiB until every output field got its type (+780 bytes) and fill_form
	// came (+1,300); main was at 18.1 KiB by then. 21 KiB until list_downloads,
	// a tool of its own, and wait_for's url came (21,567 bytes then).
	if b, err := json.Marshal(tools); err != nil || len(b) > 22<<10 {
		t.Errorf("tools/list result is %d bytes (%v), more than 22 KiB", len(b), err)
	} else {
		t.Logf("tools/list result: %d bytes for %d tools", len(b), len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		delete(want, tool.Name)
		if tool.Annotations == nil {
			t.Errorf("%s: no annotations", tool.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools missing from tools/list: %v", want)
	}

	_, st := callTool(t, ctx, cs, "browser_status", map[string]any{})
	if st["connected"] != true {
		t.Fatalf("browser_status: not connected: %v", st)
	}
	if sb, _ := st["sandbox"].(map[string]any); sb["mode"] != "enforce" || sb["seccomp"] != true {
		t.Errorf("browser_status sandbox = %v, want enforce with seccomp", st["sandbox"])
	}
	_, st = callTool(t, ctx, cs, "list_tabs", map[string]any{})
	tabs, _ := st["tabs"].([]any)
	if len(tabs) == 0 {
		t.Fatalf("list_tabs: no tabs: %v", st)
	}
	// The tab showing the interop page (Firefox may list others first).
	var first map[string]any
	for _, tab := range tabs {
		if m := tab.(map[string]any); strings.HasPrefix(m["url"].(string), pages.URL) {
			first = m
		}
	}
	if first == nil {
		// Other tests in this package navigate the first tab; bring the page back.
		first = tabs[0].(map[string]any)
		callTool(t, ctx, cs, "select_tab", map[string]any{"tab_id": first["tab_id"]})
		callTool(t, ctx, cs, "navigate", map[string]any{"url": pages.URL + "/", "wait": "complete"})
	}
	res, st := callTool(t, ctx, cs, "select_tab", map[string]any{"tab_id": first["tab_id"]})
	if st["tab_id"] != first["tab_id"] || st["title"] != "E2E fixture" {
		t.Errorf("select_tab = %v", st)
	}
	if !strings.Contains(text(res), "<<<untrusted-page-content ") {
		t.Errorf("select_tab text lacks the untrusted-content markers: %s", text(res))
	}
	_, st = callTool(t, ctx, cs, "browser_status", map[string]any{})
	if sel, _ := st["selected_tab"].(map[string]any); sel["tab_id"] != first["tab_id"] {
		t.Errorf("browser_status selected_tab = %v", st["selected_tab"])
	}

	// A tool error reaches the SDK as isError with the stable shape.
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"element": "e999999"}})
	if err != nil || !r.IsError {
		t.Fatalf("click on an unknown ref: %v, %+v", err, r)
	}
	b, _ := json.Marshal(r.StructuredContent)
	if !strings.Contains(string(b), `"code":"element_not_found"`) {
		t.Errorf("error structuredContent = %s", b)
	}
}
