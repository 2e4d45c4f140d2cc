package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// TestProbeTab: the probe evaluates in the active tab when it shows an
// ordinary page, else in the first that does; privileged and extension
// pages only when nothing else is open. (The URL table was doctor's
// TestOrdinary, whose rule this is now.)
func TestProbeTab(t *testing.T) {
	for u, want := range map[string]bool{"https://a.example/": true, "about:blank": true, "file:///x": true,
		"about:sessionrestore": false, "about:welcome": false, "moz-extension://x/y": false, "": false} {
		if ordinaryTab(u) != want {
			t.Errorf("ordinaryTab(%q) = %v", u, !want)
		}
	}
	tabs := func(urls ...string) []rdp.Tab {
		out := make([]rdp.Tab, len(urls))
		for i, u := range urls {
			out[i] = rdp.Tab{BrowserID: int64(i), URL: strings.TrimPrefix(u, "*"), Selected: strings.HasPrefix(u, "*")}
		}
		return out
	}
	for _, c := range []struct {
		tabs     []rdp.Tab
		want     int64
		ordinary bool
	}{
		{tabs("https://a/", "*https://b/"), 1, true},
		{tabs("about:sessionrestore", "https://b/", "*about:preferences"), 1, true},
		{tabs("about:sessionrestore", "*about:welcome"), 1, false},
		{tabs("about:sessionrestore", "moz-extension://x/"), 0, false},
	} {
		got, ordinary := probeTab(c.tabs)
		if got.BrowserID != c.want || ordinary != c.ordinary {
			t.Errorf("probeTab(%v) = %d, %v; want %d, %v", c.tabs, got.BrowserID, ordinary, c.want, c.ordinary)
		}
	}
}

// TestProbe: against the real Firefox, the probe reads the version,
// evaluates in the page realm of an ordinary tab and finds the isolated
// realm with trusted input, the facts browser_status reports too. (The
// shared tab shows whichever fixture page the tests before left open.)
func TestProbe(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := Probe(ctx, Options{Host: "127.0.0.1", Addr: ff.Addr, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.ApplicationType != "browser" || !strings.HasPrefix(r.Firefox, "Firefox ") || r.BrowserPage || !r.PageRealm || r.Chrome != nil ||
		!strings.HasPrefix(r.URL, "http://127.0.0.1:") {
		t.Errorf("report = %+v", r)
	}
	if !r.Isolated.Available || !r.Isolated.TrustedClick || !r.Isolated.TrustedKeys || r.Isolated.Reason != "" {
		t.Errorf("isolated realm = %+v", r.Isolated)
	}
}

// TestProbeNoFirefox: nothing listening fails the first step, with the
// dial's own error.
func TestProbeNoFirefox(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := Probe(ctx, Options{Host: "127.0.0.1", Addr: freeAddr(t), RequestTimeout: time.Second})
	var pe *ProbeError
	if !errors.As(err, &pe) || pe.Step != ProbeConnect || pe.Err == nil || !strings.Contains(pe.Err.Error(), "refused") || r.ApplicationType != "" {
		t.Errorf("Probe = %+v, %v", r, err)
	}
}
