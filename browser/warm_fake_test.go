package browser_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

// heldEval is an evaluation the fake acknowledged, to answer later.
type heldEval struct {
	p  *rdptest.Peer
	m  map[string]any
	id string
}

// envelope is the result grip of a page script that returned value.
func envelope(t *testing.T, value any) string {
	t.Helper()
	env, err := json.Marshal(map[string]any{"ok": true, "value": value})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := json.Marshal(string(env))
	return string(s)
}

// fakeWalk is the fake page's walk in the wire form, numbered seq (0: none).
func fakeWalk(seq int) map[string]any {
	w := map[string]any{"title": fakeTitle, "url": fakeURL, "total": 1, "all": 1, "textTotal": 0,
		"rows": []any{[]any{"button", "button", "", "Go", "", 0, "#go", 0}}}
	if seq > 0 {
		w["seq"] = seq
	}
	return w
}

// isWarmCall tells the warm walk's waited call (not a read) from other evaluations.
func isWarmCall(text string) bool {
	return strings.HasPrefix(text, `(typeof _self === "function"`) && strings.Contains(text, `"warm":true`)
}

// waitWarmAnswers waits until s handled n warm walks' answers.
func waitWarmAnswers(t *testing.T, s *session, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); s.WarmAnswers() < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the warm walk's answer was not handled in 5 s (%d handled)", s.WarmAnswers())
		}
	}
}

// TestFakeWarmAnswers: the server keeps the result a warm walk answers with
// only when it is a walk's, readied for the first read, numbered and whole;
// any other answer (not ready, skipped, a "same" or patch answer, no number,
// an error, not an answer at all) is left, and the next read walks, naming
// no result. A kept one is named by the next read, which a "same" answer
// then serves.
func TestFakeWarmAnswers(t *testing.T) {
	ready := func(result any) map[string]any {
		return map[string]any{"warm": "done", "entries": 1, "ready": true, "frames": false, "result": result}
	}
	patch := fakeWalk(1)
	patch["base"], patch["runs"] = 1, []any{0, 1, 0}
	for _, c := range []struct {
		name string
		grip func(t *testing.T) string
		kept bool
	}{
		{"ready", func(t *testing.T) string { return envelope(t, ready(fakeWalk(1))) }, true},
		{"not ready", func(t *testing.T) string {
			return envelope(t, map[string]any{"warm": "done", "entries": 1, "ready": false})
		}, false},
		{"not ready, with a result", func(t *testing.T) string {
			return envelope(t, map[string]any{"warm": "done", "entries": 1, "ready": false, "result": fakeWalk(1)})
		}, false},
		{"skipped", func(t *testing.T) string {
			return envelope(t, map[string]any{"warm": "skipped", "entries": 0, "ready": false})
		}, false},
		{"ready without its result", func(t *testing.T) string { return envelope(t, ready(nil)) }, false},
		{"a same answer", func(t *testing.T) string {
			w := fakeWalk(1)
			w["same"] = 1
			return envelope(t, ready(w))
		}, false},
		{"a patch", func(t *testing.T) string { return envelope(t, ready(patch)) }, false},
		{"not numbered", func(t *testing.T) string { return envelope(t, ready(fakeWalk(0))) }, false},
		{"a walk, not a warm answer", func(t *testing.T) string { return envelope(t, fakeWalk(1)) }, false},
		{"malformed", func(t *testing.T) string { return envelope(t, ready("rows")) }, false},
		{"not an envelope", func(t *testing.T) string { return `"{\"warm\""` }, false},
		{"an error", func(t *testing.T) string {
			s, _ := json.Marshal(`{"ok":false,"error":{"code":"page_script_failed","message":"boom"}}`)
			return string(s)
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeBrowser(t)
			s := f.session()
			var named, warmCalls atomic.Int32
			f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
				text, _ := m["text"].(string)
				switch {
				case isWarmCall(text):
					warmCalls.Add(1)
					f.result(p, m, f.ack(p, m), c.grip(t))
					return
				case strings.HasPrefix(text, `(typeof _self === "function"`) && strings.Contains(text, `"have":1`):
					named.Add(1)
					f.result(p, m, f.ack(p, m), envelope(t, map[string]any{"same": 1}))
					return
				}
				f.answer(p, m)
			})
			must(t, s, "select_tab", map[string]any{"index": 0}) // (installs the resident)
			waitWarmAnswers(t, s, 1)
			if s.WarmKept() != map[bool]int{true: 1}[c.kept] {
				t.Errorf("warm answer %s: %d results kept", c.name, s.WarmKept())
			}
			same := s.SameAnswers()
			snapshotGen(t, s)
			if c.kept && (named.Load() != 1 || s.SameAnswers() != same+1) {
				t.Errorf("after a kept warm result: %d reads named it, %d same answers (was %d)", named.Load(), s.SameAnswers(), same)
			}
			if !c.kept && (named.Load() != 0 || s.SameAnswers() != same) {
				t.Errorf("after a warm answer left: %d reads named result 1, %d same answers (was %d)", named.Load(), s.SameAnswers(), same)
			}
			if warmCalls.Load() != 1 {
				t.Errorf("%d warm calls, want 1", warmCalls.Load())
			}
		})
	}
}

// TestFakeWarmAfterRead: a warm walk's result that arrives after a read kept
// its own is left: the read's stands, and the next read names it.
func TestFakeWarmAfterRead(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	warm := make(chan heldEval, 1)
	var named5, named1 atomic.Int32
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		text, _ := m["text"].(string)
		resident := strings.HasPrefix(text, `(typeof _self === "function"`)
		switch {
		case isWarmCall(text):
			warm <- heldEval{p, m, f.ack(p, m)} // answered below
		case resident && strings.Contains(text, `"have":5`):
			named5.Add(1)
			f.result(p, m, f.ack(p, m), envelope(t, map[string]any{"same": 5}))
		case resident && strings.Contains(text, `"have":1`):
			named1.Add(1)
			f.answer(p, m)
		case resident:
			f.result(p, m, f.ack(p, m), envelope(t, fakeWalk(5)))
		default:
			f.answer(p, m)
		}
	})
	snapshotGen(t, s) // (selects the tab, which installs the resident)
	h := <-warm       // asked once the resident is in
	snapshotGen(t, s) // the resident's walk, result 5, kept (unless the first read kept it)
	f.result(h.p, h.m, h.id, envelope(t, map[string]any{"warm": "done", "entries": 1, "ready": true, "frames": false, "result": fakeWalk(1)}))
	waitWarmAnswers(t, s, 1)
	if s.WarmKept() != 0 {
		t.Errorf("a warm result after a read's: %d kept", s.WarmKept())
	}
	named := named5.Load()
	snapshotGen(t, s)
	if named5.Load() != named+1 || named1.Load() != 0 {
		t.Errorf("the read after: named result 5 %d times (was %d), result 1 %d times", named5.Load(), named, named1.Load())
	}
}

// TestFakeProbeReplacedIsNotKept: a probe of the isolated realm that finds
// its document replaced (select_tab probes in the background, and the tab
// may navigate meanwhile) is not kept as the process's answer: the next
// call that needs the realm probes again.
func TestFakeProbeReplacedIsNotKept(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	var probes atomic.Int32
	failed := make(chan struct{})
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		text, _ := m["text"].(string)
		if strings.Contains(text, "function probe(") || strings.Contains(text, `"fxmcp:probe:`) {
			if probes.Add(1) == 1 {
				s, _ := json.Marshal(`{"ok":false,"error":{"code":"target_replaced","message":"the page's document was replaced"}}`)
				f.result(p, m, f.ack(p, m), string(s))
				close(failed)
				return
			}
		}
		f.answer(p, m)
	})
	must(t, s, "select_tab", map[string]any{"index": 0})
	<-failed
	time.Sleep(50 * time.Millisecond) // (the probe's answer handled)
	snapshotGen(t, s)
	if n := probes.Load(); n != 2 {
		t.Errorf("%d probes, want 2: the one that found its document replaced was kept", n)
	}
}

// TestFakeProbeOnce: a call that needs the isolated realm while the probe
// select_tab started is under way waits for that probe's answer instead of
// probing again.
func TestFakeProbeOnce(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	var probes atomic.Int32
	held := make(chan heldEval, 1)
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		text, _ := m["text"].(string)
		if strings.Contains(text, "function probe(") || strings.Contains(text, `"fxmcp:probe:`) {
			if probes.Add(1) == 1 {
				held <- heldEval{p, m, f.ack(p, m)} // answered below
				return
			}
		}
		f.answer(p, m)
	})
	must(t, s, "select_tab", map[string]any{"index": 0})
	h := <-held
	go func() {
		time.Sleep(100 * time.Millisecond) // (the snapshot below is waiting for it)
		f.result(h.p, h.m, h.id, fakeResult(t, h.m))
	}()
	snapshotGen(t, s)
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes of one process, want 1", n)
	}
}

// TestFakeSelectProbesWithoutBinding: with node binding off, select_tab still
// probes the isolated realm (actions use it), and binds nothing.
func TestFakeSelectProbesWithoutBinding(t *testing.T) {
	f := newFakeBrowser(t)
	s := wrap(browser.New(browser.Options{
		Host: "127.0.0.1", Addr: f.addr, NoNodeBinding: true,
		MaxElements: 500, MaxTextChars: 50000, RequestTimeout: 15 * time.Second, ChunkBytes: 64 << 10,
	}))
	t.Cleanup(s.Close)
	var probes, binds atomic.Int32
	probed := make(chan struct{}, 1)
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		text, _ := m["text"].(string)
		switch {
		case strings.Contains(text, "function probe(") || strings.Contains(text, `"fxmcp:probe:`):
			probes.Add(1)
			defer func() { probed <- struct{}{} }()
		case strings.Contains(text, "function bindRefs(") || strings.Contains(text, `"fxmcp:bindRefs:`):
			binds.Add(1)
		}
		f.answer(p, m)
	})
	must(t, s, "select_tab", map[string]any{"index": 0})
	select {
	case <-probed:
	case <-time.After(5 * time.Second):
		t.Fatal("select_tab did not probe the isolated realm")
	}
	time.Sleep(50 * time.Millisecond) // (a binding evaluation would follow the probe's answer)
	if probes.Load() != 1 || binds.Load() != 0 {
		t.Errorf("%d probes, %d binding evaluations; want 1 and 0", probes.Load(), binds.Load())
	}
}
