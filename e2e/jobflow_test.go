package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// The job-application flow of issue 15, on the fixture single-page portal
// (/jobs-spa.html, its API answering 300–450 ms late): search → open a job →
// "Easy Apply" → phone → résumé → stop before "Submit application".
//
// The agent is scripted the way a careful model works: it takes each next
// ref from what it has seen since its last snapshot (newest answer first);
// otherwise it waits for the text it expects (wait_for) and takes the ref
// from that answer; only when neither has it does it take a snapshot.
// Every call and every character of text content returned counts.

// jobAgent drives the flow and keeps the tally.
type jobAgent struct {
	t     testing.TB
	ctx   context.Context
	s     *server
	seen  []string // the answers since the last snapshot, newest last
	last  string   // the text of the last answer
	calls int
	chars int           // characters of text content returned to the model
	wall  time.Duration // from the first call to the last answer
	steps []step        // each call, in order
}

// step is one call of the flow and how long its answer took.
type step struct {
	name string
	took time.Duration
}

func (a *jobAgent) call(name string, args map[string]any) string {
	a.t.Helper()
	start := time.Now()
	txt, _ := a.s.must(a.t, a.ctx, name, args)
	a.steps = append(a.steps, step{name, time.Since(start)})
	a.calls++
	a.chars += utf8.RuneCountInString(txt)
	a.last = txt
	if name == "snapshot_page" || name == "navigate" {
		a.seen = a.seen[:0]
	}
	a.seen = append(a.seen, txt)
	return txt
}

// find returns the ref of the element with this role and name: from the
// last answer, else from a wait_for on expect, else from a snapshot.
func (a *jobAgent) find(role, name, expect string) string {
	a.t.Helper()
	for i := len(a.seen) - 1; i >= 0; i-- {
		if r, ok := findRef(a.seen[i], role, name); ok {
			return r
		}
	}
	if expect != "" {
		if r, ok := findRef(a.call("wait_for", map[string]any{"text": expect, "timeout_ms": 10000}), role, name); ok {
			return r
		}
	}
	if r, ok := findRef(a.call("snapshot_page", map[string]any{}), role, name); ok {
		return r
	}
	a.t.Fatalf("no %s %q after a snapshot:\n%s", role, name, a.last)
	return ""
}

// findRef is ref without failing.
func findRef(answer, role, name string) (string, bool) {
	for _, m := range refLine.FindAllStringSubmatch(answer, -1) {
		if n, _ := strconv.Unquote(m[3]); m[2] == role && n == name {
			return m[1], true
		}
	}
	return "", false
}

// jobFlow runs the flow once on a fresh load of the portal and checks, with
// calls that are not counted, that the page received the phone number and
// the résumé and that nothing was submitted.
func jobFlow(t testing.TB, ctx context.Context, s *server, resume string) *jobAgent {
	a := &jobAgent{t: t, ctx: ctx, s: s}
	start := time.Now()
	a.call("navigate", map[string]any{"url": fx.URL + "/jobs-spa.html", "wait": "complete"})
	a.call("fill", map[string]any{"element": a.find("searchbox", "Search jobs", ""), "value": "AI engineer"})
	a.call("click", map[string]any{"element": a.find("button", "Search", "")})
	a.call("click", map[string]any{"element": a.find("link", "AI Engineer", "Acme Robotics")})
	a.call("click", map[string]any{"element": a.find("button", "Easy Apply", "Easy Apply")})
	a.call("fill", map[string]any{"element": a.find("textbox", "Mobile phone number", "Mobile phone number"), "value": "+1 555 0100"})
	a.call("upload_files", map[string]any{"element": a.find("file", "Upload résumé", "Upload résumé"), "paths": []string{resume}})
	a.wall = time.Since(start)

	check := `body[data-phone="+1 555 0100"][data-resume="resume.pdf"][data-submitted="0"]`
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"selector": check, "timeout_ms": 3000}); e != nil {
		txt, _, _ := s.call(t, ctx, "snapshot_page", map[string]any{"include_all_text": true})
		t.Fatalf("the page did not end with the phone, the résumé and no submission (%s: %s):\n%s", e.Code, e.Message, txt)
	}
	return a
}

func jobFlowSetup(t testing.TB) (context.Context, *server, string) {
	ctx := testCtx(t)
	root := t.TempDir()
	resume := filepath.Join(root, "resume.pdf")
	if err := os.WriteFile(resume, []byte("%PDF-1.4\n% a résumé\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root)
	s.must(t, ctx, "select_tab", map[string]any{"index": 0})
	return ctx, s, resume
}

// TestJobFlow keeps the benchmark's flow working: once, through the real
// binary and the SDK client.
func TestJobFlow(t *testing.T) {
	ctx, s, resume := jobFlowSetup(t)
	a := jobFlow(t, ctx, s, resume)
	t.Logf("job flow: %d tool calls, %d characters returned, %v", a.calls, a.chars, a.wall.Round(time.Millisecond))
}

// BenchmarkJobFlowMCP prints the flow's tool calls, characters returned to
// the model and wall time (median of b.N runs; use -benchtime 20x).
func BenchmarkJobFlowMCP(b *testing.B) {
	ctx, s, resume := jobFlowSetup(b)
	settled := settle(b)
	var a *jobAgent
	walls := make([]time.Duration, 0, b.N)
	var steps [][]time.Duration // by position in the flow
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC() // untimed (the flow's wall starts at its first call): see benchutil.RunClean
		a = jobFlow(b, ctx, s, resume)
		walls = append(walls, a.wall)
		for j, st := range a.steps {
			if j == len(steps) {
				steps = append(steps, nil)
			}
			steps[j] = append(steps[j], st.took)
		}
	}
	b.StopTimer()
	b.ReportMetric(benchutil.MedianMS(walls), "ms-median")
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(a.calls), "tool-calls")
	b.ReportMetric(float64(a.chars), "chars")
	settled(b)
	if testing.Verbose() {
		// Where the time goes: each call's median (the flows took the same
		// calls; the page's own delays fall inside the waits).
		var per strings.Builder
		for j, d := range steps {
			if j < len(a.steps) && len(d) == b.N {
				fmt.Fprintf(&per, "\n%2d %-13s %7.1f ms", j+1, a.steps[j].name, benchutil.MedianMS(d))
			}
		}
		b.Logf("median per call:%s", per.String())
		b.Logf("last answer:\n%s", strings.TrimSpace(a.last))
	}
}
