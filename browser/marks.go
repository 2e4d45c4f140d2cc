package browser

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Listener marks. Which elements have listeners that make them targets (a
// click handler Vue or jQuery attached, a drop handler) only the isolated
// realm can tell, through Firefox's event-listener service; the snapshot
// walk runs in the page realm. So each document gets its marks made once in
// its isolated realm (pagejs.ListenerMarks: one look at every element, then
// a listener-change listener keeps them as the page changes its listeners),
// published on the page's window where the walk reads them. They are made in
// the background as soon as the server knows the document (with its
// snapshot resident), so its first snapshot finds them ready; a snapshot
// that comes first waits for them (at most marksWait). Without the isolated
// realm there are none: the walk still sees framework props, handler
// attributes, tabindex and pointer cursors.

// marksWait bounds a snapshot's wait for its document's marks; maxMarkDocs
// the documents remembered (older ones are forgotten: at worst asked again,
// which costs one evaluation that finds them made).
const (
	marksWait   = 3 * time.Second
	maxMarkDocs = 512
)

// prepareMarks starts making document t's listener marks in the background.
func (s *Session) prepareMarks(pg page, t rdp.Target) {
	if s.opts.PageRealmOnly || t.InnerWindowID == 0 {
		return
	}
	if done, start := s.marksEntry(t.InnerWindowID); start {
		go s.makeMarks(pg, t, done)
	}
}

// awaitMarks makes sure document t's listener marks are made before a walk
// of it: it starts them when nobody has, and waits for them (bounded).
func (s *Session) awaitMarks(ctx context.Context, pg page, t rdp.Target) {
	if s.opts.PageRealmOnly || t.InnerWindowID == 0 {
		return
	}
	done, start := s.marksEntry(t.InnerWindowID)
	if start {
		go s.makeMarks(pg, t, done)
	}
	wait := time.NewTimer(marksWait)
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
		s.log.Info("listener marks not made in time; the snapshot goes without them")
	case <-ctx.Done():
	}
}

// marksEntry returns the channel closed once window's marks are made, and
// whether the caller is to make them.
func (s *Session) marksEntry(window int64) (done chan struct{}, start bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.marks[window]; ok {
		return d, false
	}
	if len(s.marks) >= maxMarkDocs {
		for k := range s.marks {
			delete(s.marks, k)
		}
	}
	d := make(chan struct{})
	s.marks[window] = d
	return d, true
}

// makeMarks evaluates pagejs.ListenerMarks in t's isolated realm and closes
// done. A failure leaves the document without marks (logged); another
// snapshot does not try again.
func (s *Session) makeMarks(pg page, t rdp.Target, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithTimeout(context.Background(), marksWait)
	defer cancel()
	if !s.realmFor(ctx, pg, t).ok {
		return
	}
	var r pagejs.ListenerMarksResult
	start := time.Now()
	info, err := s.execOn(ctx, pg, t, ActionRealm, pagejs.ListenerMarks, pagejs.ListenerMarksArgs{}, &r, nil)
	if err == nil && !info.isolated {
		return
	}
	if err != nil {
		s.log.Info("listener marks not made", "error", err)
		return
	}
	s.log.Debug("listener marks", "marked", r.Count, "scanned", r.Scanned, "took", time.Since(start))
}
