package e2e

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// Real upload widgets, fetched from npm at test set-up (pinned, cached
// outside the repository, never committed).
var npmLibs = []string{"dropzone@5.9.3", "filepond@4.32.12"}

// vendorDir installs npmLibs once (internal/npmlibs) and returns their
// node_modules.
func vendorDir(t testing.TB) string {
	t.Helper()
	return npmlibs.Dir(t, npmLibs...)
}

// TestUploadLibraries: FilePond and Dropzone receive the exact bytes of a
// file put into their (hidden, library-built) file inputs.
func TestUploadLibraries(t *testing.T) {
	mods := vendorDir(t)
	mux := http.NewServeMux()
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
	mux.HandleFunc("/libs.html", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/libs.html") })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx := testCtx(t)
	root := t.TempDir()
	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root)
	s.must(t, ctx, "select_tab", map[string]any{"index": 0})
	s.must(t, ctx, "navigate", map[string]any{"url": srv.URL + "/libs.html", "wait": "complete"})
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"text": "libraries ready", "timeout_ms": 10000}); e != nil {
		t.Fatalf("the libraries did not load: %s\n%s", e.Message, s.pageText(t, ctx))
	}
	snap, _ := s.must(t, ctx, "snapshot_page", map[string]any{})
	// Both libraries build their own file inputs: FilePond's inside its root,
	// Dropzone's hidden at the end of the body. Document order tells them apart.
	var inputs []string
	for _, m := range regexp.MustCompile(`(?m)^\[(e\d+)\] file\b`).FindAllStringSubmatch(snap, -1) {
		inputs = append(inputs, m[1])
	}
	if len(inputs) != 2 {
		t.Fatalf("want FilePond's and Dropzone's file inputs, got %v in:\n%s", inputs, snap)
	}
	pond, dz := inputs[0], inputs[1]

	p1, sum1 := writeFile(t, root, "cv – filepond.pdf", 150_000)
	s.must(t, ctx, "upload_files", map[string]any{"element": pond, "paths": []string{p1}})
	s.waitReceived(t, ctx, "filepond cv – filepond.pdf 150000 "+sum1)

	p2, sum2 := writeFile(t, root, "letter dropzone.pdf", 70_000)
	p3, sum3 := writeFile(t, root, "portfolio.zip", 300_000)
	s.must(t, ctx, "upload_files", map[string]any{"element": dz, "paths": []string{p2, p3}})
	s.waitReceived(t, ctx, "dropzone letter dropzone.pdf 70000 "+sum2)
	s.waitReceived(t, ctx, "dropzone portfolio.zip 300000 "+sum3)

	if page := s.pageText(t, ctx); strings.Contains(page, "SUBMITTED") || strings.Contains(page, "filepond error") {
		t.Errorf("unexpected page state:\n%s", page)
	}
}
