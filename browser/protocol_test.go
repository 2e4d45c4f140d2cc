package browser_test

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

// Protocol edge cases a real Firefox cannot produce on demand, played by
// the fake Firefox (fakepeer_test.go) through the engine, on top of the
// real-Firefox fault suite (hostile_test.go, recover_test.go), whose error
// codes they share.

// pageEval reports whether m is an evaluation in the page's content
// process (the page realm or the isolated one), which a stuck page script
// blocks; the parent process's console keeps answering.
func pageEval(m map[string]any) bool {
	return m["type"] == "evaluateJSAsync" && m["to"] != fakeParentCon
}

// onPageEval makes fn take every evaluation in the page's process
// (pageEval) in place of the fake's answer; the rest is answered as usual.
func (f *fakeBrowser) onPageEval(fn func(p *rdptest.Peer, m map[string]any)) {
	f.setHook(func(p *rdptest.Peer, m map[string]any) bool {
		if !pageEval(m) {
			return false
		}
		fn(p, m)
		return true
	})
}

var generationIn = regexp.MustCompile(`generation (\d+)`)

// snapshotGen takes a snapshot that must work and returns its generation.
func snapshotGen(t *testing.T, s *session) uint64 {
	t.Helper()
	res := must(t, s, "snapshot_page", map[string]any{})
	m := generationIn.FindStringSubmatch(res.Text)
	if m == nil || !strings.Contains(res.Text, fakeTitle) {
		t.Fatalf("snapshot of the fake page:\n%s", res.Text)
	}
	n, _ := strconv.ParseUint(m[1], 10, 64)
	return n
}

// newFakeSession starts a fake Firefox and an engine on it, and takes a
// first snapshot; gen is its generation. It returns once the snapshot's
// resident, installed after it, is in place, so that a test's hooks see only
// its own evaluations.
func newFakeSession(t *testing.T) (f *fakeBrowser, s *session, h *harness, gen uint64) {
	f = newFakeBrowser(t)
	s = f.session()
	h = &harness{t: t, s: s}
	gen = snapshotGen(t, s)
	for deadline := time.Now().Add(5 * time.Second); s.InstallPending(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the snapshot's resident is still being installed after 5 s")
		}
	}
	return f, s, h, gen
}

// wantDials checks how many connections the engine opened.
func (f *fakeBrowser) wantDials(t *testing.T, want int32) {
	t.Helper()
	if n := f.dials.Load(); n != want {
		t.Errorf("%d connections, want %d", n, want)
	}
}

// snapshotSoon retries snapshot_page for up to 5 s while it fails with
// code (the fake's packets that end the fault may still be on their way)
// and returns the first snapshot.
func snapshotSoon(t *testing.T, s *session, code errcode.Code) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		res, e := call(t, s, "snapshot_page", map[string]any{})
		if e == nil {
			return res.Text
		}
		if e.Code != code || time.Now().After(deadline) {
			t.Fatalf("snapshot once the fault has ended: %v", e)
		}
	}
}

// TestFakeNoReply: the page's process stops reading requests (a script
// stuck in a loop), so no evaluation there is acknowledged. A snapshot
// answers page_unresponsive at the acknowledgement deadline; the next one
// at once, without waiting again, while browser_status keeps working; once
// the late acknowledgements come, the page answers again on the same
// connection.
func TestFakeNoReply(t *testing.T) {
	f, s, h, _ := newFakeSession(t)
	var (
		mu   sync.Mutex
		peer *rdptest.Peer
		held []map[string]any
	)
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		mu.Lock()
		peer, held = p, append(held, m)
		mu.Unlock()
	})
	h.timed(t, browser.AckTimeout, "snapshot_page", map[string]any{}, errcode.PageUnresponsive)
	h.timed(t, 0, "snapshot_page", map[string]any{}, errcode.PageUnresponsive) // at once: within 1 s, not another 5
	start := time.Now()
	if _, e := call(t, s, "browser_status", map[string]any{}); e != nil || time.Since(start) > 3*time.Second {
		t.Errorf("browser_status while the page is stuck: %v after %v", e, time.Since(start))
	}

	f.setHook(nil)
	mu.Lock()
	for _, m := range held { // the process reads its requests again
		f.result(peer, m, f.ack(peer, m), fakeResult(t, m))
	}
	mu.Unlock()
	snapshotSoon(t, s, errcode.PageUnresponsive)
	f.wantDials(t, 1) // a page that stops answering is no broken connection
}

// TestFakeConnectionDropped: Firefox's side of the connection goes away in
// the middle of a snapshot. The call answers connection_lost at once; the
// next call dials again, takes the same tab back (the same run of Firefox)
// and works, in a new generation.
func TestFakeConnectionDropped(t *testing.T) {
	f, s, h, gen := newFakeSession(t)
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		f.setHook(nil)
		p.Close()
	})
	h.timed(t, 2*time.Second, "snapshot_page", map[string]any{}, errcode.ConnectionLost)
	if again := snapshotGen(t, s); again <= gen {
		t.Errorf("generation %d after the reconnect, was %d", again, gen)
	}
	f.wantDials(t, 2)
}

// TestFakeGarbledPackets: packets Firefox does not send today. Unknown
// notifications and replies nobody asked for in the middle of a call are
// skipped; a frame that is not JSON ends the connection (connection_lost,
// then a redial); a reply of the wrong shape is rdp_protocol and leaves the
// connection up.
func TestFakeGarbledPackets(t *testing.T) {
	t.Run("unknown", func(t *testing.T) {
		f, s, _, gen := newFakeSession(t)
		f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
			doc := fakeDoc(1)
			send(p, `{"from":"root","type":"somethingNew","data":[1,2]}`)
			send(p, `{"from":"server1.conn0.nobody","answer":42}`)
			send(p, `{"from":%q,"type":"frameUpdate","frames":[]}`, doc.target())
			send(p, `{"type":"resources-available-array","array":[["brand-new-resource",[{"x":1}]]],"from":%q}`, doc.target())
			send(p, `{"type":"evaluationResult","resultID":"nobody-asked","result":"x","from":%q}`, doc.console())
			f.answer(p, m)
		})
		noisy := snapshotGen(t, s)
		f.setHook(nil)
		// Nothing was taken for a navigation or a broken connection: the
		// generation stands, on the first connection.
		if after := snapshotGen(t, s); noisy != gen || after != gen {
			t.Errorf("generations %d, %d, %d; want one", gen, noisy, after)
		}
		f.wantDials(t, 1)
	})
	t.Run("not_json", func(t *testing.T) {
		f, s, h, _ := newFakeSession(t)
		f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
			f.setHook(nil)
			send(p, `{"from":"root","tabs":[`)
		})
		h.timed(t, 2*time.Second, "snapshot_page", map[string]any{}, errcode.ConnectionLost)
		snapshotGen(t, s)
		f.wantDials(t, 2)
	})
	t.Run("wrong_shape", func(t *testing.T) {
		f, s, h, _ := newFakeSession(t)
		f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
			f.result(p, m, f.ack(p, m), `42`) // a number where the script's JSON string belongs
		})
		h.timed(t, 2*time.Second, "snapshot_page", map[string]any{}, errcode.RDPProtocolError)
		f.setHook(nil)
		snapshotGen(t, s)
		f.wantDials(t, 1)
	})
}

// TestFakeTargetDestroyed: the tab's document is destroyed while a snapshot
// evaluates in it, and no new one arrives (the tab was sent somewhere the
// debugger cannot reach: Firefox then reports about:blank for it). The call
// answers target_gone once the engine has waited for a new document; when
// one arrives, snapshots work again.
func TestFakeTargetDestroyed(t *testing.T) {
	f, s, h, gen := newFakeSession(t)
	peers := make(chan *rdptest.Peer, 1)
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		if m["to"] != fakeDoc(1).console() {
			f.answer(p, m)
			return
		}
		f.setHook(nil)
		peers <- p
		f.ack(p, m) // and the destruction right behind it
		f.mu.Lock()
		f.tabAt = "about:blank"
		f.mu.Unlock()
		send(p, `{"type":"target-destroyed-form","target":{"actor":%q,"innerWindowId":%d,"isTopLevelTarget":true},"options":{},"from":%q}`,
			fakeDoc(1).target(), fakeDoc(1).innerWindow(), fakeWatcher)
	})
	h.timed(t, browser.TargetWait, "snapshot_page", map[string]any{}, errcode.TargetGone)

	peer := <-peers
	f.mu.Lock()
	f.doc, f.tabAt = 2, fakeURL
	f.mu.Unlock()
	send(peer, `{"type":"target-available-form","target":%s,"from":%q}`, fakeTargetForm(fakeDoc(2)), fakeWatcher)
	fakeLoaded(peer, fakeDoc(2))
	text := snapshotSoon(t, s, errcode.TargetGone)
	if m := generationIn.FindStringSubmatch(text); m == nil || m[1] == strconv.FormatUint(gen, 10) {
		t.Errorf("the new document's snapshot is in the old generation %d:\n%s", gen, text)
	}
}

// TestFakeLateReadyOfReplacedDocument: Firefox reports document events in
// batches, so the document a navigation replaces can be reported complete
// after the navigation began (will-navigate). That report is not the new
// document's: navigate waits for the new one and answers only once it loaded.
func TestFakeLateReadyOfReplacedDocument(t *testing.T) {
	f, s, _, _ := newFakeSession(t)
	var newDoc atomic.Bool
	f.setHook(func(p *rdptest.Peer, m map[string]any) bool {
		if m["type"] != "navigateTo" {
			return false
		}
		send(p, `{"from":%q}`, m["to"])
		old := fakeDoc(1)
		send(p, `{"type":"resources-available-array","array":[["document-event",[{"name":"will-navigate","innerWindowId":%d,"browsingContextID":10,"url":%q}]]],"from":%q}`,
			old.innerWindow(), fakeURL, fakeWatcher)
		fakeLoaded(p, old) // the old document's batch, late
		go func() {
			time.Sleep(200 * time.Millisecond)
			f.mu.Lock()
			f.doc = 2
			f.mu.Unlock()
			newDoc.Store(true)
			send(p, `{"type":"target-destroyed-form","target":{"actor":%q,"innerWindowId":%d,"isTopLevelTarget":true},"options":{},"from":%q}`,
				old.target(), old.innerWindow(), fakeWatcher)
			send(p, `{"type":"target-available-form","target":%s,"from":%q}`, fakeTargetForm(2), fakeWatcher)
			fakeLoaded(p, 2)
		}()
		return true
	})
	must(t, s, "navigate", map[string]any{"url": fakeURL, "wait": "complete", "observe": false})
	if !newDoc.Load() {
		t.Fatal("navigate answered before the new document existed: it took the replaced document's late report")
	}
}

// TestFakeInstallNeverAnswered: the snapshot's resident, installed after the
// first snapshot, is acknowledged but never created (a page whose process
// went busy, say). Later snapshots wait for it at most a moment after it
// started, then evaluate the whole script: none is held up by it.
func TestFakeInstallNeverAnswered(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	var held atomic.Int32
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		if text, _ := m["text"].(string); strings.HasPrefix(text, `(function () { "use strict"; `) {
			held.Add(1)
			f.ack(p, m) // and never a result
			return
		}
		f.answer(p, m)
	})
	snapshotGen(t, s)
	for i := 0; i < 3; i++ {
		start := time.Now()
		snapshotGen(t, s)
		if d := time.Since(start); d > time.Second {
			t.Errorf("snapshot %d with the installation pending took %v", i+2, d)
		}
	}
	if !s.InstallPending() || held.Load() != 1 {
		t.Errorf("installation pending %v, %d held, want one pending", s.InstallPending(), held.Load())
	}
}

// TestFakeLateInstallIsUsed: an installation still pending long after it
// began (past installWait: a page whose load kept its main thread busy) is
// given installGrace when a read comes; answered within it, the read is the
// resident's call, not the whole script.
func TestFakeLateInstallIsUsed(t *testing.T) {
	f := newFakeBrowser(t)
	s := f.session()
	install := make(chan heldEval, 1)
	var whole, calls atomic.Int32
	f.onPageEval(func(p *rdptest.Peer, m map[string]any) {
		text, _ := m["text"].(string)
		switch {
		case strings.HasPrefix(text, `(function () { "use strict"; `):
			install <- heldEval{p, m, f.ack(p, m)} // answered below
			return
		case strings.HasPrefix(text, `(typeof _self === "function"`) && strings.Contains(text, `"warm":true`):
			// (the warm walk, asked once the resident is in: not a read)
		case strings.HasPrefix(text, `(typeof _self === "function"`):
			calls.Add(1)
		case strings.Contains(text, "function snapshot("):
			whole.Add(1)
		}
		f.answer(p, m)
	})
	snapshotGen(t, s) // starts the installation, waits installWait, reads with the whole script
	h := <-install
	if whole.Load() != 1 || calls.Load() != 0 {
		t.Fatalf("first snapshot: %d whole scripts, %d resident calls, want 1 and 0", whole.Load(), calls.Load())
	}
	time.Sleep(300 * time.Millisecond) // the installation is now older than installWait
	go func() {
		time.Sleep(10 * time.Millisecond) // the read below waits for it
		f.result(h.p, h.m, h.id, fakeResult(t, h.m))
	}()
	snapshotGen(t, s)
	if whole.Load() != 1 || calls.Load() != 1 {
		t.Errorf("snapshot with the installation answered 10 ms in: %d whole scripts, %d resident calls, want 1 and 1", whole.Load(), calls.Load())
	}
}

// TestFakeNavigateWhileTheTabLoads: a tab still going through documents of
// its own (a fresh Firefox loading its start page) has each navigateTo land
// on a document already gone, three times over; navigate sends it to each
// new one and loads the URL.
func TestFakeNavigateWhileTheTabLoads(t *testing.T) {
	f, s, _, _ := newFakeSession(t)
	var tries atomic.Int32
	f.setHook(func(p *rdptest.Peer, m map[string]any) bool {
		if m["type"] != "navigateTo" {
			return false
		}
		n := fakeDoc(tries.Add(1))
		if m["to"] != n.target() {
			t.Errorf("navigateTo %d went to %v, want the current document %s", n, m["to"], n.target())
		}
		replace := func() { // the tab's next document
			f.mu.Lock()
			f.doc = n + 1
			f.mu.Unlock()
			send(p, `{"type":"target-destroyed-form","target":{"actor":%q,"innerWindowId":%d,"isTopLevelTarget":true},"options":{},"from":%q}`,
				n.target(), n.innerWindow(), fakeWatcher)
			send(p, `{"type":"target-available-form","target":%s,"from":%q}`, fakeTargetForm(n+1), fakeWatcher)
			fakeLoaded(p, n+1)
		}
		if n <= 3 { // gone before the request landed
			replace()
			send(p, `{"error":"noSuchActor","message":"no such actor","from":%q}`, m["to"])
			return true
		}
		send(p, `{"from":%q}`, m["to"]) // the load asked for
		go func() {
			time.Sleep(50 * time.Millisecond)
			replace()
		}()
		return true
	})
	if _, e := call(t, s, "navigate", map[string]any{"url": fakeURL, "wait": "complete", "observe": false}); e != nil {
		t.Fatalf("navigate after %d tries: %v", tries.Load(), e)
	}
	if n := tries.Load(); n != 4 {
		t.Errorf("navigateTo sent %d times, want 4", n)
	}
}
