package browser_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// lineRef finds the ref of the snapshot line whose text holds name, whatever
// role word the line has (a drop zone's is the walk's to choose).
func lineRef(t testing.TB, snap, name string) string {
	t.Helper()
	re := regexp.MustCompile(`\[(e\d+)\][^\n]*` + regexp.QuoteMeta(name))
	m := re.FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("no line naming %q in:\n%s", name, snap)
	}
	return m[1]
}

// upload_files onto a drop-only zone (no file input anywhere, and clicking
// it opens no chooser) delivers the files as a trusted drop: dragenter,
// dragover, drop with a DataTransfer of Files made from the broker's bytes.
// The page hashes what it got. Fails without the drop path: the zone is
// "upload_target_invalid: … clicking it opened no file chooser".
func TestUploadDropZone(t *testing.T) {
	cv := make([]byte, 200_000)
	rand.Read(cv)
	sum := sha256.Sum256(cv)
	want := fmt.Sprintf("cv.pdf %d bytes sha256 %s", len(cv), hex.EncodeToString(sum[:]))
	files := &memFiles{files: map[string][]byte{"/u/cv.pdf": cv, "/u/two.pdf": []byte("2")}, handles: map[uint32][]byte{}}

	t.Run("plain page", func(t *testing.T) {
		s := newSession(t, func(o *browser.Options) { o.Files = files })
		open(t, s, "drop-resume.html")
		zone := lineRef(t, snapshot(t, s), "Drop your résumé here")
		res := must(t, s, "upload_files", map[string]any{"element": zone, "paths": []string{"/u/cv.pdf"}})
		st, _ := res.Structured.(map[string]any)
		if st["via"] != "drop" || st["trusted"] != true || !strings.Contains(res.Text, "Dropped 1 file") {
			t.Errorf("via %v, trusted %v:\n%s", st["via"], st["trusted"], res.Text)
		}
		waitText(t, s, "Attached:")
		if text := pageText(t, s); !strings.Contains(text, want+" trusted") {
			t.Errorf("the page did not receive the file intact as a trusted drop; want %q in:\n%s", want, text)
		}
	})

	t.Run("react-dropzone noClick", func(t *testing.T) {
		s, snap := openBundled(t, "dropzone-apply", []string{"react@18.3.1", "react-dom@18.3.1", "react-dropzone@20.1.4"},
			func(o *browser.Options) { o.Files = files })
		if !strings.Contains(snap, "Drag your CV here") {
			snap = snapshot(t, s)
		}
		zone := lineRef(t, snap, "Drag your CV here")
		res := must(t, s, "upload_files", map[string]any{"element": zone, "paths": []string{"/u/cv.pdf"}})
		if st, _ := res.Structured.(map[string]any); st["via"] != "drop" {
			t.Errorf("via %v:\n%s", st["via"], res.Text)
		}
		waitText(t, s, "Attached:")
		if text := pageText(t, s); !strings.Contains(text, want) {
			t.Errorf("react-dropzone did not accept the file intact; want %q in:\n%s", want, text)
		}
	})

	t.Run("not a drop zone", func(t *testing.T) {
		s := newSession(t, func(o *browser.Options) { o.Files = files })
		open(t, s, "drop-resume.html")
		heading := lineRef(t, snapshot(t, s), "Backend Engineer")
		_, e := call(t, s, "upload_files", map[string]any{"element": heading, "paths": []string{"/u/cv.pdf"}})
		wantCode(t, e, errcode.UploadTargetInvalid)
		if !strings.Contains(e.Message, "does not take dropped files") {
			t.Errorf("message: %s", e.Message)
		}
	})
}
