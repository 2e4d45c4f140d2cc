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
// load group), while a request of the page's own still counts.
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
		time.Sleep(400 * time.Millisecond)
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
	p.must(isolatedRealm, pagejs.Settle, pagejs.SettleArgs{QuietMS: 10, CapMS: 150, LongMS: 30}, &res)
	if res.Quiet || res.Pending != 1 {
		t.Errorf("with a request of the page's own in flight: %+v, want the cap, one pending", res)
	}
}
