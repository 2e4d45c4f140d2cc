package rdp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
	"github.com/gorilla/websocket"
)

func dialFake(t *testing.T, addr netip.AddrPort, opts Options) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const console = "server1.conn0.watcher2.process5//consoleActor3"

func TestFakeGreetingAndListTabs(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect("root", "listTabs")
		p.Send(`{"tabs":[{"actor":"server1.conn0.tabDescriptor1","browserId":9,"title":"One","url":"http://a/","selected":false,"traits":{"watcher":true}},` +
			`{"actor":"server1.conn0.tabDescriptor2","browserId":12,"title":"Two ✓","url":"http://b/","selected":true}],"from":"root"}`)
		p.Expect("root", "getTab")
		p.Send(`{"from":"root","error":"noTab","message":"Unable to find tab with browserId '77'"}`)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	if g := c.Greeting(); g.ApplicationType != "browser" || g.Traits["networkMonitor"] != true {
		t.Errorf("Greeting = %+v", g)
	}
	tabs, err := c.ListTabs(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []Tab{
		{Actor: "server1.conn0.tabDescriptor1", BrowserID: 9, Title: "One", URL: "http://a/"},
		{Actor: "server1.conn0.tabDescriptor2", BrowserID: 12, Title: "Two ✓", URL: "http://b/", Selected: true},
	}
	if fmt.Sprint(tabs) != fmt.Sprint(want) {
		t.Errorf("ListTabs = %+v\nwant %+v", tabs, want)
	}
	if _, err := c.GetTab(testCtx(t), 77); !errors.Is(err, ErrTabClosed) {
		t.Errorf("GetTab(77) = %v, want ErrTabClosed", err)
	}
}

func evalResultJSON(id, result string) string {
	return fmt.Sprintf(`{"type":"evaluationResult","resultID":%q,"hasException":false,"input":"…","result":%s,"startTime":1,"timestamp":2,"from":%q}`, id, result, console)
}

func TestFakeEvaluate(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		m := p.Expect(console, "evaluateJSAsync")
		if m["text"] != "1+1" || m["mapped"] != nil || m["disableBreaks"] != true || m["url"] != EvalURL {
			p.T.Errorf("request = %v", m)
		}
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Raw(evalResultJSON("r1", `"two \"2\" \ud83d\ude00"`))
		m = p.Expect(console, "evaluateJSAsync")
		if mp, _ := m["mapped"].(map[string]any); mp["await"] != true {
			p.T.Errorf("Await request = %v", m)
		}
		p.Send(`{"resultID":"r2","from":%q}`, console)
		p.Raw(evalResultJSON("r2", `""`))
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	got, err := c.EvaluateString(testCtx(t), console, "1+1", EvalOptions{})
	if err != nil || got != `two "2" 😀` {
		t.Fatalf("EvaluateString = %q, %v", got, err)
	}
	got, err = c.EvaluateString(testCtx(t), console, "2", EvalOptions{Await: true})
	if err != nil || got != "" {
		t.Fatalf("EvaluateString (await) = %q, %v", got, err)
	}
}

func TestFakeResultBeforeAck(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Raw(evalResultJSON("r1", `"early"`))
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	got, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
	if err != nil || got != "early" {
		t.Fatalf("EvaluateString = %q, %v", got, err)
	}
}

func TestFakeResultsOutOfOrder(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		a := p.Expect(console, "evaluateJSAsync")
		b := p.Expect(console, "evaluateJSAsync")
		// ack both in request order, then answer the second first
		p.Send(`{"resultID":"id-%s","from":%q}`, a["text"], console)
		p.Send(`{"resultID":"id-%s","from":%q}`, b["text"], console)
		p.Raw(evalResultJSON(fmt.Sprint("id-", b["text"]), fmt.Sprintf("%q", "result of "+b["text"].(string))))
		p.Raw(evalResultJSON(fmt.Sprint("id-", a["text"]), fmt.Sprintf("%q", "result of "+a["text"].(string))))
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	var wg sync.WaitGroup
	for _, src := range []string{"alpha", "beta"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := c.EvaluateString(testCtx(t), console, src, EvalOptions{})
			if err != nil || got != "result of "+src {
				t.Errorf("EvaluateString(%s) = %q, %v", src, got, err)
			}
		}()
	}
	wg.Wait()
}

func TestFakeResultAfterNotifications(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Send(`{"from":"root","type":"tabListChanged"}`)
		p.Send(`{"type":"frameUpdate","frames":[],"from":"server1.conn0.child1/windowGlobalTarget2"}`)
		p.Send(`{"type":"evaluationResult","resultID":"someone-else","result":"no","from":%q}`, console)
		p.Send(`{"type":"resources-available-array","array":[["document-event",[]]],"from":"server1.conn0.unknown"}`)
		p.Send(`{"from":"server1.conn0.nobody"}`)
		p.Raw(evalResultJSON("r1", `"mine"`))
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	got, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
	if err != nil || got != "mine" {
		t.Fatalf("EvaluateString = %q, %v", got, err)
	}
	diag := strings.Join(c.Diagnostics(), "\n")
	for _, want := range []string{"tabListChanged from root", "frameUpdate from server1.conn0.child1/windowGlobalTarget2", "unexpected reply from server1.conn0.nobody"} {
		if !strings.Contains(diag, want) {
			t.Errorf("Diagnostics lacks %q:\n%s", want, diag)
		}
	}
}

func TestFakeDiagnosticsBounded(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		for i := range 250 {
			p.Send(`{"from":"root","type":"note%d"}`, i)
		}
		p.Expect("root", "listTabs")
		p.Send(`{"tabs":[],"from":"root"}`)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	if _, err := c.ListTabs(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	d := c.Diagnostics()
	if len(d) != 100 || !strings.Contains(d[0], "note150 ") || !strings.Contains(d[99], "note249 ") {
		t.Fatalf("Diagnostics: %d entries, first %q last %q", len(d), d[0], d[len(d)-1])
	}
}

func TestFakeException(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Send(`{"type":"evaluationResult","resultID":"r1","hasException":true,"exception":{"type":"object","class":"Error","actor":"x/obj1"},`+
			`"exceptionMessage":"Error: boom","exceptionStack":[{"filename":"debugger eval code","lineNumber":1,"columnNumber":7,"functionName":"f"},`+
			`{"filename":"debugger eval code","lineNumber":2,"columnNumber":1,"functionName":""}],"result":{"type":"undefined"},"from":%q}`, console)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r2","from":%q}`, console)
		p.Send(`{"type":"evaluationResult","resultID":"r2","hasException":false,"topLevelAwaitRejected":true,"from":%q}`, console)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	_, err := c.EvaluateString(testCtx(t), console, "f()", EvalOptions{})
	var ee *EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v, want *EvalError", err)
	}
	if ee.Message != "Error: boom" || ee.Stack != "f@debugger eval code:1:7\n@debugger eval code:2:1" {
		t.Errorf("EvalError = %+v", ee)
	}
	_, err = c.EvaluateString(testCtx(t), console, "g()", EvalOptions{Await: true})
	if !errors.As(err, &ee) || ee.Message != "promise rejected" {
		t.Errorf("rejected await: err = %v", err)
	}
}

func TestFakeNonStringResults(t *testing.T) {
	results := []struct{ json, want string }{
		{`{"type":"undefined"}`, "undefined"},
		{`42`, "number"},
		{`null`, "null"},
		{`true`, "boolean"},
		{`{"type":"object","class":"Array","actor":"a/obj2"}`, "object Array"},
	}
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		for i, r := range results {
			p.Expect(console, "evaluateJSAsync")
			p.Send(`{"resultID":"r%d","from":%q}`, i, console)
			p.Raw(evalResultJSON(fmt.Sprint("r", i), r.json))
		}
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	for _, r := range results {
		_, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), r.want) {
			t.Errorf("result %s: err = %v, want ErrProtocol naming %q", r.json, err, r.want)
		}
	}
}

// TestFakeEvaluateObject: EvaluateObject returns an object result's actor and refuses
// anything else; EvalOptions.Self travels as selectedObjectActor, and only when set.
func TestFakeEvaluateObject(t *testing.T) {
	results := []string{
		`{"type":"object","class":"Function","actor":"a/obj7","name":""}`,
		`"a string"`,
		`{"type":"longString","actor":"a/ls1","length":20000,"initial":"x"}`,
		`{"type":"undefined"}`,
		`{"type":"object","class":"Function"}`,
		`42`,
	}
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		for i, r := range results {
			m := p.Expect(console, "evaluateJSAsync")
			if _, ok := m["selectedObjectActor"]; ok {
				p.T.Errorf("request %d names a selectedObjectActor: %v", i, m)
			}
			p.Send(`{"resultID":"r%d","from":%q}`, i, console)
			p.Raw(evalResultJSON(fmt.Sprint("r", i), r))
			if strings.Contains(r, "longString") { // not kept: released
				p.Expect("a/ls1", "release")
				p.Send(`{"from":"a/ls1"}`)
			}
		}
		m := p.Expect(console, "evaluateJSAsync")
		if m["selectedObjectActor"] != "a/obj7" || m["text"] != "_self(1)" {
			p.T.Errorf("call request = %v", m)
		}
		p.Send(`{"resultID":"s","from":%q}`, console)
		p.Raw(evalResultJSON("s", `"called"`))
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	actor, err := c.EvaluateObject(testCtx(t), console, "(function () {})", EvalOptions{})
	if err != nil || actor != "a/obj7" {
		t.Fatalf("EvaluateObject = %q, %v", actor, err)
	}
	for _, r := range results[1:] {
		if a, err := c.EvaluateObject(testCtx(t), console, "x", EvalOptions{}); !errors.Is(err, ErrProtocol) || a != "" {
			t.Errorf("result %s: %q, %v, want ErrProtocol", r, a, err)
		}
	}
	if got, err := c.EvaluateString(testCtx(t), console, "_self(1)", EvalOptions{Self: actor}); err != nil || got != "called" {
		t.Errorf("call = %q, %v", got, err)
	}
}

// jsonUTF16 encodes UTF-16 units as a JSON string the way Firefox does for
// a lone surrogate: every non-ASCII unit as a \u escape.
func jsonUTF16(u []uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, x := range u {
		switch {
		case x == '"' || x == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(x))
		case x < 0x20 || x >= 0x7f:
			fmt.Fprintf(&b, `\u%04x`, x)
		default:
			b.WriteByte(byte(x))
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestFakeLongStringSurrogateSplit(t *testing.T) {
	// 4 ASCII units then an emoji (a surrogate pair) at units 4-5: the
	// initial (5 units) and each 7-unit chunk boundary split pairs.
	want := "abcd😀" + strings.Repeat("xy😀\"\\é", 20) + "end"
	units := utf16.Encode([]rune(want))
	const actor = "server1.conn0.watcher2.process5//longstractor9"
	released := make(chan bool, 1)
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Raw(evalResultJSON("r1", fmt.Sprintf(`{"type":"longString","actor":%q,"length":%d,"initial":%s}`, actor, len(units), jsonUTF16(units[:5]))))
		for {
			m := p.Recv()
			switch m["type"] {
			case "substring":
				start, end := int(m["start"].(float64)), int(m["end"].(float64))
				end = min(end, len(units))
				p.Send(`{"substring":%s,"from":%q}`, jsonUTF16(units[start:end]), actor)
			case "release":
				p.Send(`{"from":%q}`, actor)
				released <- true
				p.Idle(time.Second)
				return
			default:
				p.T.Errorf("unexpected request %v", m)
				return
			}
		}
	})
	c := dialFake(t, addr, Options{})
	c.chunk = 7
	got, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("long string mismatch:\n got %q\nwant %q", got, want)
	}
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("long string not released")
	}
}

func TestFakeLongStringLimit(t *testing.T) {
	const actor = "server1.conn0.watcher2.process5//longstractor9"
	released := make(chan bool, 1)
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Raw(evalResultJSON("r1", fmt.Sprintf(`{"type":"longString","actor":%q,"length":20000,"initial":"aaa"}`, actor)))
		p.Expect(actor, "release")
		p.Send(`{"from":%q}`, actor)
		released <- true
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{MaxStringUnits: 10000})
	_, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != 10000 || le.Size != 20000 {
		t.Fatalf("err = %v, want LimitError 20000 > 10000", err)
	}
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("long string not released")
	}
}

func TestFakeActorError(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"from":%q,"error":"noSuchActor","message":"No such actor for ID: %s"}`, console, console)
		p.Expect("root", "getRoot")
		p.Send(`{"from":"root","screenshotActor":"server1.conn0.screenshotActor2"}`)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	_, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
	var ae *ActorError
	if !errors.As(err, &ae) || ae.Code != "noSuchActor" || ae.Actor != console || !strings.Contains(ae.Message, "No such actor") {
		t.Fatalf("err = %v, want noSuchActor ActorError", err)
	}
	if !IsNoSuchActor(err) || !errors.Is(err, &ActorError{Code: "noSuchActor"}) || errors.Is(err, &ActorError{Code: "other"}) {
		t.Errorf("ActorError matching is wrong for %v", err)
	}
	// The connection is still fine.
	var resp struct {
		ScreenshotActor string `json:"screenshotActor"`
	}
	if err := c.Request(testCtx(t), "root", map[string]string{"type": "getRoot"}, &resp); err != nil || resp.ScreenshotActor == "" {
		t.Fatalf("getRoot = %+v, %v", resp, err)
	}
}

// TestFakeTimeoutRetires: a request past the RequestTimeout fails with
// ErrTimeout but the connection stays up; the actor counts as not answering
// (new requests to it fail at once) until the late reply arrives, which is
// swallowed, and the next request then gets its own reply. Other actors are
// served throughout.
func TestFakeTimeoutRetires(t *testing.T) {
	const slow = "server1.conn0.watcher2.process5//windowGlobalTarget2"
	late := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(slow, "getTarget") // not answered in time
		p.Expect("root", "listTabs")
		p.Send(`{"tabs":[],"from":"root"}`)
		<-late
		p.Send(`{"late":true,"from":%q}`, slow)
		m := p.Expect(slow, "getTab")
		_ = m
		p.Send(`{"own":true,"from":%q}`, slow)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{RequestTimeout: 300 * time.Millisecond})
	start := time.Now()
	err := c.Request(context.Background(), slow, map[string]string{"type": "getTarget"}, nil)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
	if c.Err() != nil {
		t.Fatalf("connection closed after a timeout: %v", c.Err())
	}
	start = time.Now()
	if err := c.Request(testCtx(t), slow, map[string]string{"type": "getTab"}, nil); !errors.Is(err, ErrUnresponsive) || time.Since(start) > 100*time.Millisecond {
		t.Errorf("request to the stuck actor: %v after %v, want ErrUnresponsive at once", err, time.Since(start))
	}
	if _, err := c.ListTabs(testCtx(t)); err != nil {
		t.Errorf("another actor: %v", err)
	}
	close(late)
	var resp map[string]any
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := c.Request(testCtx(t), slow, map[string]string{"type": "getTab"}, &resp)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrUnresponsive) || time.Now().After(deadline) {
			t.Fatalf("after the late reply: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if resp["own"] != true {
		t.Errorf("reply %v, want the request's own (the late one must be swallowed)", resp)
	}
}

// TestFakeAckTimeout: a console that does not acknowledge an evaluation
// within EvalOptions.AckTimeout (its process is busy) gives ErrUnresponsive
// without waiting out the RequestTimeout.
func TestFakeAckTimeout(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Idle(3 * time.Second)
	})
	c := dialFake(t, addr, Options{RequestTimeout: 20 * time.Second})
	start := time.Now()
	_, err := c.EvaluateString(testCtx(t), console, "1", EvalOptions{AckTimeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrUnresponsive) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v, want ErrUnresponsive after ≈300ms", err, time.Since(start))
	}
	if _, err := c.EvaluateString(testCtx(t), console, "1", EvalOptions{}); !errors.Is(err, ErrUnresponsive) {
		t.Errorf("next evaluation on the busy console: %v, want ErrUnresponsive", err)
	}
}

// TestFakeDuplicatedPackets replays what Firefox 153 sends after a watcher
// stopped and restarted watching targets in a content process while another
// watcher of the connection had targets there (a self-closing popup, then
// the first tab selected again): every packet of that forwarding prefix
// arrives three times. Two evaluations in flight on one console (a snapshot
// and a resident's installation behind it) used to pop the FIFO once per
// copy, so the second request received the first one's acknowledgement and
// result, and the first waited out its timeout. Each must get its own.
func TestFakeDuplicatedPackets(t *testing.T) {
	const target = "server1.conn0.watcher2.process5//windowGlobalTarget19"
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Expect(console, "evaluateJSAsync")
		for _, pkt := range []string{
			fmt.Sprintf(`{"resultID":"1.5-0","from":%q}`, console),
			fmt.Sprintf(`{"resultID":"1.6-1","from":%q}`, console),
			evalResultJSON("1.5-0", `"snapshot"`),
			evalResultJSON("1.6-1", `{"type":"object","class":"Function","actor":"a/obj9"}`),
		} {
			for range 3 {
				p.Raw(pkt)
			}
		}
		p.Expect(target, "getTarget")
		p.Expect(target, "getTab")
		for _, pkt := range []string{`{"first":true,"from":%q}`, `{"second":true,"from":%q}`} {
			for range 3 {
				p.Send(pkt, target)
			}
		}
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{RequestTimeout: 5 * time.Second})
	ctx := testCtx(t)
	objErr := make(chan error, 1)
	var obj string
	sent := make(chan struct{})
	go func() {
		<-sent
		var err error
		obj, err = c.EvaluateObject(ctx, console, "(function () {})", EvalOptions{})
		objErr <- err
	}()
	got, err := c.EvaluateString(ctx, console, "snapshot()", EvalOptions{Sent: func() { close(sent) }})
	if err != nil || got != "snapshot" {
		t.Errorf("first evaluation = %q, %v; want its own result", got, err)
	}
	if err := <-objErr; err != nil || obj != "a/obj9" {
		t.Errorf("second evaluation = %q, %v; want its own result", obj, err)
	}
	// Replies without ids on the same prefix: each request its own.
	var r1, r2 map[string]any
	e1 := make(chan error, 1)
	go func() { e1 <- c.Request(ctx, target, map[string]string{"type": "getTarget"}, &r1) }()
	time.Sleep(50 * time.Millisecond)
	if err := c.Request(ctx, target, map[string]string{"type": "getTab"}, &r2); err != nil || r2["second"] != true {
		t.Errorf("second request = %v, %v", r2, err)
	}
	if err := <-e1; err != nil || r1["first"] != true {
		t.Errorf("first request = %v, %v", r1, err)
	}
	if d := strings.Join(c.Diagnostics(), "\n"); !strings.Contains(d, "duplicate") {
		t.Errorf("diagnostics do not mention the duplicates:\n%s", d)
	}
}

func TestFakeForwardingCancelled(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		// a plain request to an actor under the same prefix, still unanswered
		p.Expect("server1.conn0.watcher2.process5//inspectorActor4", "getWatcher")
		// and one under another prefix, which must survive
		p.Expect("server1.conn0.watcher2.process7//inspectorActor4", "getWatcher")
		p.Send(`{"from":"root","type":"forwardingCancelled","prefix":"server1.conn0.watcher2.process5/"}`)
		p.Send(`{"from":"server1.conn0.watcher2.process7//inspectorActor4","walker":{}}`)
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	errs := make(chan error, 3)
	go func() {
		_, err := c.EvaluateString(testCtx(t), console, "new Promise(()=>{})", EvalOptions{Await: true})
		errs <- err
	}()
	time.Sleep(100 * time.Millisecond)
	go func() {
		errs <- c.Request(testCtx(t), "server1.conn0.watcher2.process5//inspectorActor4", map[string]string{"type": "getWatcher"}, nil)
	}()
	time.Sleep(100 * time.Millisecond)
	go func() {
		errs <- c.Request(testCtx(t), "server1.conn0.watcher2.process7//inspectorActor4", map[string]string{"type": "getWatcher"}, nil)
	}()
	gone, ok := 0, 0
	for range 3 {
		select {
		case err := <-errs:
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrTargetGone):
				gone++
			default:
				t.Errorf("unexpected error %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a pending request hangs after forwardingCancelled")
		}
	}
	if gone != 2 || ok != 1 {
		t.Errorf("gone=%d ok=%d, want 2 and 1", gone, ok)
	}
}

func TestFakeCancelThenNextRequestGetsItsReply(t *testing.T) {
	const actor = "server1.conn0.child1/inspectorActor4"
	firstSeen := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(actor, "listProcesses")
		close(firstSeen)
		p.Expect(actor, "getProcess")
		p.Send(`{"from":%q,"answer":"to first"}`, actor)
		p.Send(`{"from":%q,"answer":"to second"}`, actor)
		// an evaluation cancelled before its ack: its ack and result are dropped
		p.Expect(console, "evaluateJSAsync")
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"cancelled","from":%q}`, console)
		p.Send(`{"resultID":"kept","from":%q}`, console)
		p.Raw(evalResultJSON("kept", `"kept result"`))
		p.Raw(evalResultJSON("cancelled", `"cancelled result"`))
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-firstSeen; cancel() }()
	if err := c.Request(ctx, actor, map[string]string{"type": "listProcesses"}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled request: %v", err)
	}
	var resp struct {
		Answer string `json:"answer"`
	}
	if err := c.Request(testCtx(t), actor, map[string]string{"type": "getProcess"}, &resp); err != nil || resp.Answer != "to second" {
		t.Fatalf("next request got %+v, %v; want its own reply", resp, err)
	}

	ectx, ecancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := c.EvaluateString(ectx, console, "first", EvalOptions{})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	ecancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled eval: %v", err)
	}
	got, err := c.EvaluateString(testCtx(t), console, "second", EvalOptions{})
	if err != nil || got != "kept result" {
		t.Fatalf("eval after a cancelled one = %q, %v", got, err)
	}
	time.Sleep(200 * time.Millisecond)
	c.update(func(s *state) {
		if len(s.early) != 0 || len(s.evals) != 0 || len(s.queues) != 0 {
			t.Errorf("leftover state: early=%d evals=%d queues=%d", len(s.early), len(s.evals), len(s.queues))
		}
	})
}

func TestFakePeerCloses(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Recv()
		p.Recv()
		p.Close()
	})
	c := dialFake(t, addr, Options{})
	errs := make(chan error, 2)
	go func() { errs <- c.Request(testCtx(t), "root", map[string]string{"type": "listTabs"}, nil) }()
	go func() {
		_, err := c.EvaluateString(testCtx(t), console, "x", EvalOptions{})
		errs <- err
	}()
	for range 2 {
		if err := <-errs; !errors.Is(err, ErrClosed) {
			t.Errorf("waiter got %v, want ErrClosed", err)
		}
	}
	<-c.Done()
	if !errors.Is(c.Err(), ErrClosed) {
		t.Errorf("Err() = %v", c.Err())
	}
}

func TestFakeBadGreeting(t *testing.T) {
	for _, g := range []string{
		`{"from":"server1.conn0.tab1","applicationType":"browser"}`,
		`{"from":"root","applicationType":"webextension"}`,
		`{"from":"root","type":"tabListChanged"}`,
		`not json`,
		`[1,2]`,
	} {
		addr := rdptest.Serve(t, func(p *rdptest.Peer) {
			p.Send("%s", g)
			p.Idle(time.Second)
		})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := Dial(ctx, addr, Options{})
		cancel()
		if err == nil {
			c.Close()
			t.Errorf("greeting %s accepted", g)
		} else if !errors.Is(err, ErrProtocol) {
			t.Errorf("greeting %s: %v, want ErrProtocol", g, err)
		}
	}
	// no greeting at all: Dial gives up at its deadline
	addr := rdptest.Serve(t, func(p *rdptest.Peer) { p.Idle(3 * time.Second) })
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := Dial(ctx, addr, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent peer: %v, want DeadlineExceeded", err)
	}
}

func TestFakeNonJSONFrame(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Recv()
		p.Send("{not json")
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	err := c.Request(testCtx(t), "root", map[string]string{"type": "listTabs"}, nil)
	if !errors.Is(err, ErrClosed) || !errors.Is(err, ErrProtocol) {
		t.Fatalf("err = %v, want ErrClosed caused by ErrProtocol", err)
	}
	<-c.Done()
}

func TestFakeReadLimit(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Recv()
		p.Send(`{"from":"root","tabs":[],"pad":"%s"}`, strings.Repeat("x", 4096))
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{ReadLimit: 1024})
	err := c.Request(testCtx(t), "root", map[string]string{"type": "listTabs"}, nil)
	if !errors.Is(err, ErrClosed) || !errors.Is(err, websocket.ErrReadLimit) {
		t.Fatalf("err = %v, want ErrClosed caused by the read limit", err)
	}
}

// TestFakeWatchTargetGone follows a tab through a navigation on the fake:
// a pending evaluation fails with ErrTargetGone, Current waits for the new
// target, Navigations and ReadyState move, and a closed tab ends the watch.
func TestFakeWatchTargetGone(t *testing.T) {
	const (
		tab     = "server1.conn0.tabDescriptor1"
		watcher = "server1.conn0.watcher3"
		t1      = "server1.conn0.watcher2.process5//windowGlobalTarget2"
		c1      = "server1.conn0.watcher2.process5//consoleActor3"
		t2      = "server1.conn0.watcher2.process7//windowGlobalTarget2"
		c2      = "server1.conn0.watcher2.process7//consoleActor3"
		frame   = "server1.conn0.watcher2.process5//windowGlobalTarget19"
	)
	form := func(actor, console string, top bool, url string, bc, iw int64) string {
		return fmt.Sprintf(`{"actor":%q,"consoleActor":%q,"isTopLevelTarget":%t,"url":%q,"title":"","browsingContextID":%d,"innerWindowId":%d,"processID":17}`, actor, console, top, url, bc, iw)
	}
	step := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		m := p.Expect(tab, "getWatcher")
		if m["isServerTargetSwitchingEnabled"] != true {
			p.T.Errorf("getWatcher = %v", m)
		}
		p.Send(`{"actor":%q,"traits":{},"from":%q}`, watcher, tab)
		p.Expect(watcher, "watchTargets")
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(t1, c1, true, "http://a/", 10, 100), watcher)
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(frame, "x", false, "http://a/frame", 11, 101), watcher)
		p.Send(`{"from":%q}`, watcher)
		p.Expect(watcher, "watchResources")
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"name":"dom-loading","url":"http://a/"},{"name":"dom-interactive","title":"A","url":"http://a/"}]]],"from":%q}`, t1)
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"name":"dom-complete"}]]],"from":%q}`, frame)
		p.Send(`{"from":%q}`, watcher)
		<-step
		p.Expect(c1, "evaluateJSAsync")
		p.Send(`{"resultID":"pending","from":%q}`, c1)
		<-step
		// navigation: will-navigate, slim destroy notice (no consoleActor), new target
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"browsingContextID":10,"innerWindowId":100,"name":"will-navigate","newURI":"http://b/"}]]],"from":%q}`, watcher)
		<-step
		p.Send(`{"type":"target-destroyed-form","target":{"actor":%q,"innerWindowId":100,"isTopLevelTarget":true},"options":{},"from":%q}`, t1, watcher)
		<-step
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(t2, c2, true, "http://b/", 12, 200), watcher)
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"name":"dom-loading","url":"http://b/"}]],["document-event",[{"name":"dom-interactive","title":"B","url":"http://b/"},{"name":"dom-complete"}]]],"from":%q}`, t2)
		<-step
		p.Send(`{"type":"descriptor-destroyed","from":%q}`, tab)
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	ctx := testCtx(t)
	w, err := c.WatchTab(ctx, Tab{Actor: tab, BrowserID: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cur, err := w.WaitReady(ctx, "interactive")
	if err != nil || cur.Actor != t1 || cur.ConsoleActor != c1 || cur.Title != "A" || cur.InnerWindowID != 100 || cur.ProcessID != 17 {
		t.Fatalf("WaitReady = %+v, %v", cur, err)
	}
	if w.ReadyState() != "interactive" || w.Leaving() { // the frame's dom-complete does not count
		t.Errorf("ReadyState = %q, Leaving %v", w.ReadyState(), w.Leaving())
	}
	nav0 := w.Navigations()
	changed := w.Changed()
	evalErr := make(chan error, 1)
	go func() {
		_, err := c.EvaluateString(ctx, c1, "new Promise(()=>{})", EvalOptions{Await: true})
		evalErr <- err
	}()
	step <- struct{}{}
	time.Sleep(100 * time.Millisecond)
	select {
	case <-changed:
		t.Error("Changed closed by an evaluation's traffic, which changes nothing in the watch")
	default:
	}
	step <- struct{}{}
	// will-navigate: the document is leaving, still the current one
	for deadline := time.Now().Add(5 * time.Second); !w.Leaving(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Leaving is false after will-navigate")
		}
	}
	if cur, err := w.Current(ctx); err != nil || cur.Actor != t1 || w.ReadyState() != "loading" {
		t.Errorf("after will-navigate: Current = %+v, %v, ReadyState %q", cur, err, w.ReadyState())
	}
	step <- struct{}{}
	select {
	case err := <-evalErr:
		if !errors.Is(err, ErrTargetGone) {
			t.Errorf("pending eval across navigation: %v, want ErrTargetGone", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("pending evaluation hangs after its target was destroyed")
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Error("Changed not closed by the navigation")
	}
	// no top target now: Current waits
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	if _, err := w.Current(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Current mid-navigation = %v, want to wait", err)
	}
	cancel()
	step <- struct{}{}
	cur, err = w.WaitReady(ctx, "complete")
	if err != nil || cur.Actor != t2 || cur.ConsoleActor != c2 || cur.URL != "http://b/" || cur.Title != "B" {
		t.Fatalf("after navigation WaitReady = %+v, %v", cur, err)
	}
	if w.Navigations() <= nav0 {
		t.Errorf("Navigations %d -> %d", nav0, w.Navigations())
	}
	if w.Leaving() {
		t.Error("Leaving is still true once the new document is there")
	}
	step <- struct{}{}
	short, cancel = context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for {
		_, err := w.Current(short)
		if errors.Is(err, ErrTabClosed) {
			break
		}
		if err != nil {
			t.Fatalf("Current after tab close = %v, want ErrTabClosed", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFakeRequestData(t *testing.T) {
	const sink = "server1.conn0.fxmcpUploadSink9"
	data := make([]byte, 70000)
	for i := range data {
		data[i] = byte(i * 31)
	}
	got := make(chan map[string]any, 3)
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		for range 3 {
			m := p.Expect(sink, "chunk")
			got <- m
			p.Send(`{"from":%q,"received":%d}`, sink, len(data))
		}
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	for _, d := range [][]byte{data, nil, data[:1]} {
		var resp struct{ Received int }
		sent := false
		if err := c.RequestData(testCtx(t), sink, map[string]any{"type": "chunk", "key": "k\"1"}, d, func() { sent = true }, &resp); err != nil || resp.Received != len(data) || !sent {
			t.Fatalf("RequestData = %+v, %v (sent %v)", resp, err, sent)
		}
		m := <-got
		if m["key"] != "k\"1" || m["data"] != base64.StdEncoding.EncodeToString(d) {
			t.Errorf("packet %v, want key and the base64 of %d bytes", m["key"], len(d))
		}
	}
	// A request that is not an object with a type is refused before anything is sent.
	if err := c.RequestData(testCtx(t), sink, map[string]any{"key": "k"}, data, nil, nil); err == nil {
		t.Error("a request without type was sent")
	}
}

// TestFakeTargetGoneRightAfterAck: a document destroyed in the packet right
// after the acknowledgement of an evaluation in it (a navigation at that
// moment) fails the evaluation with ErrTargetGone at once. The waiter is
// registered with the acknowledgement: registered after it, the destruction
// could be handled in between, and the evaluation waited out its timeout.
func TestFakeTargetGoneRightAfterAck(t *testing.T) {
	const (
		tab     = "server1.conn0.tabDescriptor1"
		watcher = "server1.conn0.watcher3"
		rounds  = 20
	)
	doc := func(n int) (target, console string) {
		return fmt.Sprintf("server1.conn0.watcher2.process5//windowGlobalTarget%d", n), fmt.Sprintf("server1.conn0.watcher2.process5//consoleActor%d", n)
	}
	available := func(p *rdptest.Peer, n int) {
		target, console := doc(n)
		p.Send(`{"type":"target-available-form","target":{"actor":%q,"consoleActor":%q,"isTopLevelTarget":true,"url":"http://a/","browsingContextID":10,"innerWindowId":%d,"processID":5},"from":%q}`,
			target, console, 100+n, watcher)
	}
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(tab, "getWatcher")
		p.Send(`{"actor":%q,"traits":{},"from":%q}`, watcher, tab)
		p.Expect(watcher, "watchTargets")
		available(p, 0)
		p.Send(`{"from":%q}`, watcher)
		p.Expect(watcher, "watchResources")
		p.Send(`{"from":%q}`, watcher)
		for n := range rounds {
			target, console := doc(n)
			p.Expect(console, "evaluateJSAsync")
			p.Send(`{"resultID":"r%d","from":%q}`, n, console)
			p.Send(`{"type":"target-destroyed-form","target":{"actor":%q,"isTopLevelTarget":true},"from":%q}`, target, watcher)
			if n+1 < rounds { // after the last round the client may be closing already
				available(p, n+1)
			}
		}
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{RequestTimeout: 10 * time.Second})
	ctx := testCtx(t)
	w, err := c.WatchTab(ctx, Tab{Actor: tab, BrowserID: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for n := range rounds {
		cur, err := w.Current(ctx)
		if _, console := doc(n); err != nil || cur.ConsoleActor != console {
			t.Fatalf("round %d: Current = %+v, %v", n, cur, err)
		}
		start := time.Now()
		_, err = c.EvaluateString(ctx, cur.ConsoleActor, "1", EvalOptions{})
		if !errors.Is(err, ErrTargetGone) || time.Since(start) > 5*time.Second {
			t.Fatalf("round %d: %v after %v, want ErrTargetGone at once", n, err, time.Since(start))
		}
	}
}

// TestFakeWatchStayed: a load Firefox announced (will-navigate) that became
// a download leaves the document in place; Stayed says so, for that
// document only, and its readiness is what it was before the announcement.
func TestFakeWatchStayed(t *testing.T) {
	const (
		tab     = "server1.conn0.tabDescriptor1"
		watcher = "server1.conn0.watcher3"
		t1      = "server1.conn0.watcher2.process5//windowGlobalTarget2"
		c1      = "server1.conn0.watcher2.process5//consoleActor3"
	)
	step := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(tab, "getWatcher")
		p.Send(`{"actor":%q,"traits":{},"from":%q}`, watcher, tab)
		p.Expect(watcher, "watchTargets")
		p.Send(`{"type":"target-available-form","target":{"actor":%q,"consoleActor":%q,"isTopLevelTarget":true,"url":"http://a/","browsingContextID":10,"innerWindowId":100},"from":%q}`, t1, c1, watcher)
		p.Send(`{"from":%q}`, watcher)
		p.Expect(watcher, "watchResources")
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"name":"dom-loading","url":"http://a/"},{"name":"dom-interactive","title":"A","url":"http://a/"},{"name":"dom-complete"}]]],"from":%q}`, t1)
		p.Send(`{"from":%q}`, watcher)
		<-step
		p.Send(`{"type":"resources-available-array","array":[["document-event",[{"browsingContextID":10,"innerWindowId":100,"name":"will-navigate","newURI":"http://a/report.csv"}]]],"from":%q}`, watcher)
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	ctx := testCtx(t)
	w, err := c.WatchTab(ctx, Tab{Actor: tab, BrowserID: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WaitReady(ctx, "complete"); err != nil {
		t.Fatal(err)
	}
	if w.Stayed(100) {
		t.Error("Stayed before any will-navigate: want false")
	}
	step <- struct{}{}
	for deadline := time.Now().Add(5 * time.Second); !w.Leaving(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Leaving is false after will-navigate")
		}
	}
	if w.Stayed(101) || !w.Leaving() {
		t.Error("Stayed for another document: want false, still leaving")
	}
	if !w.Stayed(100) || w.Leaving() || w.ReadyState() != "complete" {
		t.Errorf("Stayed(100): Leaving %v, ReadyState %q; want false, complete", w.Leaving(), w.ReadyState())
	}
}
