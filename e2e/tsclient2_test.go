package e2e

import (
	"strings"
	"testing"
)

// tsClientV2 is the official MCP TypeScript v2 client, pinned; npm installs
// it at test set-up into the user cache (never into the repository).
var tsClientV2 = []string{"@modelcontextprotocol/client@2.4.0"}

// ts2Result is what testdata/tsclient2.mjs reports.
type ts2Result struct {
	Version, Era, TransportVersion string
	Discover                       struct {
		SupportedVersions []string
		Capabilities      map[string]any
	}
	Server       struct{ Name, Version string }
	Instructions string
	Tools        []string
	Navigate     struct {
		Text    string
		IsError bool
	}
	Snapshot string
	Fill     struct {
		Text       string
		IsError    bool
		Structured map[string]any
	}
	WaitTimeout struct {
		IsError    bool
		Structured map[string]map[string]any
		Progress   int
	}
	Cancel struct {
		Rejected bool
		Error    string
	}
	AfterCancel struct {
		IsError   bool
		Connected bool
	}
	Sent []struct {
		Method string
		Meta   map[string]any
	}
	Received []struct {
		ResultType string
		ServerInfo *struct{ Name string }
	}
	ServerCancelled, ServerLoggedModern bool
}

// TestTypeScriptV2ClientModern drives the real binary with the official
// TypeScript v2 client negotiating the 2026-07-28 revision (server/discover,
// then requests with the per-request _meta envelope and no initialize):
// tools/list, page tools against real Firefox (navigate, snapshot_page,
// fill), a wait with progress notifications, and a call the client cancels.
func TestTypeScriptV2ClientModern(t *testing.T) {
	var r ts2Result
	runNodeClient(t, tsClientV2, "tsclient2.mjs", &r)
	checkTS2Negotiation(t, r)
	checkTS2Calls(t, r)
}

func checkTS2Negotiation(t *testing.T, r ts2Result) {
	t.Helper()
	if r.Version != "2026-07-28" || r.Era != "modern" || r.TransportVersion != "2026-07-28" {
		t.Errorf("negotiated %q (era %q, transport %q), want 2026-07-28 modern", r.Version, r.Era, r.TransportVersion)
	}
	if strings.Join(r.Discover.SupportedVersions, ",") != "2026-07-28,2025-11-25,2025-06-18,2025-03-26,2024-11-05" || r.Discover.Capabilities["tools"] == nil {
		t.Errorf("server/discover = %+v", r.Discover)
	}
	if r.Server.Name != "firefox-rdp-mcp" || r.Instructions == "" {
		t.Errorf("server info %+v (from the result _meta), instructions %q", r.Server, r.Instructions)
	}
	if len(r.Sent) == 0 {
		t.Fatal("nothing sent")
	}
	for _, s := range r.Sent {
		if s.Method == "initialize" || s.Method == "notifications/initialized" {
			t.Errorf("the modern client sent %s", s.Method)
		}
		if strings.HasPrefix(s.Method, "notifications/") {
			continue
		}
		if s.Meta["io.modelcontextprotocol/protocolVersion"] != "2026-07-28" || s.Meta["io.modelcontextprotocol/clientCapabilities"] == nil {
			t.Errorf("%s sent without the envelope: %v", s.Method, s.Meta)
		}
	}
	if len(r.Received) == 0 {
		t.Error("no results seen")
	}
	for i, rc := range r.Received {
		if rc.ResultType != "complete" || rc.ServerInfo == nil || rc.ServerInfo.Name != "firefox-rdp-mcp" {
			t.Errorf("result %d: resultType %q, serverInfo %+v", i, rc.ResultType, rc.ServerInfo)
		}
	}
}

func checkTS2Calls(t *testing.T, r ts2Result) {
	t.Helper()
	if !strings.Contains(","+strings.Join(r.Tools, ",")+",", ",snapshot_page,") {
		t.Errorf("tools = %v", r.Tools)
	}
	if r.Navigate.IsError || !strings.Contains(r.Snapshot, `textbox "Search by title"`) {
		t.Errorf("navigate %+v; snapshot:\n%s", r.Navigate, r.Snapshot)
	}
	if r.Fill.IsError || !strings.Contains(r.Fill.Text, "trusted") || r.Fill.Structured == nil {
		t.Errorf("fill = %+v", r.Fill)
	}
	if !r.WaitTimeout.IsError || r.WaitTimeout.Structured["error"]["code"] != "wait_timeout" || r.WaitTimeout.Progress == 0 {
		t.Errorf("wait_for timeout = %+v (want wait_timeout with progress notifications)", r.WaitTimeout)
	}
	if !r.Cancel.Rejected || !r.ServerCancelled {
		t.Errorf("cancelled call: %+v; the server saw the cancellation: %v", r.Cancel, r.ServerCancelled)
	}
	if r.AfterCancel.IsError || !r.AfterCancel.Connected {
		t.Errorf("browser_status after the cancellation = %+v", r.AfterCancel)
	}
	if !r.ServerLoggedModern {
		t.Error("the server did not log a modern request")
	}
}
