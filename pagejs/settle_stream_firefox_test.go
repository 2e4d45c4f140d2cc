package pagejs_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxSettleEventStream: an EventSource's request stays open as long
// as the page lives; the settle does not wait for it (isolated realm: the
// load group), while a request of the page's own still counts, unless it
// opened before the action began (Began); a Began the page's clock disagrees
// with (later than now) turns that rule off.
func TestFirefoxSettleEventStream(t *testing.T) {
	done := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>stream</title><p>events</p><script>window.__es = new EventSource("/events");</script>`)
	})
	mux.HandleFunc("/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: hello\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-done:
		case <-time.After(3 * time.Second):
		}
		fmt.Fprint(w, "{}")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // first: the stream ends, then the server closes
	p := openOn(t, srv.URL, "/page.html")
	p.waitJS(`String(window.__es.readyState)`, "1") // open

	args := pagejs.SettleArgs{QuietMS: 10, CapMS: 1500, LongMS: 30}
	var res pagejs.SettleResult
	p.must(isolatedRealm, pagejs.Settle, args, &res)
	if !res.Requests || !res.Quiet || res.Pending != 0 {
		t.Errorf("with the event stream open: %+v, want quiet, nothing pending", res)
	}
	p.js(`(fetch("/slow"), 1)`)
	capped := pagejs.SettleArgs{QuietMS: 10, CapMS: 150, LongMS: 30}
	p.must(isolatedRealm, pagejs.Settle, capped, &res)
	if res.Quiet || res.Pending != 1 {
		t.Errorf("with a request of the page's own in flight: %+v, want the cap, one pending", res)
	}
	// The request opened before the action began: not the action's. (The
	// action begins once the request is seen in flight: a fetch's request
	// opens after the script that called it returned, a few ms later under
	// load, which once put it after a Began taken right after the script.)
	began := time.Now()
	since := capped
	since.Began = began.UnixMilli()
	p.must(isolatedRealm, pagejs.Settle, since, &res)
	if !res.Quiet || res.Pending != 0 {
		t.Errorf("the request opened before Began: %+v, want quiet, nothing pending", res)
	}
	since.Began = time.Now().Add(time.Hour).UnixMilli()
	p.must(isolatedRealm, pagejs.Settle, since, &res)
	if res.Quiet || res.Pending != 1 {
		t.Errorf("a Began later than the page's clock: %+v, want the rule off (the cap, one pending)", res)
	}
}

// TestFirefoxSettleFavicon: the favicon Firefox fetches for a document by
// itself, in the document's load group and pending after its load (here held
// by the server), is not a request of the page's to wait for: the settle is
// quiet at once (isolated realm), while an image the page loads late, as
// slow, still counts (an image's request, which implements no isPending,
// once turned the watch of requests off), until it has loaded.
func TestFirefoxSettleFavicon(t *testing.T) {
	done := make(chan struct{})
	asked := make(chan struct{}, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>icon</title><link rel="icon" href="/icon.png"><p>a page with a slow icon</p>`)
	})
	slow := func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-done:
		case <-time.After(3 * time.Second):
		}
		w.Header().Set("Content-Type", "image/png")
	}
	mux.HandleFunc("/icon.png", slow)
	lateDone := make(chan struct{})
	mux.HandleFunc("/late.png", func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-lateDone:
		}
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write(gif1x1)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	p := openOn(t, srv.URL, "/page.html")
	select {
	case <-asked:
	case <-time.After(5 * time.Second):
		t.Fatal("Firefox never asked for the page's icon")
	}
	args := pagejs.SettleArgs{QuietMS: 10, CapMS: 600, LongMS: 30}
	var res pagejs.SettleResult
	p.must(isolatedRealm, pagejs.Settle, args, &res)
	if !res.Requests || !res.Quiet || res.Pending != 0 {
		t.Errorf("with the icon in flight: %+v, want quiet, nothing pending", res)
	}
	p.js(`(window.__late = Object.assign(new Image(), {src: "/late.png"}), 1)`)
	<-asked
	capped := pagejs.SettleArgs{QuietMS: 10, CapMS: 150, LongMS: 30}
	p.must(isolatedRealm, pagejs.Settle, capped, &res)
	if res.Quiet || res.Pending != 1 || !res.Requests {
		t.Errorf("with an image of the page's in flight: %+v, want the cap, one pending", res)
	}
	// An image loading since before the action began is not the action's
	// (a slow picture on the page would hold every action to its cap).
	since := capped
	since.Began = time.Now().UnixMilli()
	p.must(isolatedRealm, pagejs.Settle, since, &res)
	if !res.Quiet || res.Pending != 0 || !res.Requests {
		t.Errorf("the image's request opened before Began: %+v, want quiet, nothing pending", res)
	}
	close(lateDone)
	if got := p.waitJS(`window.__late.complete && window.__late.naturalWidth`, "1"); got != "1" {
		t.Fatalf("the late image did not load: %s", got)
	}
	p.must(isolatedRealm, pagejs.Settle, capped, &res)
	if !res.Quiet || res.Pending != 0 || !res.Requests {
		t.Errorf("once the image loaded: %+v, want quiet, nothing pending", res)
	}
}

// gif1x1 is a 1×1 transparent GIF.
var gif1x1 = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
