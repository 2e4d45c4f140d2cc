package e2e

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile writes size random bytes (or content) and returns the path and
// its SHA-256.
func writeFile(t testing.TB, dir, name string, size int) (string, string) {
	t.Helper()
	b := make([]byte, size)
	rand.Read(b)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return p, hex.EncodeToString(sum[:])
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitReceived waits until the page read back n more files.
func (s *server) waitReceived(t testing.TB, ctx context.Context, sha string) {
	t.Helper()
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"text": sha, "timeout_ms": 20000, "poll_ms": 50}); e != nil {
		t.Fatalf("the page never showed %s: %s\n%s", sha, e.Message, s.pageText(t, ctx))
	}
}

// TestUploadEndToEnd: bytes leave the broker process, cross RDP into the
// page's file inputs (a multiple one and a hidden one behind a styled
// label), and the page's own SHA-256 of what it received matches the file.
func TestUploadEndToEnd(t *testing.T) {
	ctx := testCtx(t)
	root := t.TempDir()
	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root, "FIREFOX_MCP_UPLOAD_CHUNK_BYTES=65536")
	snap := s.open(t, ctx, "/upload.html")

	names := []string{`a "quoted" name.pdf`, "résumé – 履歴書.pdf", `back\slash.txt`}
	var paths, sums []string
	for i, n := range names {
		p, sum := writeFile(t, root, n, 100_000+i*70_000) // several chunks each
		paths, sums = append(paths, p), append(sums, sum)
	}
	txt, st := s.must(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Attachments"), "paths": paths})
	if !strings.Contains(txt, "Nothing was submitted") || st["trusted"] != true {
		t.Errorf("upload result: %s %v", txt, st)
	}
	files := st["files"].([]any)
	for i, f := range files {
		m := f.(map[string]any)
		if m["name"] != names[i] {
			t.Errorf("file %d name = %v, want %q", i, m["name"], names[i])
		}
		if _, ok := m["path"]; ok {
			t.Errorf("the result echoes a path: %v", m)
		}
	}
	for _, sum := range sums {
		s.waitReceived(t, ctx, sum)
	}
	s.mu.Lock()
	np := len(s.progress)
	s.mu.Unlock()
	if np < 5 {
		t.Errorf("only %d progress notifications for a 9-chunk upload", np)
	}

	// The hidden input behind the styled label.
	p, sum := writeFile(t, root, "cv.pdf", 5000)
	s.must(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Attach résumé"), "paths": []string{p}})
	s.waitReceived(t, ctx, sum)

	page := s.pageText(t, ctx)
	if !strings.Contains(page, "Submitted: no") {
		t.Errorf("uploading submitted the form:\n%s", page)
	}
	if !strings.Contains(page, "resume:change:true") {
		t.Errorf("change event missing or untrusted:\n%s", page)
	}

	// Target checks.
	_, _, e := s.call(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Attach résumé"), "paths": paths[:2]})
	if e == nil || e.Code != "upload_target_invalid" {
		t.Errorf("two files into a single input: %+v", e)
	}
	_, _, e = s.call(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Disabled"), "paths": paths[:1]})
	if e == nil || (e.Code != "upload_target_invalid" && e.Code != "element_not_interactable") {
		t.Errorf("upload into a disabled input: %+v", e)
	}
	_, _, e = s.call(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "button", "Send application"), "paths": paths[:1]})
	if e == nil || e.Code != "upload_target_invalid" {
		t.Errorf("upload into a button: %+v", e)
	}
	txt, _, e = s.call(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Photo*"), "paths": paths[:1]})
	if e != nil || !strings.Contains(txt, "Warning:") {
		t.Errorf("an accept mismatch should succeed with a warning: %v %s", e, txt)
	}
}

// TestUploadPathsAndLimits: the broker refuses what it must, before any
// byte moves.
func TestUploadPathsAndLimits(t *testing.T) {
	ctx := testCtx(t)
	base := t.TempDir()
	root := filepath.Join(base, "root")
	os.Mkdir(root, 0o700)
	ok, _ := writeFile(t, root, "ok.txt", 10)
	big, _ := writeFile(t, root, "big.bin", 3000)
	outside, _ := writeFile(t, base, "secret.txt", 10)
	sibling := filepath.Join(base, "rootx")
	os.Mkdir(sibling, 0o700)
	prefixTrick, _ := writeFile(t, sibling, "x.txt", 10)
	os.Symlink(outside, filepath.Join(root, "escape.txt"))
	os.Symlink("ok.txt", filepath.Join(root, "inside-link.txt")) // relative: absolute links are refused beneath a root
	os.Mkdir(filepath.Join(root, "dir"), 0o700)

	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root,
		"FIREFOX_MCP_MAX_FILE_BYTES=2000", "FIREFOX_MCP_MAX_UPLOAD_BYTES=2500")
	snap := s.open(t, ctx, "/upload.html")
	multi := ref(t, snap, "file", "Attachments")
	cases := []struct {
		paths []string
		code  string
	}{
		{[]string{outside}, "upload_file_invalid"},
		{[]string{prefixTrick}, "upload_file_invalid"},
		{[]string{root + "/../secret.txt"}, "upload_file_invalid"},
		{[]string{filepath.Join(root, "escape.txt")}, "upload_file_invalid"},
		{[]string{filepath.Join(root, "dir")}, "upload_file_invalid"},
		{[]string{"relative.txt"}, "upload_file_invalid"},
		{[]string{filepath.Join(root, "missing.txt")}, "upload_file_invalid"},
		{[]string{big}, "upload_too_large"},
		{[]string{ok, outside}, "upload_file_invalid"}, // all or nothing
	}
	for _, c := range cases {
		_, _, e := s.call(t, ctx, "upload_files", map[string]any{"element": multi, "paths": c.paths})
		if e == nil || e.Code != c.code || e.Phase != "validation" {
			t.Errorf("%v: %+v, want %s in validation", c.paths, e, c.code)
		}
	}
	// Per-call limit: two files that fit singly but not together.
	a, _ := writeFile(t, root, "a.bin", 1500)
	b, _ := writeFile(t, root, "b.bin", 1500)
	if _, _, e := s.call(t, ctx, "upload_files", map[string]any{"element": multi, "paths": []string{a, b}}); e == nil || e.Code != "upload_too_large" {
		t.Errorf("per-call limit: %+v", e)
	}
	if strings.Contains(s.pageText(t, ctx), "multi:change") {
		t.Error("a refused upload still changed the input")
	}
	// A symlink that stays inside the root works.
	s.must(t, ctx, "upload_files", map[string]any{"element": multi, "paths": []string{filepath.Join(root, "inside-link.txt")}})
}

// TestUploadCancelledMidway: cancelling a multi-chunk upload stops it
// between chunks; the input is left untouched and the server stays usable.
func TestUploadCancelledMidway(t *testing.T) {
	ctx := testCtx(t)
	root := t.TempDir()
	s := startServer(t, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root, "FIREFOX_MCP_UPLOAD_CHUNK_BYTES=16384",
		"FIREFOX_MCP_MAX_FILE_BYTES=67108864", "FIREFOX_MCP_MAX_UPLOAD_BYTES=67108864")
	snap := s.open(t, ctx, "/upload.html")
	multi := ref(t, snap, "file", "Attachments")
	p, _ := writeFile(t, root, "big.bin", 24<<20)

	cctx, cancel := context.WithCancel(ctx)
	done := make(chan *toolErr, 1)
	go func() {
		_, _, e := s.call(t, cctx, "upload_files", map[string]any{"element": multi, "paths": []string{p}})
		done <- e
	}()
	for deadline := time.Now().Add(20 * time.Second); ; {
		s.mu.Lock()
		n := len(s.progress)
		s.mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if e := <-done; e == nil {
		t.Fatal("the cancelled upload reported success")
	}
	s.mu.Lock()
	var sent float64
	if n := len(s.progress); n > 0 {
		sent = s.progress[n-1]
	}
	s.mu.Unlock()
	if sent == 0 || sent >= 24<<20 {
		t.Errorf("cancellation came too late to test anything (%v bytes sent)", sent)
	}
	// The server is still usable and the input was never assigned.
	time.Sleep(300 * time.Millisecond)
	if page := s.pageText(t, ctx); strings.Contains(page, "multi:change") {
		t.Errorf("a cancelled upload changed the input:\n%s", page)
	}
	small, sum := writeFile(t, root, "after.txt", 100)
	s.must(t, ctx, "upload_files", map[string]any{"element": multi, "paths": []string{small}})
	s.waitReceived(t, ctx, sum)
}

// TestUploadsDisabledInPackagedBuild: without upload roots, a packaged build
// refuses uploads; the broker is not even started.
func TestUploadsDisabledInPackagedBuild(t *testing.T) {
	ctx := testCtx(t)
	s := startServer(t, ctx, packagedBinary(t))
	snap := s.open(t, ctx, "/upload.html")
	p, _ := writeFile(t, t.TempDir(), "x.txt", 10)
	_, _, e := s.call(t, ctx, "upload_files", map[string]any{"element": ref(t, snap, "file", "Attachments"), "paths": []string{p}})
	if e == nil || e.Code != "uploads_disabled" {
		t.Errorf("packaged build without roots: %+v", e)
	}
	_, st := s.must(t, ctx, "browser_status", map[string]any{})
	if st["uploads_enabled"] != false {
		t.Errorf("browser_status uploads_enabled = %v", st["uploads_enabled"])
	}
}
