package browser_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// downloadsServer serves testdata, an attachment
// (/files/quarterly-report.csv) and an archive whose transfer it breaks
// off half-way (/files/archive.zip).
func downloadsServer(t testing.TB) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/files/quarterly-report.csv", func(w http.ResponseWriter, r *http.Request) {
		body := "quarter,revenue\nQ1,100\nQ2,120\n"
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="quarterly-report.csv"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write([]byte(body))
	})
	mux.HandleFunc("/files/archive.zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="archive.zip"`)
		w.Header().Set("Content-Length", "100000")
		_, _ = w.Write(make([]byte, 20000))
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// downloaded checks an action's answer for the download it started: named
// (marked), in the given state, no navigation.
func downloaded(t *testing.T, step string, res tools.Result, name, state string) {
	t.Helper()
	st, _ := res.Structured.(map[string]any)
	if st["navigated"] != false || strings.Contains(res.Text, "stale") {
		t.Errorf("%s: want no navigation:\n%s", step, res.Text)
	}
	if !strings.Contains(res.Text, "started a download, not a navigation") || !strings.Contains(res.Text, "download \""+name+"\": ") {
		t.Errorf("%s: want the download of %s said:\n%s", step, name, res.Text)
	}
	list, _ := changes(t, res)["downloads"].([]map[string]any)
	if len(list) != 1 || list[0]["state"] != state {
		t.Errorf("%s: changes.downloads = %v, want %s %s", step, list, name, state)
	}
}

// TestDownloads: on a reports page, a click on an attachment link (the
// server's Content-Disposition), on `<a download>` links to a Blob the page
// made and to a data: URL, and on an archive whose transfer the server
// breaks off: each answers with the download (its file name, size, type,
// whether it finished), not a navigation, and the page's refs work on; so
// does Enter on a link. list_downloads lists the four with where Firefox saved them (the test
// profile's download folder) and where they came from; the broken one
// failed.
func TestDownloads(t *testing.T) {
	srv := downloadsServer(t)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	res := must(t, s, "navigate", map[string]any{"url": srv.URL + "/downloads.html", "wait": "complete"})
	snap := res.Text
	more := ref(t, snap, "button", "Show more")

	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Export quarterly report")})
	downloaded(t, "attachment", res, "quarterly-report.csv", "finished")
	if !strings.Contains(res.Text, `30 bytes, type "text/csv", finished`) {
		t.Errorf("attachment: want its size, type and state:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": more}) // a ref from before the download
	if !strings.Contains(res.Text, "No change") && !strings.Contains(res.Text, "Changes") {
		t.Errorf("Show more after the download:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Download contacts (CSV)")})
	downloaded(t, "blob", res, "contacts.csv", "finished")
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Download summary")})
	downloaded(t, "data", res, "summary.txt", "finished")
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Download archive")})
	if !strings.Contains(res.Text, `download "archive.zip": `) {
		t.Errorf("archive: want it said:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": more})
	if txt := pageText(t, s); !strings.Contains(txt, "shown 2") {
		t.Errorf("the page after the downloads: want Show more clicked twice through its first ref:\n%s", txt)
	}

	// The broken transfer ends failed.
	var rows []map[string]any
	deadline := time.Now().Add(10 * time.Second)
	for {
		res = must(t, s, "list_downloads", map[string]any{})
		b, _ := json.Marshal(res.Structured.(map[string]any)["downloads"])
		rows = nil
		_ = json.Unmarshal(b, &rows)
		if len(rows) == 4 && rows[0]["state"] != "downloading" || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(rows) != 4 {
		t.Fatalf("list_downloads: want the 4 downloads:\n%s", res.Text)
	}
	dir := headless.DownloadDir(firefox.Get(t).ProfileDir)
	want := []struct{ name, state, origin string }{
		{"archive.zip", "failed", srv.URL}, {"summary.txt", "finished", "data:"},
		{"contacts.csv", "finished", srv.URL}, {"quarterly-report.csv", "finished", srv.URL},
	}
	for i, w := range want {
		r := rows[i]
		if r["name"] != w.name || r["state"] != w.state || r["origin"] != w.origin || r["path"] != filepath.Join(dir, w.name) || r["tab_id"] == nil {
			t.Errorf("download %d: %v, want %s %s from %s in %s", i, r, w.name, w.state, w.origin, dir)
		}
	}
	if rows[0]["failed"] != "source" || !strings.Contains(res.Text, `"archive.zip": type "application/zip", failed (the transfer broke off)`) {
		t.Errorf("the broken archive: want it failed for its transfer:\n%s", res.Text)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "contacts.csv")); err != nil || !strings.HasPrefix(string(b), "name,email\nAda Lovelace") {
		t.Errorf("contacts.csv as Firefox saved it: %q, %v", b, err)
	}

	// A key: Enter on the attachment link, saved under a name of its own.
	res = must(t, s, "press_key", map[string]any{"element": ref(t, snap, "link", "Export quarterly report"), "key": "Enter"})
	if st, _ := res.Structured.(map[string]any); st["navigated"] != false || !strings.Contains(res.Text, `download "quarterly-report`) ||
		strings.Contains(res.Text, `download "quarterly-report.csv"`) {
		t.Errorf("Enter on the attachment link: want a second download, named apart:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": more})
}

// BenchmarkDownloadClick: a click on an attachment link (the server's
// Content-Disposition) and on a Blob `<a download>`, answered with the
// download and what changed. The figure asked is at most 300 ms.
func BenchmarkDownloadClick(b *testing.B) {
	srv := downloadsServer(b)
	s := benchSession(b, "default")
	must(b, s, "select_tab", map[string]any{"index": 0})
	snap := must(b, s, "navigate", map[string]any{"url": srv.URL + "/downloads.html", "wait": "complete"}).Text
	for _, c := range []struct{ name, link string }{{"attachment", "Export quarterly report"}, {"blob", "Download contacts (CSV)"}} {
		link := ref(b, snap, "link", c.link)
		b.Run(c.name, func(b *testing.B) {
			benchutil.Run(b, nil, func() {
				res := must(b, s, "click", map[string]any{"element": link})
				if !strings.Contains(res.Text, "started a download") {
					b.Fatalf("no download said:\n%s", res.Text)
				}
			})
		})
	}
}
