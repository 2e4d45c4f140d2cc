package browser

import (
	"context"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// Snapshot is one reading of the selected tab for snapshot_page: its
// element lines with refs and what they cover. The lines and Result (the
// page's title, URL, text and totals) are page-derived.
type Snapshot struct {
	TabID      string
	Generation uint64
	Lines      []string
	// Shown lines of Total elements (those matching the query), of All on
	// the page; Frames is how many frame documents were read.
	Shown, Total, All, Frames int
	// FramesSkipped names the frames that could not be read ("" for none).
	FramesSkipped string
	// Inert is how many of the shown elements users cannot reach (behind a
	// modal dialog, in an inert region or frame).
	Inert  int
	Result *pagejs.SnapshotResult
	// FrameTexts is, with the page text asked for, the visible text of each
	// frame document read, in page order (page-derived), within the text
	// limit the top document's text left.
	FrameTexts []FrameText
}

// FrameText is one frame document's text: Line names the frame as its
// element lines do ("--- frame … origin=… ---").
type FrameText struct {
	Line, Text string
}

// frameTexts lists the text of top's visible frames read (visibleFrames),
// each cut to what is left of max characters (UTF-16) after the top text
// and the frames before it; frames with no text are left out.
func frameTexts(top *docSnap, frames map[int64]*docSnap, max int) []FrameText {
	left := max
	if top.r.Text != nil {
		left -= UTF16Len(*top.r.Text)
	}
	list, _ := visibleFrames(top, frames)
	var out []FrameText
	for _, f := range list {
		if left <= 0 {
			break
		}
		if f.d.r.Text == nil || *f.d.r.Text == "" {
			continue
		}
		t := *f.d.r.Text
		if UTF16Len(t) > left {
			t = cutUTF16(t, left)
		}
		left -= UTF16Len(t)
		out = append(out, FrameText{Line: f.line, Text: t})
	}
	return out
}

// cutUTF16 is s cut to at most n UTF-16 units, never inside a character.
func cutUTF16(s string, n int) string {
	k := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if k+w > n {
			return s[:i]
		}
		k += w
	}
	return s
}

// Snapshot reads the selected tab and its frames, issues refs for the
// elements it lists and, for an unfiltered read from the page's start, makes
// it (its frames' documents included) the agent's view for the next delta. Reading is safe to
// repeat: when the page navigates under the walk, the new document is read
// once more.
func (s *Session) Snapshot(ctx context.Context, args pagejs.SnapshotArgs) (Snapshot, error) {
	if err := s.lock(ctx); err != nil {
		return Snapshot{}, err
	}
	defer s.unlock()
	for attempt := 0; ; attempt++ {
		pg, err := s.selected(ctx)
		if err != nil {
			return Snapshot{}, err
		}
		snap, err := s.readSnapshot(ctx, pg, args)
		if err == nil {
			return snap, nil
		}
		if e, ok := AsError(s.Classify(ctx, err)); attempt > 0 || !ok || e.Code != errcode.TargetReplaced {
			return Snapshot{}, err
		}
		if _, err := s.current(ctx, pg); err != nil { // wait for the new document
			return Snapshot{}, err
		}
	}
}

// readSnapshot is one attempt of Snapshot.
func (s *Session) readSnapshot(ctx context.Context, pg page, args pagejs.SnapshotArgs) (Snapshot, error) {
	top, frames, skipped := s.readAll(ctx, pg, args)
	if top.err != nil {
		return Snapshot{}, top.err
	}
	r := top.r
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != pg.sel || s.syncLocked(pg.sel) {
		return Snapshot{}, Errorf(errcode.TargetReplaced, "the page navigated while it was being read; take the snapshot again")
	}
	gen := s.generation
	out := s.renderLocked(pg, gen, top, frames, args)
	if args.Offset == 0 && args.Query == "" {
		// The agent's view, for the next delta: the whole page, its visible
		// frames' documents too (a page or a filter of it is not a view of it).
		s.viewLocked(pg.sel, gen, newViewRead(pg, top, frames, skipped))
	}
	snap := Snapshot{TabID: TabID(pg.sel.tab.BrowserID), Generation: gen, Lines: out.lines,
		Shown: out.shown, Total: out.total, All: out.all, Frames: out.frames,
		FramesSkipped: skipped, Inert: out.inert, Result: &r}
	if args.IncludeAllText && frames != nil {
		snap.FrameTexts = frameTexts(top, frames, args.MaxTextChars)
	}
	return snap, nil
}
