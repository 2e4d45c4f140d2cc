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
