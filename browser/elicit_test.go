package browser_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/xwin"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/mcp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// mcpTools puts the session's tool table under a real mcp.Server as the
// server's main does: the call's elicitor, when its client declared the
// capability, goes to the lock.
type mcpTools struct{ s *session }

func (h mcpTools) Tools() []mcp.Tool {
	var out []mcp.Tool
	for _, t := range h.s.tools.Tools() {
		out = append(out, mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema})
	}
	return out
}

func (h mcpTools) CallTool(ctx context.Context, name string, args json.RawMessage, p mcp.Progress) mcp.Result {
	if e := mcp.ElicitorFrom(ctx); e != nil {
		ctx = browser.WithElicitation(ctx, confirm.Elicitation{Client: e})
	}
	res, ok := h.s.tools.Answer(ctx, name, args, p)
	if !ok {
		return mcp.ToolError(errcode.InvalidArguments, "unknown tool "+name, false)
	}
	return mcp.Result{Text: res.Text, Structured: res.Structured, IsError: res.IsError}
}

// mcpClient is a fake MCP client over pipes: it answers the server's
// elicitation requests as its answer function says ("" = no answer).
type mcpClient struct {
	t      *testing.T
	in     io.Writer
	lines  chan map[string]any
	nextID int
	mu     sync.Mutex
	seen   []map[string]any // elicitation/create params
	cancel []string         // notifications/cancelled requestIds
}

// newMCPClient serves s over a real mcp.Server and initializes a
// 2025-11-25 session declaring caps.
func newMCPClient(t *testing.T, s *session, caps string) *mcpClient {
	t.Helper()
	srv := mcp.NewServer(mcpTools{s}, mcp.Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	c := &mcpClient{t: t, in: inW, lines: make(chan map[string]any, 16)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				c.lines <- m
			}
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close(); <-done })
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":%s,"clientInfo":{"name":"fake","version":"0"}}}`+"\n", caps)
	if m := <-c.lines; m["id"] != "init" {
		t.Fatalf("initialize: %v", m)
	}
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// call runs one tool; answer gives the elicitation result for each
// request ("" leaves it unanswered). It returns the tool result.
func (c *mcpClient) call(name string, args any, answer func(params map[string]any) string) map[string]any {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	raw, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", id, raw)
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.lines:
			if !ok {
				c.t.Fatal("the server's output ended")
			}
			if res := c.handle(m, id, answer); res != nil {
				return res
			}
		case <-timeout:
			c.t.Fatalf("%s: no response", name)
		}
	}
}

// handle answers a server request or notes a notification; it returns the
// result of the response to call id.
func (c *mcpClient) handle(m map[string]any, id int, answer func(map[string]any) string) map[string]any {
	params, _ := m["params"].(map[string]any)
	switch m["method"] {
	case "elicitation/create":
		c.mu.Lock()
		c.seen = append(c.seen, params)
		c.mu.Unlock()
		if res := answer(params); res != "" {
			rid, _ := json.Marshal(m["id"])
			fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", rid, res)
		}
	case "notifications/cancelled":
		c.mu.Lock()
		c.cancel = append(c.cancel, fmt.Sprint(params["requestId"]))
		c.mu.Unlock()
	}
	if fmt.Sprint(m["id"]) == fmt.Sprint(id) && m["method"] == nil {
		res, _ := m["result"].(map[string]any)
		return res
	}
	return nil
}

func (c *mcpClient) asked() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]map[string]any(nil), c.seen...)
}

func answering(result string) func(map[string]any) string {
	return func(map[string]any) string { return result }
}

// resultText and resultError read a tools/call result.
func resultText(res map[string]any) string {
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	s, _ := content[0].(map[string]any)["text"].(string)
	return s
}

func resultCode(res map[string]any) string {
	sc, _ := res["structuredContent"].(map[string]any)
	e, _ := sc["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func confirmationStatus(t *testing.T, c *mcpClient) map[string]any {
	t.Helper()
	res := c.call("browser_status", map[string]any{}, answering(""))
	sc, _ := res["structuredContent"].(map[string]any)
	st, _ := sc["confirmation"].(map[string]any)
	return st
}

// TestConfirmElicit: mode elicit and a client that declared elicitation:
// paying on the checkout asks in the client, never in the window. Decline,
// cancel, accept with allow false or missing, and no answer leave the page
// unpaid (confirmation_refused); accept with allow true pays once, and
// the answer says it was confirmed in the client.
func TestConfirmElicit(t *testing.T) {
	s, rec, _ := lockSession(t, func(o *browser.Options) { o.ConfirmMode = browser.ConfirmElicit })
	defer browser.SetElicitTimeout(3 * time.Second)()
	c := newMCPClient(t, s, `{"elicitation":{"form":{}}}`)
	if st := confirmationStatus(t, c); st["mode"] != "elicit" || st["client_elicitation"] != true || st["asks_in"] != "mcp_client" {
		t.Fatalf("status %v", st)
	}
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/checkout.html?other=" + url.QueryEscape(otherSite(t)), "wait": "complete"})
	pay := ref(t, snapshot(t, s), "button", "Pay €49.00")
	for _, tc := range []struct{ name, result, says string }{
		{"decline", `{"action":"decline"}`, "refused in the MCP client"},
		{"cancel", `{"action":"cancel"}`, "refused in the MCP client"},
		{"allow false", `{"action":"accept","content":{"allow":false}}`, "allow unset or false"},
		{"allow missing", `{"action":"accept","content":{}}`, "allow unset or false"},
		{"allow as a string", `{"action":"accept","content":{"allow":"true"}}`, "allow unset or false"},
		{"malformed", `{"action":"yes"}`, "no valid answer"},
		{"no answer", ``, "did not answer the confirmation in the MCP client"},
	} {
		res := c.call("click", map[string]any{"element": pay}, answering(tc.result))
		if res["isError"] != true || resultCode(res) != string(errcode.ConfirmationRefused) || !strings.Contains(resultText(res), tc.says) {
			t.Errorf("%s: %v", tc.name, res)
		}
		if !absent(t, s, "body[data-paid]") {
			t.Fatalf("%s: the page was paid", tc.name)
		}
	}
	if len(c.cancel) != 1 {
		t.Errorf("the unanswered request was not cancelled: %v", c.cancel)
	}
	res := c.call("click", map[string]any{"element": pay}, answering(`{"action":"accept","content":{"allow":true}}`))
	if res["isError"] == true || !strings.Contains(resultText(res), tools.ConfirmedInClientText) || !holds(t, s, `body[data-paid="1"]`) {
		t.Fatalf("accepted: %v", res)
	}
	asked := c.asked()
	if len(asked) != 8 || len(rec.asked()) != 0 {
		t.Fatalf("%d elicitations, %d windows; want 8 and 0", len(asked), len(rec.asked()))
	}
	msg, _ := asked[7]["message"].(string)
	u, _ := url.Parse(pages.URL)
	for _, want := range []string{"CONFIRMATION of a consequential action (a payment)", "Declining is the safe answer",
		"Site (from Firefox): http://" + u.Host + "\n", "On: “Pay €49.00”", "The form sends to: POST " + pages.URL + "/charge", "Amounts on the page: €49.00"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	schema, _ := json.Marshal(asked[7]["requestedSchema"])
	if !strings.Contains(string(schema), `"required":["allow"]`) || !strings.Contains(string(schema), `"default":false`) {
		t.Errorf("schema %s", schema)
	}
}

// TestConfirmElicitFallsBack: the window asks when the client did not
// declare elicitation (mode elicit), and when the operator did not choose
// elicit (mode window) even though the client declared it. No elicitation
// request is sent.
func TestConfirmElicitFallsBack(t *testing.T) {
	for _, tc := range []struct{ mode, caps string }{
		{browser.ConfirmElicit, `{}`},
		{browser.ConfirmElicit, `{"elicitation":{"url":{}}}`},
		{"window", `{"elicitation":{}}`},
	} {
		s, rec, d := lockSession(t, func(o *browser.Options) { o.ConfirmMode = tc.mode })
		c := newMCPClient(t, s, tc.caps)
		if st := confirmationStatus(t, c); st["asks_in"] != "window" {
			t.Errorf("%s %s: status %v", tc.mode, tc.caps, st)
		}
		open(t, s, "checkout.html")
		pay := ref(t, snapshot(t, s), "button", "Pay €49.00")
		go d.Answer(t, windowTitle, xwin.Refuse)
		res := c.call("click", map[string]any{"element": pay}, answering(`{"action":"accept","content":{"allow":true}}`))
		if resultCode(res) != string(errcode.ConfirmationRefused) || !strings.Contains(resultText(res), "the user refused") {
			t.Errorf("%s %s: %v", tc.mode, tc.caps, res)
		}
		if len(rec.asked()) != 1 || len(c.asked()) != 0 || !absent(t, s, "body[data-paid]") {
			t.Errorf("%s %s: %d windows, %d elicitations, paid %v", tc.mode, tc.caps, len(rec.asked()), len(c.asked()), !absent(t, s, "body[data-paid]"))
		}
	}
}
