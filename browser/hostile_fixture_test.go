package browser_test

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostilePages serves the fault and hostile-page fixtures on a loopback
// address of its own (127.0.0.x): each address is a site of its own to
// Firefox, so its pages run in content processes apart from the other
// tests' pages (a page stuck in a loop blocks its whole process, for good).
type hostilePages struct {
	srv *httptest.Server
}

func (h *hostilePages) url(path string) string { return h.srv.URL + path }

func htmlPage(title, body string) string {
	return "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) + "</title></head><body>" + body + "</body></html>"
}

func newHostilePages(t testing.TB, ip string) *hostilePages {
	mux := http.NewServeMux()
	serve := func(path, doc string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, doc)
		})
	}
	serve("/ok", htmlPage("Other tab", `<h1>Other tab</h1><button type="button">Fine</button>`))
	serve("/loop", htmlPage("Busy loop", `<button type="button">Spin</button><script>setTimeout(() => { while (true) {} }, 1500);</script>`))
	serve("/tofile", htmlPage("To file", `<p>leaving</p><script>setTimeout(() => { location.href = "/redirect-file"; }, 300);</script>`))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2500 * time.Millisecond) // a slow site's first answer
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, htmlPage("Slow site", `<h1>Slow site</h1><a href="/ok">Jobs</a>`))
	})
	mux.HandleFunc("/redirect-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/hostname", http.StatusFound)
	})
	serve("/beforeunload", htmlPage("Unsaved form", `<input aria-label="Draft"><button type="button" id="b">Touch</button><a href="/ok">Leave</a>`+
		`<script>addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "unsaved"; });</script>`))
	serve("/alertload", "<!doctype html><html><head><title>Alert while loading</title><script>alert(\"Welcome back\");</script></head><body><p>loaded</p></body></html>")
	serve("/storm", htmlPage("Dialog storm", `<button type="button" id="go">Storm</button><pre id="log"></pre>`+
		`<script>document.getElementById("go").addEventListener("click", () => { for (let i = 0; i < 50; i++) { alert("storm " + i); } document.getElementById("log").textContent = "storm over"; });</script>`))
	serve("/typenav", htmlPage("Type and go", `<input aria-label="Search" id="q">`+
		`<script>document.getElementById("q").addEventListener("input", (e) => { if (e.target.value.length === 3) location.href = "/ok"; });</script>`))
	serve("/opener", htmlPage("Popup opener", `<button type="button" id="open">Sign in</button>`+
		`<script>document.getElementById("open").addEventListener("click", () => { window.open("/selfclose", "signin"); });</script>`))
	serve("/selfclose", htmlPage("Signing in", `<p>Signing in…</p><button type="button">Continue</button><script>setTimeout(() => window.close(), 1500);</script>`))
	serve("/forbidden", htmlPage("Forbidden schemes", `<a href="/redirect-file">file</a><a href="/redirect-about">about</a>`))
	mux.HandleFunc("/redirect-about", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "about:config", http.StatusFound)
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		if err != nil || code < 200 || code > 599 {
			code = 500
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprint(w, htmlPage("Status "+strconv.Itoa(code), "<h1>"+strconv.Itoa(code)+"</h1>"))
	})
	l, err := net.Listen("tcp4", ip+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", ip, err)
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	h := &hostilePages{srv: srv}
	t.Cleanup(srv.CloseClientConnections)
	t.Cleanup(srv.Close)
	return h
}
