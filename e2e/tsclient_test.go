package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// tsSDK is the official MCP TypeScript SDK, pinned; npm installs it at test
// set-up into the user cache (never into the repository).
var tsSDK = []string{"@modelcontextprotocol/sdk@1.32.2"}

// tsResult is what testdata/tsclient.mjs reports.
type tsResult struct {
	ProtocolVersion string
	Server          struct{ Name, Version string }
	Instructions    string
	Tools           []string
	SelectTabSchema struct {
		Description string `json:"description"`
	}
	Status   map[string]any
	Navigate struct {
		Text       string
		Structured map[string]any
		IsError    bool
	}
	Snapshot string
	Fill     struct {
		Text    string
		IsError bool
	}
	WaitTimeout struct {
		IsError    bool
		Structured map[string]map[string]any
		Progress   int
	}
	BadRef struct {
		IsError    bool
		Structured map[string]map[string]any
	}
	Invalid struct {
		IsError    bool
		Structured map[string]map[string]any
	}
	SecondProcess string
}

// TestTypeScriptSDKClient drives the real binary with the official
// TypeScript SDK's client (stdio), alongside the Go SDK tests: handshake,
// tools/list, a first page tool with no tab selected, fill, a wait that
// times out with progress notifications, tool errors, and a second process
// that finds the same tab.
func TestTypeScriptSDKClient(t *testing.T) {
	var r tsResult
	runNodeClient(t, tsSDK, "tsclient.mjs", &r)
	checkTSResult(t, r)
}

// runNodeClient runs testdata/<script> with node, next to the pinned npm
// packages libs, against the binary, the demo page and the shared Firefox,
// and decodes the one JSON object it prints into out.
func runNodeClient(t *testing.T, libs []string, script string, out any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node not found: %v", err)
	}
	mods := npmlibs.Dir(t, libs...)
	src, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	// ES modules resolve packages from the script's own directory.
	run := filepath.Join(filepath.Dir(mods), script)
	if err := os.WriteFile(run, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, run, binary, fx.URL+"/demo.html")
	cmd.Env = append(os.Environ(), "FIREFOX_RDP_SOCKET="+ff.Socket)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", script, err, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s output: %v\n%s", script, err, b)
	}
}

func checkTSResult(t *testing.T, r tsResult) {
	t.Helper()
	if r.ProtocolVersion != "2025-11-25" {
		t.Errorf("the 1.32.2 client negotiated %q, want 2025-11-25", r.ProtocolVersion)
	}
	if r.Server.Name != "firefox-rdp-mcp" || r.Instructions == "" {
		t.Errorf("server info %+v, instructions %q", r.Server, r.Instructions)
	}
	if strings.Join(r.Tools, ",") == "" || !strings.Contains(","+strings.Join(r.Tools, ",")+",", ",snapshot_page,") {
		t.Errorf("tools = %v", r.Tools)
	}
	if !strings.Contains(r.SelectTabSchema.Description, "exactly one of") {
		t.Errorf("select_tab schema as the client sees it: %+v", r.SelectTabSchema)
	}
	if r.Status["connected"] != true {
		t.Errorf("browser_status = %v", r.Status)
	}
	if r.Navigate.IsError || !strings.Contains(r.Navigate.Text, "No tab was selected") || r.Navigate.Structured["auto_selected_tab"] == nil {
		t.Errorf("navigate without select_tab: %+v", r.Navigate)
	}
	if !strings.Contains(r.Snapshot, "<<<untrusted-page-content ") || !strings.Contains(r.Snapshot, `textbox "Search by title"`) {
		t.Errorf("snapshot:\n%s", r.Snapshot)
	}
	if r.Fill.IsError || !strings.Contains(r.Fill.Text, "trusted") {
		t.Errorf("fill = %+v", r.Fill)
	}
	if !r.WaitTimeout.IsError || r.WaitTimeout.Structured["error"]["code"] != "wait_timeout" || r.WaitTimeout.Progress == 0 {
		t.Errorf("wait_for timeout = %+v (want wait_timeout with progress notifications)", r.WaitTimeout)
	}
	if e := r.BadRef.Structured["error"]; !r.BadRef.IsError || e["code"] != "element_not_found" || e["retryable"] != false {
		t.Errorf("click on an unknown ref = %+v", r.BadRef)
	}
	if e := r.Invalid.Structured["error"]; !r.Invalid.IsError || e["code"] != "invalid_arguments" || e["retryable"] != false {
		t.Errorf("select_tab with both arguments = %+v", r.Invalid)
	}
	if !strings.Contains(r.SecondProcess, "No tab was selected") || !strings.Contains(r.SecondProcess, `textbox "Search by title"`) {
		t.Errorf("second process's snapshot:\n%s", r.SecondProcess)
	}
}
