package rdp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

func TestFormatArgs(t *testing.T) {
	obj := `{"type":"object","actor":"o1","class":"Object","preview":{"kind":"Object","ownProperties":{"b":{"value":"two"},"a":{"value":1}}}}`
	arr := `{"type":"object","class":"Array","preview":{"kind":"ArrayLike","length":3,"items":[1,"x"]}}`
	errg := `{"type":"object","class":"TypeError","preview":{"kind":"Error","name":"TypeError","message":"boom"}}`
	node := `{"type":"object","class":"HTMLDivElement","preview":{"kind":"DOMNode","nodeName":"DIV","attributes":{"id":"main"}}}`
	nested := `{"type":"object","class":"Object","preview":{"kind":"Object","ownProperties":{"o":{"value":` + obj + `}}}}`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{`"hello %s"`, `"world"`, `42`, obj}, `hello world 42 {a: 1, b: "two"}`},
		{[]string{`"%d%% of %i"`, `3.7`, `"x"`}, `3% of NaN`},
		{[]string{`"%cstyled"`, `"color:red"`, `true`}, `styled true`},
		{[]string{`"%s and %s"`, `"one"`}, `one and %s`},
		{[]string{arr, errg, node}, `Array(3) [1, "x", …] TypeError: boom <div id="main">`},
		{[]string{`{"type":"undefined"}`, `{"type":"NaN"}`, `{"type":"BigInt","text":"12"}`, `null`}, `undefined NaN 12n null`},
		{[]string{`{"type":"longString","initial":"abc","length":20000,"actor":"l1"}`}, `abc… (20000 characters)`},
		{[]string{`{"type":"symbol","name":"s"}`, nested}, `Symbol("s") {o: Object}`},
		{[]string{`{"type":"object","class":"Map"}`, `{bad`}, `Map ?`},
	} {
		raw := make([]json.RawMessage, len(tc.args))
		for i, a := range tc.args {
			raw[i] = json.RawMessage(a)
		}
		if got := formatArgs(raw); got != tc.want {
			t.Errorf("formatArgs(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
	long := strings.Repeat("é", maxConsoleText)
	if got := cut(long, maxConsoleText); len(got) > maxConsoleText || !strings.HasSuffix(got, "…") {
		t.Errorf("cut: %d bytes", len(got))
	}
}

func TestBufferBounds(t *testing.T) {
	r := newResources()
	for i := 0; i < MaxConsoleEntries+10; i++ {
		r.addConsole(&ConsoleEntry{Kind: "console", Text: "x"})
	}
	if len(r.console.items) != MaxConsoleEntries || r.console.dropped != 10 || r.console.items[0].Seq != 11 {
		t.Errorf("count bound: %d kept, %d dropped, first %d", len(r.console.items), r.console.dropped, r.console.items[0].Seq)
	}
	// The byte budget evicts too: 2 MiB of 4,000-byte texts is ≈520 entries.
	r = newResources()
	big := strings.Repeat("y", maxConsoleText)
	for i := 0; i < MaxConsoleEntries; i++ {
		r.addConsole(&ConsoleEntry{Kind: "console", Text: big})
	}
	if r.console.bytes > maxBufferBytes || len(r.console.items) >= MaxConsoleEntries || len(r.console.items) < 400 {
		t.Errorf("byte bound: %d entries, %d bytes", len(r.console.items), r.console.bytes)
	}
	// Evicted requests leave the indexes.
	for i := 0; i < MaxNetworkEntries+5; i++ {
		r.addNetwork(&NetworkEntry{URL: "u", resourceID: int64(i)})
	}
	if len(r.byResource) != MaxNetworkEntries || len(r.bySeq) != MaxNetworkEntries || r.bySeq[1] != nil || r.byResource[0] != nil {
		t.Errorf("indexes: %d by resource, %d by seq", len(r.byResource), len(r.bySeq))
	}
}

func TestBlockedReason(t *testing.T) {
	for raw, want := range map[string]string{``: "", `0`: "", `false`: "", `null`: "", `""`: "", `"unknown"`: "unknown", `2153644038`: "2153644038"} {
		if got := blockedReason(json.RawMessage(raw)); got != want {
			t.Errorf("blockedReason(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestFakeWatchResources: console, error and network resources reach the
// buffers from the targets and the watcher, a navigation adds a line and
// retires earlier request actors, a clone keeps the buffers after the first
// handle closes, and request details come from the netEvent actor.
func TestFakeWatchResources(t *testing.T) {
	const (
		tab     = "server1.conn0.tabDescriptor1"
		watcher = "server1.conn0.watcher3"
		t1      = "server1.conn0.watcher2.process5//windowGlobalTarget2"
		t2      = "server1.conn0.watcher2.process7//windowGlobalTarget2"
		ne1     = "server1.conn0.netEvent12"
		ne2     = "server1.conn0.netEvent13"
		body    = "server1.conn0.longstractor9"
	)
	form := func(actor, url string) string {
		return fmt.Sprintf(`{"actor":%q,"consoleActor":"c","screenshotContentActor":"sc","isTopLevelTarget":true,"url":%q,"browsingContextID":10,"innerWindowId":100}`, actor, url)
	}
	step := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(tab, "getWatcher")
		p.Send(`{"actor":%q,"from":%q}`, watcher, tab)
		p.Expect(watcher, "watchTargets")
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(t1, "http://a/"), watcher)
		p.Send(`{"from":%q}`, watcher)
		m := p.Expect(watcher, "watchResources")
		if fmt.Sprint(m["resourceTypes"]) != "[document-event console-message error-message network-event]" {
			p.T.Errorf("watchResources = %v", m["resourceTypes"])
		}
		p.Send(`{"from":%q}`, watcher)
		p.Send(`{"type":"resources-available-array","array":[["console-message",[{"arguments":["hi",1],"level":"warn","filename":"http://a/app.js","lineNumber":3,"columnNumber":7,"timeStamp":1},{"arguments":["chrome"],"level":"log","chromeContext":true},{"arguments":["ours"],"level":"log","filename":"firefox-rdp-mcp","lineNumber":1}]],["error-message",[{"pageError":{"errorMessage":"initNSMouseEvent() is deprecated.","sourceName":"firefox-rdp-mcp","lineNumber":122,"warning":true}},{"pageError":{"errorMessage":"ours too","sourceName":"","stacktrace":[{"filename":"firefox-rdp-mcp","lineNumber":4}],"error":true}},{"pageError":{"errorMessage":"ReferenceError: x is not defined","sourceName":"http://a/app.js","lineNumber":8,"columnNumber":2,"error":true}},{"pageError":{"errorMessage":{"type":"longString","initial":"Error: long","length":20000},"sourceName":"","stacktrace":[{"filename":"http://a/s.js","lineNumber":4,"columnNumber":1}],"error":true,"isPromiseRejection":true}}]]],"from":%q}`, t1)
		p.Send(`{"type":"resources-available-array","array":[["network-event",[{"actor":%q,"resourceId":5,"method":"GET","url":"http://a/data","cause":{"type":"fetch"},"timeStamp":2},{"actor":%q,"resourceId":6,"method":"POST","url":"http://a/x","cause":{"type":"xhr"},"blockedReason":"unknown"}]]],"from":%q}`, ne1, ne2, watcher)
		p.Send(`{"type":"resources-updated-array","array":[["network-event",[{"resourceId":5,"resourceUpdates":{"status":"200","statusText":"OK","mimeType":"application/json","contentSize":12,"transferredSize":99,"totalTime":4,"responseEndAvailable":true}},{"resourceId":77,"resourceUpdates":{"status":"500"}}]]],"from":%q}`, watcher)
		<-step
		p.Expect(ne1, "getRequestHeaders")
		p.Send(`{"headers":[{"name":"Cookie","value":"sid=1"},{"name":"X-Long","value":{"type":"longString","actor":"l2","initial":"aaa","length":20000}}],"from":%q}`, ne1)
		p.Expect(ne1, "getResponseHeaders")
		p.Send(`{"headers":[{"name":"Content-Type","value":"application/json"}],"from":%q}`, ne1)
		p.Expect(ne1, "getResponseContent")
		p.Send(`{"content":{"mimeType":"application/json","text":{"type":"longString","actor":%q,"initial":"{","length":30000}},"contentDiscarded":false,"from":%q}`, body, ne1)
		m = p.Expect(body, "substring")
		if m["start"] != 0.0 || m["end"] != 5.0 {
			p.T.Errorf("substring = %v", m)
		}
		p.Send(`{"substring":"{\"a\":","from":%q}`, body)
		<-step
		p.Send(`{"type":"target-destroyed-form","target":{"actor":%q,"isTopLevelTarget":true},"from":%q}`, t1, watcher)
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(t2, "http://b/"), watcher)
		p.Send(`{"type":"resources-available-array","array":[["console-message",[{"arguments":["on b"],"level":"debug"}]]],"from":%q}`, t2)
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	ctx := testCtx(t)
	w, err := c.WatchTab(ctx, Tab{Actor: tab, BrowserID: 9})
	if err != nil {
		t.Fatal(err)
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("network update", func() bool { e, ok := w.Request(1); return ok && e.Done })
	cons, _ := w.Console()
	if len(cons) != 3 {
		t.Fatalf("console = %+v", cons)
	}
	if e := cons[0]; e.Kind != "console" || e.Level != "warning" || e.Method != "warn" || e.Text != "hi 1" || e.Source != "http://a/app.js" || e.Line != 3 || e.Col != 7 {
		t.Errorf("console entry = %+v", e)
	}
	if e := cons[1]; e.Kind != "exception" || e.Level != "error" || e.Text != "ReferenceError: x is not defined" || e.Line != 8 || e.Rejection {
		t.Errorf("error entry = %+v", e)
	}
	if e := cons[2]; !e.Rejection || e.Source != "http://a/s.js" || e.Line != 4 || !strings.HasPrefix(e.Text, "Error: long… (20000") {
		t.Errorf("rejection entry = %+v", e)
	}
	net, _ := w.Network()
	if len(net) != 2 || net[0].Status != 200 || net[0].MimeType != "application/json" || net[0].ContentSize != 12 || net[0].TotalTime != 4 ||
		net[1].Blocked != "unknown" || net[1].Method != "POST" || net[1].Status != 0 {
		t.Fatalf("network = %+v", net)
	}
	step <- struct{}{}
	d, err := w.RequestDetails(ctx, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.RequestHeaders) != 2 || d.RequestHeaders[0].Value != "sid=1" || !d.RequestHeaders[1].Truncated || d.RequestHeaders[1].Value != "aaa" ||
		d.ResponseHeaders[0].Name != "Content-Type" || d.Body != `{"a":` || d.BodyLength != 30000 || !d.BodyTruncated {
		t.Errorf("details = %+v", d)
	}

	// A clone keeps the buffers alive after the first handle closes.
	k, err := w.Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	w.Close()
	step <- struct{}{}
	waitFor("navigation line", func() bool { c, _ := k.Console(); return len(c) == 5 })
	cons, _ = k.Console()
	if cons[3].Kind != "navigation" || cons[3].URL != "http://b/" || cons[4].Text != "on b" || cons[4].Level != "debug" {
		t.Errorf("after navigation = %+v", cons[3:])
	}
	if _, err := k.RequestDetails(ctx, 1, 5); !errors.Is(err, ErrDetailsGone) {
		t.Errorf("details after navigation: %v, want ErrDetailsGone", err)
	}
	if _, err := k.RequestDetails(ctx, 99, 5); !errors.Is(err, ErrDetailsGone) {
		t.Errorf("details of an unknown request: %v", err)
	}
	if cur, err := k.Current(ctx); err != nil || cur.ScreenshotActor != "sc" {
		t.Errorf("Current = %+v, %v", cur, err)
	}
}

// FuzzResourceEntries: whatever a page makes Firefox send, building
// entries never panics and stays within the stored bounds.
func FuzzResourceEntries(f *testing.F) {
	f.Add(`[{"arguments":["a %s %d %c",{"type":"object","class":"Object","preview":{"kind":"Object","ownProperties":{"k":{"value":{"type":"longString","initial":"x","length":9}}}}}],"level":"warn","filename":"u"}]`)
	f.Add(`[{"pageError":{"errorMessage":{"type":"longString","initial":"e","length":1},"stacktrace":[{"filename":"f"}]}}]`)
	f.Add(`[{"actor":"a","resourceId":1,"url":"http://x/","blockedReason":7}]`)
	f.Fuzz(func(t *testing.T, list string) {
		var ms []consoleMessage
		if json.Unmarshal([]byte(list), &ms) == nil {
			for i := range ms {
				if e := ms[i].entry(); len(e.Text) > maxConsoleText || len(e.Source) > maxSourceBytes {
					t.Fatalf("console entry over bounds: %d, %d", len(e.Text), len(e.Source))
				}
			}
		}
		var es []pageError
		if json.Unmarshal([]byte(list), &es) == nil {
			for i := range es {
				if e := es[i].entry(); len(e.Text) > maxConsoleText || len(e.Source) > maxSourceBytes {
					t.Fatalf("error entry over bounds")
				}
			}
		}
		var ns []networkAvailable
		if json.Unmarshal([]byte(list), &ns) == nil {
			r := newResources()
			for i := range ns {
				e := ns[i].entry()
				if len(e.URL) > maxURLBytes || len(e.Method) > maxFieldBytes || len(e.Blocked) > maxFieldBytes {
					t.Fatalf("network entry over bounds")
				}
				r.addNetwork(e)
			}
		}
	})
}

// TestRenderValueLeavesEscapingToThePageTextRendering: a string inside an
// object preview is quoted, with only '"' and '\' escaped, so control and
// invisible characters reach the one escaper of page text (\u{HEX} in
// every tool) instead of showing as Go's \x1b or \u2028.
func TestRenderValueLeavesEscapingToThePageTextRendering(t *testing.T) {
	obj := `{"type":"object","class":"Object","preview":{"kind":"Object","ownProperties":{"k":{"value":"a\u001b\u2028\"q\"\\"}}}}`
	if got, want := renderValue(json.RawMessage(obj), 0), "{k: \"a\x1b\u2028\\\"q\\\"\\\\\"}"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
