package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is the real binary under the SDK client, with its process at hand
// (for RSS readings) and the progress notifications it sent.
type server struct {
	cs       *sdk.ClientSession
	cmd      *exec.Cmd
	mu       sync.Mutex
	progress []float64
}

// startServer runs the binary against the shared Firefox with extra
// environment variables.
func startServer(t testing.TB, ctx context.Context, bin string, env ...string) *server {
	t.Helper()
	return startServerOn(t, ctx, firefox.Get(t), bin, env...)
}

// startServerOn runs the binary against the Firefox ff.
func startServerOn(t testing.TB, ctx context.Context, ff *headless.Firefox, bin string, env ...string) *server {
	t.Helper()
	return startServerWith(t, ctx, bin, append([]string{"FIREFOX_RDP_SOCKET=" + ff.Socket, "FIREFOX_MCP_LOG_LEVEL=warn"}, env...)...)
}

// startServerWith runs the binary with exactly env.
func startServerWith(t testing.TB, ctx context.Context, bin string, env ...string) *server {
	t.Helper()
	return startServerEliciting(t, ctx, nil, bin, env...)
}

// startServerEliciting runs the binary with exactly env under a client
// that answers elicitation requests with elicit (nil: the client declares
// no elicitation).
func startServerEliciting(t testing.TB, ctx context.Context, elicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error),
	bin string, env ...string) *server {
	t.Helper()
	s := &server{cmd: exec.Command(bin)}
	s.cmd.Env = env
	s.cmd.Stderr = os.Stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.mu.Lock()
			s.progress = append(s.progress, req.Params.Progress)
			s.mu.Unlock()
		},
		ElicitationHandler: elicit,
	})
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: s.cmd}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	s.cs = cs
	t.Cleanup(func() { cs.Close() })
	return s
}

// toolErr is a tool's error result, or nil.
type toolErr struct{ Code, Message, Phase string }

func (s *server) call(t testing.TB, ctx context.Context, name string, args map[string]any) (string, map[string]any, *toolErr) {
	t.Helper()
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken("p-" + name)
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		return "", nil, &toolErr{Code: "transport", Message: err.Error()}
	}
	b, _ := json.Marshal(res.StructuredContent)
	var st map[string]any
	json.Unmarshal(b, &st)
	if res.IsError {
		e, _ := st["error"].(map[string]any)
		te := &toolErr{}
		te.Code, _ = e["code"].(string)
		te.Message, _ = e["message"].(string)
		te.Phase, _ = e["phase"].(string)
		return text(res), st, te
	}
	return text(res), st, nil
}

func (s *server) must(t testing.TB, ctx context.Context, name string, args map[string]any) (string, map[string]any) {
	t.Helper()
	txt, st, e := s.call(t, ctx, name, args)
	if e != nil {
		t.Fatalf("%s %v: %s: %s", name, args, e.Code, e.Message)
	}
	return txt, st
}

// open selects the first tab and loads a fixture page.
func (s *server) open(t testing.TB, ctx context.Context, path string) string {
	t.Helper()
	s.must(t, ctx, "select_tab", map[string]any{"index": 0})
	s.must(t, ctx, "navigate", map[string]any{"url": fx.URL + path, "wait": "complete"})
	txt, _ := s.must(t, ctx, "snapshot_page", map[string]any{})
	return txt
}

var refLine = regexp.MustCompile(`(?m)^\[(e\d+)\] (\S+)(?: ("(?:[^"\\]|\\.)*"))?`)

// ref finds an element by role and name in a snapshot; a name ending in
// "*" matches as a prefix.
func ref(t testing.TB, snapshot, role, name string) string {
	t.Helper()
	for _, m := range refLine.FindAllStringSubmatch(snapshot, -1) {
		n, _ := strconv.Unquote(m[3])
		if m[2] == role && (n == name || strings.HasSuffix(name, "*") && strings.HasPrefix(n, strings.TrimSuffix(name, "*"))) {
			return m[1]
		}
	}
	t.Fatalf("no %s %q in snapshot:\n%s", role, name, snapshot)
	return ""
}

// pageText is the selected page's visible text.
func (s *server) pageText(t testing.TB, ctx context.Context) string {
	t.Helper()
	txt, _ := s.must(t, ctx, "snapshot_page", map[string]any{"include_all_text": true, "max_elements": 1})
	return txt
}

// vmHWM is the server's peak resident set size in bytes.
func (s *server) vmHWM(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
