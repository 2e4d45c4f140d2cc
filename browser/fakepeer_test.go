package browser_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

// The fake Firefox of these tests (an rdptest peer) shows one tab whose
// document lives in content process 7. Actor names follow Firefox's shapes:
// the document's actors sit under a forwarding prefix ("…process7/").
const (
	fakeParentDesc  = "server1.conn0.processDescriptor1"
	fakeParentCon   = "server1.conn0.consoleActor3"
	fakeTab         = "server1.conn0.tabDescriptor4"
	fakeBrowserID   = 9
	fakeWatcher     = "server1.conn0.watcher5"
	fakeContentDesc = "server1.conn0.processDescriptor6"
	fakeContentCon  = "server1.conn0.content-process8/console2"
	fakePID         = 7
	fakeURL         = "http://fake.test/"
	fakeTitle       = "Fake page"
)

// fakeDoc is the n-th document of the tab; its actors sit under the
// content process's forwarding prefix.
type fakeDoc int

const fakePrefix = "server1.conn0.watcher5.process7/"

func (d fakeDoc) target() string     { return fmt.Sprintf("%s/windowGlobalTarget%d", fakePrefix, 10+d) }
func (d fakeDoc) console() string    { return fmt.Sprintf("%s/consoleActor%d", fakePrefix, 10+d) }
func (d fakeDoc) innerWindow() int64 { return 100 + int64(d) }

// fakeBrowser plays enough of Firefox for the engine to dial, select the tab
// and snapshot it: the replies a real Firefox 153 gives (shapes recorded
// from one), one canned snapshot. A test steers it through hook, which sees
// every request first and reports whether it took care of it (answering,
// or deliberately not).
type fakeBrowser struct {
	t     *testing.T
	addr  netip.AddrPort
	dials atomic.Int32 // connections the engine opened (Options.Dial)

	mu    sync.Mutex
	doc   fakeDoc                                      // the tab's current document
	tabAt string                                       // the tab's address as getTab reports it
	hook  func(p *rdptest.Peer, m map[string]any) bool // nil: none
	evals int                                          // resultIDs handed out
}

func newFakeBrowser(t *testing.T) *fakeBrowser {
	f := &fakeBrowser{t: t, doc: 1, tabAt: fakeURL}
	f.addr = rdptest.Serve(t, f.serve)
	return f
}

// setHook replaces the hook (nil: none).
func (f *fakeBrowser) setHook(h func(p *rdptest.Peer, m map[string]any) bool) {
	f.mu.Lock()
	f.hook = h
	f.mu.Unlock()
}

// session is an engine on the fake, dialling through Options.Dial.
func (f *fakeBrowser) session() *session {
	s := wrap(browser.New(browser.Options{
		Host: "127.0.0.1", Addr: f.addr,
		MaxElements: 500, MaxTextChars: 50000, RequestTimeout: 15 * time.Second,
		ChunkBytes: 64 << 10,
		Dial: func(ctx context.Context, ep rdp.Endpoint, opts rdp.Options) (browser.Connection, error) {
			f.dials.Add(1)
			return browser.DialRDP(ctx, ep, opts)
		},
	}))
	f.t.Cleanup(s.Close)
	return s
}

// serve runs one connection: the greeting, then every request in turn.
func (f *fakeBrowser) serve(p *rdptest.Peer) {
	p.Send(rdptest.Greeting)
	for m := range p.Requests() {
		f.mu.Lock()
		hook := f.hook
		f.mu.Unlock()
		if hook != nil && hook(p, m) {
			continue
		}
		f.answer(p, m)
	}
}

// send writes a packet; a connection the engine closed meanwhile is no
// error (its requests are moot).
func send(p *rdptest.Peer, format string, args ...any) {
	p.Write(fmt.Sprintf(format, args...))
}

// answer gives Firefox's reply to m.
func (f *fakeBrowser) answer(p *rdptest.Peer, m map[string]any) {
	to, _ := m["to"].(string)
	typ, _ := m["type"].(string)
	f.mu.Lock()
	doc, tabAt := f.doc, f.tabAt
	f.mu.Unlock()
	switch {
	case typ == "evaluateJSAsync":
		f.evaluate(p, m)
	case to == "root" && typ == "getProcess":
		send(p, `{"processDescriptor":{"actor":%q,"id":0,"isParent":true},"from":"root"}`, fakeParentDesc)
	case to == "root" && typ == "listProcesses":
		send(p, `{"processes":[{"actor":%q,"id":0,"isParent":true},{"actor":%q,"id":%d,"isParent":false}],"from":"root"}`, fakeParentDesc, fakeContentDesc, fakePID)
	case to == fakeParentDesc && typ == "getTarget":
		send(p, `{"process":{"actor":"server1.conn0.parentProcessTarget2","consoleActor":%q},"from":%q}`, fakeParentCon, to)
	case to == fakeContentDesc && typ == "getTarget":
		send(p, `{"process":{"actor":"server1.conn0.content-process8/contentProcessTarget1","consoleActor":%q},"from":%q}`, fakeContentCon, to)
	case to == "root" && typ == "listTabs":
		send(p, `{"tabs":[%s],"from":"root"}`, fakeTabForm(tabAt))
	case to == "root" && typ == "getTab":
		send(p, `{"tab":%s,"from":"root"}`, fakeTabForm(tabAt))
	case to == fakeTab && typ == "getWatcher":
		send(p, `{"actor":%q,"traits":{},"from":%q}`, fakeWatcher, to)
	case to == fakeWatcher && typ == "watchTargets":
		send(p, `{"type":"target-available-form","target":%s,"from":%q}`, fakeTargetForm(doc), fakeWatcher)
		send(p, `{"from":%q}`, fakeWatcher)
	case to == fakeWatcher && typ == "watchResources":
		fakeLoaded(p, doc)
		send(p, `{"from":%q}`, fakeWatcher)
	case to == fakeWatcher && (typ == "unwatchTargets" || typ == "unwatchResources" || typ == "clearResources"):
		// notifications: Firefox sends no reply
	case typ == "release":
		send(p, `{"from":%q}`, to)
	default:
		f.t.Errorf("fake Firefox: unexpected request %v", m)
		send(p, `{"from":%q,"error":"unrecognizedPacketType","message":"no %s"}`, to, typ)
	}
}

func fakeTabForm(url string) string {
	return fmt.Sprintf(`{"actor":%q,"browserId":%d,"browsingContextID":10,"outerWindowID":20,"selected":true,"title":%q,"url":%q,"traits":{"watcher":true}}`,
		fakeTab, fakeBrowserID, fakeTitle, url)
}

func fakeTargetForm(d fakeDoc) string {
	return fmt.Sprintf(`{"actor":%q,"consoleActor":%q,"targetType":"frame","isTopLevelTarget":true,"url":%q,"title":%q,"browsingContextID":10,"innerWindowId":%d,"processID":%d}`,
		d.target(), d.console(), fakeURL, fakeTitle, d.innerWindow(), fakePID)
}

// fakeLoaded sends the document events of a document that finished loading.
func fakeLoaded(p *rdptest.Peer, d fakeDoc) {
	send(p, `{"type":"resources-available-array","array":[["document-event",[{"name":"dom-loading","url":%q},{"name":"dom-interactive","title":%q,"url":%q},{"name":"dom-complete"}]]],"from":%q}`,
		fakeURL, fakeTitle, fakeURL, d.target())
}

// evaluate acknowledges an evaluation and sends its result, which depends
// on the script the engine sent.
func (f *fakeBrowser) evaluate(p *rdptest.Peer, m map[string]any) {
	id := f.ack(p, m)
	f.result(p, m, id, fakeResult(f.t, m))
}

// ack sends an evaluation's acknowledgement and returns its resultID.
func (f *fakeBrowser) ack(p *rdptest.Peer, m map[string]any) string {
	f.mu.Lock()
	f.evals++
	id := fmt.Sprintf("1.%d-%d", f.evals, f.evals)
	f.mu.Unlock()
	send(p, `{"resultID":%q,"from":%q}`, id, m["to"])
	return id
}

// result sends the evaluationResult of the evaluation acknowledged as id;
// grip is the result's JSON (a string holding the script's envelope, or an
// object grip).
func (f *fakeBrowser) result(p *rdptest.Peer, m map[string]any, id, grip string) {
	send(p, `{"type":"evaluationResult","resultID":%q,"hasException":false,"result":%s,"startTime":1,"timestamp":2,"from":%q}`, id, grip, m["to"])
}

// fakeResult is the result grip for the script in evaluation m: page
// scripts are told apart by their function's name, which the pagejs
// builders keep in the source, or (the isolated realm's short form) by the
// name of the copy it calls, which the fake acts as keeping.
func fakeResult(t *testing.T, m map[string]any) string {
	text, _ := m["text"].(string)
	is := func(name string) bool {
		return strings.Contains(text, "function "+name+"(") || strings.Contains(text, `"fxmcp:`+name+`:`)
	}
	resident := strings.HasPrefix(text, `(function () { "use strict"; `)
	var value any
	switch {
	case resident && strings.Contains(text, "function snapshot("):
		return fmt.Sprintf(`{"type":"object","class":"Function","actor":"%s/obj1"}`, fakePrefix)
	case is("snapshot"), strings.HasPrefix(text, `(typeof _self === "function"`):
		// the wire form (pagejs/snapjson.go): one button
		value = map[string]any{"title": fakeTitle, "url": fakeURL, "total": 1, "all": 1, "textTotal": 0,
			"rows": []any{[]any{"button", "button", "", "Go", "", 0, "#go", 0}}}
	case is("browserInstance"):
		value = pagejs.BrowserInstanceResult{PID: 4242, Started: 1.7e12}
	case is("tabList"):
		value = map[string]any{"tabs": []any{map[string]any{"browserId": fakeBrowserID, "title": fakeTitle, "url": fakeURL, "selected": true}}}
	case is("browserStartup"):
		value = pagejs.BrowserStartupResult{Window: true, Ready: true}
	case is("dialogState"):
		value = pagejs.DialogStateResult{Open: false}
	case is("tabDocument"): // a load under way: its document is waited for
		value = pagejs.TabDocumentResult{Found: true, Loading: true}
	case is("probe"):
		value = pagejs.ProbeResult{TrustedClick: true, TIP: true, MozSetFileArray: true}
	case is("bindRefs"):
		value = pagejs.BindRefsResult{}
	case is("listenerMarks"):
		value = pagejs.ListenerMarksResult{Seq: 1}
	case is("loadState"):
		value = pagejs.LoadStateResult{URL: fakeURL, Title: fakeTitle, ReadyState: "complete", DocumentURI: fakeURL, Status: 200}
	case is("pageInfo"):
		value = pagejs.PageInfoResult{URL: fakeURL, Title: fakeTitle, ReadyState: "complete"}
	default:
		t.Errorf("fake Firefox: unexpected script %.300s", text)
		return `{"type":"undefined"}`
	}
	env, err := json.Marshal(map[string]any{"ok": true, "value": value})
	if err != nil {
		t.Error(err)
	}
	s, _ := json.Marshal(string(env))
	return string(s)
}

// TestFakePeerWorks: the fake plays its part: the engine selects its tab by
// itself and snapshots it, on one connection.
func TestFakePeerWorks(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	res := must(t, s, "snapshot_page", map[string]any{})
	if !strings.Contains(res.Text, fakeTitle) || !strings.Contains(res.Text, "tab-9") || ref(t, res.Text, "button", "Go") == "" {
		t.Fatalf("snapshot on the fake:\n%s", res.Text)
	}
	must(t, s, "snapshot_page", map[string]any{}) // through the resident
	if n := f.dials.Load(); n != 1 {
		t.Errorf("%d dials, want 1", n)
	}
}
