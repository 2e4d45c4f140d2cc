package rdp

import (
	"fmt"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

// Frames and Frame follow the frame targets the watcher reports: only
// frames, the newer document of a frame mid-navigation, none once destroyed.
func TestFakeWatchFrames(t *testing.T) {
	const (
		tab     = "server1.conn0.tabDescriptor1"
		watcher = "server1.conn0.watcher3"
		top     = "server1.conn0.watcher2.process5//windowGlobalTarget2"
		f1      = "server1.conn0.watcher2.process9//windowGlobalTarget4"
		f2      = "server1.conn0.watcher2.process9//windowGlobalTarget6"
	)
	form := func(actor string, isTop bool, url string, bc, iw int64) string {
		return fmt.Sprintf(`{"actor":%q,"consoleActor":%q,"isTopLevelTarget":%t,"url":%q,"title":"","browsingContextID":%d,"innerWindowId":%d,"processID":9}`, actor, actor+"c", isTop, url, bc, iw)
	}
	step := make(chan struct{})
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect(tab, "getWatcher")
		p.Send(`{"actor":%q,"traits":{},"from":%q}`, watcher, tab)
		p.Expect(watcher, "watchTargets")
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(top, true, "http://a/", 10, 100), watcher)
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(f1, false, "http://b/form", 11, 101), watcher)
		p.Send(`{"from":%q}`, watcher)
		p.Expect(watcher, "watchResources")
		p.Send(`{"from":%q}`, watcher)
		<-step // the frame navigates: the new document first, then the old one's end
		p.Send(`{"type":"target-available-form","target":%s,"from":%q}`, form(f2, false, "http://b/step2", 11, 105), watcher)
		<-step
		p.Send(`{"type":"target-destroyed-form","target":{"actor":%q},"from":%q}`, f1, watcher)
		<-step
		p.Send(`{"type":"target-destroyed-form","target":{"actor":%q},"from":%q}`, f2, watcher)
		p.Idle(2 * time.Second)
	})
	c := dialFake(t, addr, Options{})
	ctx := testCtx(t)
	w, err := c.WatchTab(ctx, Tab{Actor: tab, BrowserID: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if fs := w.Frames(); len(fs) != 1 || fs[0].Actor != f1 || !fs[0].Frame || fs[0].InnerWindowID != 101 {
		t.Fatalf("Frames = %+v", fs)
	}
	if cur, _ := w.Current(ctx); cur.Frame {
		t.Errorf("the top target is marked as a frame")
	}
	waitFrame := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			f, ok := w.Frame(11)
			if (want == 0 && !ok) || (ok && f.InnerWindowID == want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("Frame(11) = %+v, %v; want inner window %d", f, ok, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	step <- struct{}{}
	waitFrame(105) // both listed: the newer is current
	step <- struct{}{}
	waitFrame(105)
	step <- struct{}{}
	waitFrame(0)
	if fs := w.Frames(); len(fs) != 0 {
		t.Errorf("Frames after destruction = %+v", fs)
	}
}
