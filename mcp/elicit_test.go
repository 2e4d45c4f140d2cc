package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// askSchema is the requested schema the test tool sends.
const askSchema = `{"type":"object","properties":{"allow":{"type":"boolean","default":false}},"required":["allow"]}`

// pipeClient is a client over pipes to a real Server whose one tool "ask"
// elicits through the call's context and answers with what came back.
type pipeClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	logs  *syncBuffer
}

func startAsk(t *testing.T) *pipeClient {
	t.Helper()
	h := funcHandler{names: []string{"ask"}, call: func(ctx context.Context, _ string, _ json.RawMessage, _ Progress) Result {
		e := ElicitorFrom(ctx)
		if e == nil {
			return Result{Text: "no elicitor"}
		}
		action, content, err := e.Elicit(ctx, "Allow?", json.RawMessage(askSchema))
		return Result{Text: fmt.Sprintf("%s %s %v", action, content, err)}
	}}
	logs := &syncBuffer{}
	s := NewServer(h, Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	c := &pipeClient{t: t, in: inW, lines: make(chan string, 64), logs: logs}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close(); <-done })
	return c
}

func (c *pipeClient) send(format string, args ...any) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, format+"\n", args...); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the next output line (fails after 10 s).
func (c *pipeClient) next() map[string]any {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("output ended")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			c.t.Fatalf("%v: %s", err, l)
		}
		return m
	case <-time.After(10 * time.Second):
		c.t.Fatal("no output line")
	}
	return nil
}

// init initializes a legacy session with the given capabilities.
func (c *pipeClient) init(version, caps string) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":%q,"capabilities":%s,"clientInfo":{"name":"t","version":"0"}}}`, version, caps)
	if m := c.next(); m["id"] != "init" || m["result"] == nil {
		c.t.Fatalf("initialize: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (c *pipeClient) callAsk(id int) {
	c.send(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask","arguments":{}}}`, id)
}

// toolText is a tools/call response's text.
func toolText(t *testing.T, m map[string]any) string {
	t.Helper()
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("not a tool response: %v", m)
	}
	return content[0].(map[string]any)["text"].(string)
}

// request reads the server's elicitation/create and returns its id.
func (c *pipeClient) request() string {
	c.t.Helper()
	m := c.next()
	params, _ := m["params"].(map[string]any)
	id, _ := m["id"].(string)
	if m["method"] != "elicitation/create" || !strings.HasPrefix(id, outgoingIDPrefix) || params["message"] != "Allow?" {
		c.t.Fatalf("not the elicitation request: %v", m)
	}
	if schema, _ := json.Marshal(params["requestedSchema"]); string(schema) != `{"properties":{"allow":{"default":false,"type":"boolean"}},"required":["allow"],"type":"object"}` {
		c.t.Fatalf("schema %s", schema)
	}
	return id
}

// pingOK checks the session still answers, and that nothing was written
// before the ping's answer.
func (c *pipeClient) pingOK() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	if m := c.next(); m["id"] != "ping" || m["result"] == nil {
		c.t.Fatalf("before the ping's answer: %v", m)
	}
}

// TestElicitRouted: a client that declared elicitation gets the request;
// its answer is routed to the waiting call; a duplicate answer is ignored.
func TestElicitRouted(t *testing.T) {
	for _, caps := range []string{`{"elicitation":{}}`, `{"elicitation":{"form":{}}}`, `{"elicitation":{"form":{},"url":{}}}`} {
		c := startAsk(t)
		c.init("2025-11-25", caps)
		c.callAsk(1)
		id := c.request()
		answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"action":"accept","content":{"allow":true}}}`, id)
		c.send("%s", answer)
		if got := toolText(t, c.next()); got != `accept {"allow":true} <nil>` {
			t.Fatalf("%s: %q", caps, got)
		}
		c.send("%s", answer) // a duplicate: dropped, no reply
		c.pingOK()
		if !strings.Contains(c.logs.String(), "response to an unknown, finished or answered request ignored") {
			t.Errorf("the duplicate was not logged")
		}
	}
}

// TestElicitNotDeclared: a client that did not declare form elicitation,
// negotiated a version without it, or calls in the modern era, gets no
// request: the handler sees no elicitor.
func TestElicitNotDeclared(t *testing.T) {
	for _, tc := range []struct{ version, caps string }{
		{"2025-11-25", `{}`},
		{"2025-11-25", `{"elicitation":{"url":{}}}`},
		{"2025-11-25", `{"elicitation":true}`},
		{"2025-03-26", `{"elicitation":{}}`},
	} {
		c := startAsk(t)
		c.init(tc.version, tc.caps)
		c.callAsk(1)
		if got := toolText(t, c.next()); got != "no elicitor" {
			t.Errorf("%s %s: %q", tc.version, tc.caps, got)
		}
	}
	c := startAsk(t)
	c.init("2025-11-25", `{"elicitation":{}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`)
	if got := toolText(t, c.next()); got != "no elicitor" {
		t.Errorf("modern call: %q", got)
	}
}

// TestElicitCancelledWait: the client cancels the tool call while its
// elicitation waits: the wait ends, the server cancels its own request,
// the call gets no response, and the answer that comes late is ignored.
func TestElicitCancelledWait(t *testing.T) {
	c := startAsk(t)
	c.init("2025-06-18", `{"elicitation":{}}`)
	c.callAsk(7)
	id := c.request()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	m := c.next()
	params, _ := m["params"].(map[string]any)
	if m["method"] != "notifications/cancelled" || params["requestId"] != id || m["id"] != nil {
		t.Fatalf("want notifications/cancelled for %s, got %v", id, m)
	}
	c.send(`{"jsonrpc":"2.0","id":%q,"result":{"action":"accept","content":{"allow":true}}}`, id)
	c.pingOK() // neither the call nor the late answer produced a line
	if !strings.Contains(c.logs.String(), "response to an unknown, finished or answered request ignored") {
		t.Errorf("the late answer was not logged")
	}
}

// TestElicitCap: at most maxOutstanding requests wait for the client; one
// more is refused without being sent.
func TestElicitCap(t *testing.T) {
	c := startAsk(t)
	c.init("2025-11-25", `{"elicitation":{}}`)
	var ids []string
	for i := range maxOutstanding {
		c.callAsk(i)
		ids = append(ids, c.request())
	}
	c.callAsk(99)
	if got := toolText(t, c.next()); !strings.Contains(got, ErrElicitBusy.Error()) {
		t.Fatalf("over the cap: %q", got)
	}
	for _, id := range ids {
		c.send(`{"jsonrpc":"2.0","id":%q,"result":{"action":"decline"}}`, id)
		if got := toolText(t, c.next()); got != "decline  <nil>" {
			t.Errorf("%s: %q", id, got)
		}
	}
	c.callAsk(100) // room again
	c.request()
}

// TestElicitMalformed: a malformed result and an error response are no
// answer, and end the wait.
func TestElicitMalformed(t *testing.T) {
	for _, resp := range []string{
		`"result":{"action":"maybe"}`,
		`"result":{"action":"accept","content":[true]}`,
		`"result":"accept"`,
		`"result":{"action":"accept","action":"decline"}`,
		`"error":{"code":-32601,"message":"method not found"}`,
	} {
		c := startAsk(t)
		c.init("2025-11-25", `{"elicitation":{}}`)
		c.callAsk(1)
		id := c.request()
		c.send(`{"jsonrpc":"2.0","id":%q,%s}`, id, resp)
		if got := toolText(t, c.next()); !strings.Contains(got, ErrElicitNoAnswer.Error()) {
			t.Errorf("%s: %q", resp, got)
		}
	}
}

func TestParseElicitResult(t *testing.T) {
	for raw, want := range map[string]error{
		`{"action":"accept","content":{"allow":true}}`: nil,
		`{"action":"cancel"}`:                          nil,
		`{"action":"ACCEPT"}`:                          ErrElicitNoAnswer,
		`{}`:                                           ErrElicitNoAnswer,
		`{"action":"accept","content":"yes"}`:          ErrElicitNoAnswer,
	} {
		if _, _, err := parseElicitResult(json.RawMessage(raw)); !errors.Is(err, want) {
			t.Errorf("%s: %v", raw, err)
		}
	}
}
