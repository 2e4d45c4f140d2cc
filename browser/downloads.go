package browser

// Downloads. A click (or a key) on a link the server answers with an
// attachment makes Firefox announce that the document is being replaced
// (will-navigate) and then keep it: the load became a download, which
// Firefox's download manager saves where the user's Firefox saves. The
// engine asks the download manager (Downloads.sys.mjs, in the parent
// process) what the action started, so that the answer names the download
// and the refs stay valid; `<a download>` with a Blob or data: URL starts
// one without any announcement. The server reads nothing on disk: the names,
// sizes and paths are Firefox's.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

const (
	// downloadWait bounds how long an action that made Firefox announce a
	// new document waits for that load to turn out a download or a document
	// (a real navigation ends the wait as soon as its document is there).
	downloadWait = 2 * time.Second
	// downloadStopped is how long a load that stopped without a new document
	// is given for its download to be listed before the document counts as
	// staying without one (an HTTP 204).
	downloadStopped = 100 * time.Millisecond
	// downloadFinish is how long an action's answer waits for a download it
	// started to end, for the answer to say how it ended: a small file's
	// last step (the rename of its .part file) comes a moment after its
	// last byte; a large one is still under way after it, and said so.
	downloadFinish = 150 * time.Millisecond
	// actionDownloads bounds the downloads an action's answer names.
	actionDownloads = 5
	// MaxDownloads bounds the downloads list_downloads lists.
	MaxDownloads = 50
)

// Download is one download of Firefox's download manager. Name (the file
// name Firefox saves it as), Path (where), Type and Origin (of the URL it
// came from) are page-derived.
type Download struct {
	Name, Path, Type, Origin string
	// Size is the file's size in bytes, -1 when not known (yet); Received
	// counts the bytes that came so far.
	Size, Received int64
	// State is "downloading", "finished", "failed", "cancelled", "paused"
	// or "stopped"; Failed says what failed ("source": the transfer,
	// "target": the file, "blocked", "other").
	State, Failed string
	Tab           string // the tab whose document started it ("" when not known)
	Started       time.Time
}

func downloadOf(r pagejs.DownloadRow) Download {
	d := Download{Name: r.Name, Path: r.Path, Type: r.Type, Origin: r.Origin, Size: r.Size, Received: r.Received,
		State: r.State, Failed: r.Failed, Started: time.UnixMilli(r.Started)}
	if r.Tab > 0 {
		d.Tab = TabID(r.Tab)
	}
	return d
}

// Summary is the download's size, type and state in a few words (the type
// quoted: page-derived), for a line inside an untrusted block.
func (d Download) Summary() string {
	var parts []string
	switch {
	case d.Size >= 0:
		parts = append(parts, byteCount(d.Size))
	case d.Received > 0:
		parts = append(parts, byteCount(d.Received)+" so far")
	}
	if d.Type != "" {
		parts = append(parts, "type "+Quote(d.Type, 80))
	}
	state := d.State
	switch d.State {
	case "finished":
		state = "finished (saved)"
	case "failed":
		state = "failed (" + map[string]string{"source": "the transfer broke off", "target": "the file could not be written",
			"blocked": "Firefox blocked it", "other": "Firefox gave up"}[d.Failed] + ")"
	case "downloading":
		state = "still downloading (list_downloads shows how it ends)"
	}
	return strings.Join(append(parts, state), ", ")
}

// byteCount is n bytes in a unit people read.
func byteCount(n int64) string {
	switch {
	case n < 1024:
		return Plural(int(n), "byte", "bytes")
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	}
}

// changesRow is the download in an action's changes: its state and size;
// its name, type and origin (page-derived) are in the answer's text,
// inside markers, and list_downloads has them all.
func (d Download) changesRow() map[string]any {
	m := map[string]any{"state": d.State}
	if d.Size >= 0 {
		m["size"] = d.Size
	}
	if d.Received > 0 && d.State != "finished" {
		m["received"] = d.Received
	}
	if d.Failed != "" {
		m["failed"] = d.Failed
	}
	return m
}

// downloadsNote says which downloads an action started, their names and
// states inside markers.
func downloadsNote(ds []Download) string {
	u := NewUntrusted()
	for _, d := range ds {
		u.Line("download " + Quote(d.Name, 200) + ": " + d.Summary())
	}
	head := "The action started a download, not a navigation: the page stayed and its refs still work. Firefox saves it where it saves downloads (list_downloads lists them):"
	if len(ds) > 1 {
		head = fmt.Sprintf("The action started %d downloads, not a navigation: the page stayed and its refs still work. Firefox saves them where it saves downloads (list_downloads lists them):", len(ds))
	}
	return head + "\n" + u.String()
}

// Downloads lists the downloads this session saw start (since the session
// was made), of every tab but private windows', newest first: at most
// MaxDownloads, of total.
func (o *Op) Downloads(ctx context.Context) (list []Download, total int, err error) {
	var r pagejs.DownloadsResult
	args := pagejs.DownloadsArgs{Since: o.s.started.UnixMilli(), Max: MaxDownloads}
	if err := o.s.chrome(ctx, o.pg, pagejs.Downloads, args, &r); err != nil {
		return nil, 0, err
	}
	for _, row := range r.Downloads {
		list = append(list, downloadOf(row))
	}
	return list, r.Total, nil
}

// leavingFrom reports whether Firefox announced that the tab's top
// document, the one the Op began in, is being replaced and no new one is
// there yet: what a load that may become a download looks like.
func (o *Op) leavingFrom(ctx context.Context) bool {
	w := o.pg.sel.watch
	if o.window == 0 || !w.Leaving() {
		return false
	}
	t, err := w.Current(ctx)
	return err == nil && t.InnerWindowID == o.window
}

// actionDownloads returns the downloads the action started in the Op's
// tab. leaving (leavingFrom) makes it wait, at most downloadWait, for the
// load Firefox announced to turn out a download, a new document or
// neither. A download (or no new document at all) means the document
// stays: the watch is told so and the navigation it counted is taken in
// without a new generation, so the refs stay valid.
func (o *Op) actionDownloads(ctx context.Context, leaving bool) []Download {
	s, pg := o.s, o.pg
	args := pagejs.DownloadsArgs{BrowserID: pg.sel.tab.BrowserID, Since: o.began.UnixMilli(), Max: actionDownloads,
		FinishMS: int(downloadFinish.Milliseconds())}
	if leaving {
		args.WaitMS, args.SettleMS, args.Window = int(downloadWait.Milliseconds()), int(downloadStopped.Milliseconds()), o.window
	}
	cctx, cancel := context.WithTimeout(ctx, downloadWait+2*time.Second)
	defer cancel()
	var r pagejs.DownloadsResult
	if err := s.chrome(cctx, pg, pagejs.Downloads, args, &r); err != nil {
		s.log.Debug("downloads not read", "error", err)
		return nil
	}
	s.log.Debug("downloads", "outcome", r.Outcome, "total", r.Total, "waited", leaving)
	if (r.Outcome == "download" || r.Outcome == "stayed") && o.window != 0 && pg.sel.watch.Stayed(o.window) {
		s.stayed(pg.sel)
	}
	var out []Download
	for _, row := range r.Downloads {
		out = append(out, downloadOf(row))
	}
	return out
}

// stayed takes in the navigation the watch counted for a load that did not
// replace the document (a download): no new generation.
func (s *Session) stayed(sel *selection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == sel {
		sel.navs = sel.watch.Navigations()
	}
}

// addDownloads puts the downloads an action started first in the
// observation (its text and changes.downloads).
func (o *Observation) addDownloads(ds []Download) {
	if o == nil || len(ds) == 0 {
		return
	}
	note := downloadsNote(ds) + "\n"
	o.text, o.pre = note+o.text, o.pre+len(note)
	if o.st == nil {
		o.st = map[string]any{}
	}
	list := make([]map[string]any, len(ds))
	for i, d := range ds {
		list[i] = d.changesRow()
	}
	o.st["downloads"] = list
}
