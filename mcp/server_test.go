package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// funcHandler adapts a function to Handler, with one tool per name.
type funcHandler struct {
	names []string
	call  func(ctx context.Context, name string, args json.RawMessage, p Progress) Result
}

func (h funcHandler) Tools() []Tool {
	var tools []Tool
	for _, n := range h.names {
		tools = append(tools, Tool{Name: n})
	}
	return tools
}

func (h funcHandler) CallTool(ctx context.Context, name string, args json.RawMessage, p Progress) Result {
	return h.call(ctx, name, args, p)
}

// rpcLine is an output line as the tests read it.
type rpcLine struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  *struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
	Error  *rpcError `json:"error"`
	Params struct {
		ProgressToken json.RawMessage `json:"progressToken"`
		Progress      float64         `json:"progress"`
	} `json:"params"`
}

// checkingWriter fails the test if two Writes overlap or a Write is not
// exactly one line; it holds each Write briefly to widen the window.
type checkingWriter struct {
	t      *testing.T
	active atomic.Int32
	w      io.Writer
}

func (c *checkingWriter) Write(p []byte) (int, error) {
	if c.active.Add(1) != 1 {
		c.t.Errorf("concurrent Write calls")
	}
	defer c.active.Add(-1)
	if bytes.IndexByte(p, '\n') != len(p)-1 {
		c.t.Errorf("Write is not exactly one line: %q", truncate(string(p), 80))
	}
	time.Sleep(50 * time.Microsecond)
	return c.w.Write(p)
}

func TestConcurrentResponsesNeverInterleave(t *testing.T) {
	const calls = 200
	big := strings.Repeat("0123456789abcdef", 4096) // 64 KiB per response
	h := funcHandler{names: []string{"big"}, call: func(ctx context.Context, _ string, args json.RawMessage, p Progress) Result {
		for i := 1; i <= 5; i++ {
			p.Report(float64(i), 5, "step")
			time.Sleep(time.Millisecond)
		}
		return Result{Text: big, Structured: map[string]string{"args": string(args)}}
	}}
	s := NewServer(h, Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.Serve(context.Background(), inR, &checkingWriter{t: t, w: outW})
		outW.Close()
	}()

	go func() {
		var b bytes.Buffer
		b.WriteString(initLine + "\n")
		for i := range calls {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{"n":%d},"_meta":{"progressToken":"p%d"}}}`+"\n", i, i, i)
		}
		inW.Write(b.Bytes())
	}()

	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	responses := map[string]bool{}
	progress := map[string]int{}
	for len(responses) < calls+1 && sc.Scan() {
		var l rpcLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("output line does not parse: %v: %q", err, truncate(sc.Text(), 200))
		}
		if l.Method == "notifications/progress" {
			tok := strings.Trim(string(l.Params.ProgressToken), `"p`)
			if responses[tok] {
				t.Errorf("progress for call %s after its response", tok)
			}
			progress[tok]++
			continue
		}
		if responses[string(l.ID)] {
			t.Errorf("second response for id %s", l.ID)
		}
		responses[string(l.ID)] = true
		if l.ID[0] != '"' && (l.Result == nil || l.Result.Content[0].Text != big) {
			t.Errorf("id %s: unexpected response", l.ID)
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if len(responses) != calls+1 {
		t.Fatalf("got %d responses, want %d", len(responses), calls+1)
	}
	for tok, n := range progress {
		if n > 5 {
			t.Errorf("call %s: %d progress notifications, want at most 5", tok, n)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNoDiagnosticsOnStdout runs a session full of errors, panics and
// cancellations and checks that the output holds only protocol messages,
// that the process's own stdout and stderr receive nothing, that the logger
// does receive diagnostics, and that no argument value is logged.
func TestNoDiagnosticsOnStdout(t *testing.T) {
	const secret = "hunter2-secret-value"
	for _, withLogger := range []bool{true, false} {
		t.Run(fmt.Sprint("logger=", withLogger), func(t *testing.T) {
			// Capture the process's real stdout and stderr.
			oldOut, oldErr := os.Stdout, os.Stderr
			rOut, wOut, _ := os.Pipe()
			rErr, wErr, _ := os.Pipe()
			os.Stdout, os.Stderr = wOut, wErr
			var stray syncBuffer
			var drain sync.WaitGroup
			for _, r := range []*os.File{rOut, rErr} {
				drain.Add(1)
				go func() { defer drain.Done(); io.Copy(&stray, r) }()
			}

			var logs syncBuffer
			var logger *slog.Logger
			if withLogger {
				logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			}
			s := NewServer(fakeHandler{}, Options{Logger: logger, MaxLineBytes: 1 << 10})
			in := strings.Join([]string{
				`{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + secret + `"}}}`,
				initLine,
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + secret + `"}}}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"panic","arguments":{"x":"` + secret + `"}}}`,
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"x":"` + secret + `"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
				`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"bad":"` + secret + `"}}}`,
				`{"jsonrpc":"2.0","id":5,"method":"nope","params":{"x":"` + secret + `"}}`,
				`{"jsonrpc":"2.0","method":"notifications/nope","params":{"x":"` + secret + `"}}`,
				`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`,
				`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat(secret, 100) + `"}}}`,
				`{"broken` + secret,
				"\xff" + secret,
			}, "\n") + "\n"
			var out syncBuffer
			err := s.Serve(context.Background(), strings.NewReader(in), &out)

			os.Stdout, os.Stderr = oldOut, oldErr
			wOut.Close()
			wErr.Close()
			drain.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if stray.String() != "" {
				t.Errorf("the package wrote to the process's stdout/stderr: %q", stray.String())
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) < 10 {
				t.Errorf("only %d output lines", len(lines))
			}
			for _, l := range lines {
				var m rpcLine
				if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" || (m.ID == nil && m.Method == "") {
					t.Errorf("not a JSON-RPC message: %q", l)
				}
			}
			if withLogger {
				got := logs.String()
				for _, want := range []string{"panic in tool handler", "tool=echo", "method=tools/call", "duration="} {
					if !strings.Contains(got, want) {
						t.Errorf("logs lack %q:\n%s", want, got)
					}
				}
				if strings.Contains(got, "hunter2") {
					t.Errorf("logs contain an argument value:\n%s", got)
				}
			}
		})
	}
}

func TestServeStopsOnContextAndWaitsForCalls(t *testing.T) {
	var returned atomic.Bool
	started := make(chan struct{})
	h := funcHandler{names: []string{"slow"}, call: func(ctx context.Context, _ string, _ json.RawMessage, _ Progress) Result {
		close(started)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // cleanup takes a moment
		returned.Store(true)
		return Result{Text: "late"}
	}}
	s := NewServer(h, Options{})
	inR, inW := io.Pipe()
	defer inW.Close()
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, inR, &out) }()
	io.WriteString(inW, initLine+"\n"+`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`+"\n")
	<-started
	cancel()
	select {
	case err := <-served:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after ctx was cancelled")
	}
	if !returned.Load() {
		t.Error("Serve returned before the in-flight call did")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 output lines, got %q", lines)
	}
	var l rpcLine
	if err := json.Unmarshal([]byte(lines[1]), &l); err != nil || string(l.ID) != "1" || l.Result == nil || !l.Result.IsError ||
		!strings.Contains(string(l.Result.StructuredContent), `"code":"cancelled"`) {
		t.Errorf("in-flight call not answered as cancelled: %s", lines[1])
	}
}

func TestProgressNeverAfterResponse(t *testing.T) {
	kept := make(chan Progress, 1)
	var wg sync.WaitGroup
	h := funcHandler{names: []string{"p"}, call: func(ctx context.Context, _ string, _ json.RawMessage, p Progress) Result {
		// A background goroutine keeps reporting across the return.
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i < 2000; i++ {
				p.Report(float64(i), 0, "")
			}
		}()
		kept <- p
		return Result{Text: "ok"}
	}}
	s := NewServer(h, Options{})
	inR, inW := io.Pipe()
	var out syncBuffer
	served := make(chan error, 1)
	go func() { served <- s.Serve(context.Background(), inR, &out) }()
	io.WriteString(inW, initLine+"\n"+`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p","_meta":{"progressToken":"t"}}}`+"\n")
	p := <-kept
	wg.Wait()
	// Wait for the response, then report after it.
	for !strings.Contains(out.String(), `"id":1`) {
		time.Sleep(time.Millisecond)
	}
	p.Report(1e9, 0, "after the response")
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := -1.0
	for i, line := range lines {
		var l rpcLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Method == "notifications/progress" {
			if l.Params.Progress <= last {
				t.Errorf("progress did not increase: %v after %v", l.Params.Progress, last)
			}
			last = l.Params.Progress
		}
		if string(l.ID) == "1" && i != len(lines)-1 {
			t.Errorf("%d lines follow the response, first: %s", len(lines)-1-i, lines[i+1])
		}
	}
}

func TestWriteErrorEndsServe(t *testing.T) {
	s := NewServer(fakeHandler{}, Options{})
	inR, inW := io.Pipe()
	defer inW.Close()
	go io.WriteString(inW, initLine+"\n")
	err := s.Serve(context.Background(), inR, failingWriter{})
	if err == nil || !strings.Contains(err.Error(), "writing output") {
		t.Fatalf("Serve = %v, want a write error", err)
	}
}

// TestClientClosingBothEnds: a client that closes the end it reads first,
// then its input, as the Go SDK's client may, ended the session cleanly: the
// failed write is no error (TestGoSDKClient failed so, once).
func TestClientClosingBothEnds(t *testing.T) {
	s := NewServer(fakeHandler{}, Options{})
	inR, inW := io.Pipe()
	go func() {
		io.WriteString(inW, initLine+"\n")
		time.Sleep(20 * time.Millisecond) // the answer's write has failed
		inW.Close()
	}()
	if err := s.Serve(context.Background(), inR, failingWriter{}); err != nil {
		t.Fatalf("Serve = %v, want nil", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestNewServerPanicsOnBadTools(t *testing.T) {
	for name, tools := range map[string][]string{"duplicate": {"a", "a"}, "empty": {""}} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			NewServer(funcHandler{names: tools}, Options{})
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a non-object schema")
		}
	}()
	NewServer(schemaHandler{}, Options{})
}

type schemaHandler struct{ funcHandler }

func (schemaHandler) Tools() []Tool {
	return []Tool{{Name: "x", InputSchema: json.RawMessage(`["not an object"]`)}}
}

func TestToolError(t *testing.T) {
	r := ToolError("stale_element", "Element e17 no longer matches.", true)
	if !r.IsError || r.Text != "stale_element: Element e17 no longer matches." {
		t.Errorf("got %+v", r)
	}
	b, _ := json.Marshal(r.Structured)
	if want := `{"error":{"code":"stale_element","message":"Element e17 no longer matches.","retryable":true}}`; string(b) != want {
		t.Errorf("structured = %s, want %s", b, want)
	}
}

// TestNegotiate: initialize negotiates the legacy versions only; the modern
// revision, which has no handshake, gets the newest legacy one like any
// version the server does not know.
func TestNegotiate(t *testing.T) {
	for _, v := range SupportedProtocolVersions()[1:] {
		if got := negotiate(v); got != v {
			t.Errorf("negotiate(%q) = %q", v, got)
		}
	}
	for _, v := range []string{"", "2024-10-07", "2099-01-01", "2025-06-18 ", "2026-07-28"} {
		if got := negotiate(v); got != "2025-11-25" {
			t.Errorf("negotiate(%q) = %q, want the newest legacy version", v, got)
		}
	}
	if got := SupportedProtocolVersions()[0]; got != "2026-07-28" {
		t.Errorf("newest version %q", got)
	}
}

// TestServeLeavesNoGoroutines runs a session with calls, progress and
// cancellation to EOF and checks every goroutine it started has exited.
func TestServeLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	in := strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`,
	}, "\n") + "\n"
	var out syncBuffer
	if err := NewServer(fakeHandler{}, Options{}).Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	// init, 1's three progress reports and answer, 3's shutdown answer; the
	// cancelled 2 gets none.
	if n := strings.Count(out.String(), "\n"); n != 4+2 {
		t.Errorf("got %d output lines, want 6:\n%s", n, out.String())
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before Serve, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}
