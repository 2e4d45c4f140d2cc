package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// TestUploadTriggersLibraries: upload_files on the controls a person clicks
// in real Dropzone (its default button; the input it opens is hidden and
// appended to the body) and FilePond ("Browse", inside the label of its
// input) puts the files into the input each library opens, byte for byte,
// with no file chooser shown and nothing submitted.
func TestUploadTriggersLibraries(t *testing.T) {
	mods := vendorDir(t)
	mux := http.NewServeMux()
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
	mux.HandleFunc("/triggers.html", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/triggers.html") })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx := testCtx(t)
	root := t.TempDir()
	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root)
	s.must(t, ctx, "select_tab", map[string]any{"index": 0})
	s.must(t, ctx, "navigate", map[string]any{"url": srv.URL + "/triggers.html", "wait": "complete"})
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"text": "libraries ready", "timeout_ms": 10000}); e != nil {
		t.Fatalf("the libraries did not load: %s\n%s", e.Message, s.pageText(t, ctx))
	}
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"selector": ".filepond--label-action", "timeout_ms": 5000}); e != nil {
		t.Fatalf("FilePond drew no Browse button: %s\n%s", e.Message, s.pageText(t, ctx))
	}
	snap, _ := s.must(t, ctx, "snapshot_page", map[string]any{})

	p1, sum1 := writeFile(t, root, "cv dropzone.pdf", 70_000)
	txt, st := s.must(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "button", "Drop files here to upload"), "paths": []string{p1}})
	s.waitReceived(t, ctx, "dropzone cv dropzone.pdf 70000 "+sum1)
	if st["via"] != "click" || !strings.Contains(txt, "no file chooser was shown") {
		t.Errorf("Dropzone: via %v: %s", st["via"], txt)
	}

	p2, sum2 := writeFile(t, root, "letter – pond.pdf", 40_000)
	_, st = s.must(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "button", "Browse"), "paths": []string{p2}})
	s.waitReceived(t, ctx, "filepond letter – pond.pdf 40000 "+sum2)
	if st["via"] != "click" {
		t.Errorf("FilePond: via %v", st["via"])
	}
	if page := s.pageText(t, ctx); strings.Contains(page, "SUBMITTED") || strings.Contains(page, "filepond error") {
		t.Errorf("unexpected page state:\n%s", page)
	}
}

// BenchmarkUploadTrigger: upload_files of 10 KiB through a trigger, full MCP
// path: a label with role=button wrapping a hidden input, and a
// Dropzone-style button whose handler clicks a hidden input appended to the
// body.
func BenchmarkUploadTrigger(b *testing.B) {
	ctx := context.Background()
	root := b.TempDir()
	s := startServer(b, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root)
	snap := s.open(b, ctx, "/upload.html")
	p, _ := writeFile(b, root, "f.pdf", 10<<10)
	settled := settle(b)
	idle := func() {
		s.must(b, ctx, "wait_for", map[string]any{"selector": `body:not([data-pending]), body[data-pending="0"]`})
	}
	for _, tc := range []struct{ name, trigger string }{
		{"label-role-button", "Add cover letter"},
		{"dropzone-style-button", "Drop files here or click to upload"},
	} {
		el := ref(b, snap, "button", tc.trigger)
		// The upload alone (observe: false), and with the settle and the delta
		// of what changed (the page reads the file back meanwhile).
		for _, observe := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/observe=%v", tc.name, observe), func(b *testing.B) {
				benchutil.RunClean(b, idle, func() {
					s.must(b, ctx, "upload_files", map[string]any{"element": el, "paths": []string{p}, "observe": observe})
				})
			})
		}
	}
	settled(b)
}
