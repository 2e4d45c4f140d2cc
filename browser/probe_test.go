package browser_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// TestProbe: against the real Firefox, the probe reads the version,
// evaluates in the page realm of an ordinary tab and finds the isolated
// realm with trusted input, the facts browser_status reports too. (The
// shared tab shows whichever fixture page the tests before left open.)
func TestProbe(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := browser.Probe(ctx, browser.Options{Socket: ff.Socket, RequestTimeout: 5 * time.Second})
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
	r, err := browser.Probe(ctx, browser.Options{Host: "127.0.0.1", Addr: freeAddr(t), RequestTimeout: time.Second})
	var pe *browser.ProbeError
	if !errors.As(err, &pe) || pe.Step != browser.ProbeConnect || pe.Err == nil || !strings.Contains(pe.Err.Error(), "refused") || r.ApplicationType != "" {
		t.Errorf("Probe = %+v, %v", r, err)
	}
}
