package browser

import (
	"context"
	"net/url"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// Navigation is where a navigation ended. URL and Title are page-derived.
type Navigation struct {
	URL, Title string // Title: "" when not known (not waited for, same document)
	Status     int    // the HTTP status, 0 when unknown
	Generation uint64 // the generation it started
	// Index and Count place a history navigation in the tab's session
	// history (0-based index).
	Index, Count int
}

// Navigate loads u in the Op's tab and waits for wait ("none", "dom" or
// "complete") at most timeout. Refs die with the old document, whatever
// happens next; another fragment of the same document keeps them. A load
// that fails is navigation_failed with Firefox's reason; a dialog while
// loading is dialog_open at once. A new document gets
// the snapshot's resident installed in the background as soon as it is
// there (readyNow; here again when that did not happen), for its first read.
func (o *Op) Navigate(ctx context.Context, u *url.URL, wait string, timeout time.Duration) (Navigation, error) {
	s, pg := o.s, o.pg
	from, sameDoc, err := s.startNavigation(ctx, pg, u)
	if err != nil {
		return Navigation{}, err
	}
	if !sameDoc {
		s.navigationGeneration(pg)
	}
	nav := Navigation{URL: u.String()}
	if wait != "none" {
		t, err := s.waitNavigation(ctx, pg, u, from, sameDoc, wait, timeout)
		if err != nil {
			return Navigation{}, err
		}
		if !sameDoc {
			nav.URL, nav.Title = t.URL, t.Title
			s.prepareResident(pg, t.Target, pagejs.Snapshot)
		} else if t.URL != "" {
			nav.URL = t.URL // as the document has it
		}
		load, err := s.loadState(ctx, pg, t.state)
		if err != nil {
			return Navigation{}, err
		}
		nav.Status = load.Status
	}
	nav.Generation = s.settledGeneration(pg)
	return nav, nil
}

// GoHistory goes back, forward or reloads (action) in the Op's tab,
// through its session history in the parent process (which knows whether
// there is an entry to go to, and its URL), with Navigate's waits and
// generation rules (an entry of the same document keeps the refs).
func (o *Op) GoHistory(ctx context.Context, action, wait string, timeout time.Duration) (Navigation, error) {
	s, pg := o.s, o.pg
	from := navStartNow(ctx, pg.sel.watch)
	var hr pagejs.TabHistoryResult
	if err := s.chrome(ctx, pg, pagejs.TabHistory, pagejs.TabHistoryArgs{BrowserID: pg.sel.tab.BrowserID, Action: action}, &hr); err != nil {
		return Navigation{}, err
	}
	if !hr.SameDocument { // (an entry of the same document keeps its nodes, and refs)
		s.navigationGeneration(pg)
	}
	nav := Navigation{URL: hr.URL, Index: hr.Index, Count: hr.Count}
	if wait != "none" {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		var werr error
		if hr.SameDocument {
			_, werr = s.pollURL(wctx, pg, hr.URL)
		} else {
			state := map[string]string{"dom": "interactive", "complete": "complete"}[wait]
			t, err := s.waitLoaded(wctx, pg, from, hr.URL, state)
			werr = err
			nav.URL, nav.Title = t.URL, t.Title
			if err == nil {
				s.prepareResident(pg, t.Target, pagejs.Snapshot)
			}
		}
		if werr != nil {
			if ctx.Err() != nil {
				return Navigation{}, ctx.Err()
			}
			if wctx.Err() != nil {
				return Navigation{}, Errorf(errcode.NavigationTimeout, "the page did not become %s within %v after %s; it may still be loading (check with wait_for or snapshot_page)", wait, timeout, action)
			}
			return Navigation{}, werr
		}
	}
	nav.Generation = s.settledGeneration(pg)
	return nav, nil
}

// ObserveNavigation reads the new page once it is quiet (at most the
// default settle cap): its elements end a navigation's answer. The
// navigation was waited for (dom or complete), so the read does not wait
// for Firefox's delayed report of the document's readiness again.
func (o *Op) ObserveNavigation(ctx context.Context) *Observation {
	_, serr := o.s.settle(ctx, o.pg, defaultSettleCap, time.Time{}, false, false)
	obs := o.s.observe(ctx, o.pg, observeOpts{}, serr)
	return &obs
}
