package browser

import (
	"context"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// navigateHistory is navigate {history}: back, forward or reload in the
// selected tab, through its session history in the parent process (which
// knows whether there is an entry to go to, and its URL), with the same
// waits and generation rules as navigate {url}.
func (s *Session) navigateHistory(ctx context.Context, a *navigateArgs, _ Progress) (navigateOut, error) {
	action := *a.History
	wait, timeout := a.waits()
	if err := s.lock(ctx); err != nil {
		return navigateOut{}, err
	}
	defer s.unlock()
	pg, err := s.selected(ctx)
	if err != nil {
		return navigateOut{}, err
	}
	before := pg.sel.watch.Navigations()
	var hr pagejs.TabHistoryResult
	if err := s.chrome(ctx, pg, pagejs.TabHistory, pagejs.TabHistoryArgs{BrowserID: pg.sel.tab.BrowserID, Action: action}, &hr); err != nil {
		return navigateOut{}, err
	}
	s.navigationGeneration(pg)

	final, title := hr.URL, ""
	if wait != "none" {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		var werr error
		if hr.SameDocument {
			werr = s.pollURL(wctx, pg, hr.URL)
		} else {
			state := map[string]string{"dom": "interactive", "complete": "complete"}[wait]
			t, err := s.waitLoaded(wctx, pg, before, hr.URL, state)
			werr = err
			final, title = t.URL, t.Title
		}
		if werr != nil {
			if ctx.Err() != nil {
				return navigateOut{}, ctx.Err()
			}
			if wctx.Err() != nil {
				return navigateOut{}, Errorf(errcode.NavigationTimeout, "the page did not become %s within %v after %s; it may still be loading (check with wait_for or snapshot_page)", wait, timeout, action)
			}
			return navigateOut{}, werr
		}
	}
	gen := s.settledGeneration(pg)
	verb := map[string]string{"back": "Went back", "forward": "Went forward", "reload": "Reloaded the page"}[action]
	text := fmt.Sprintf("%s in %s to history entry %d of %d (generation %d); its URL is below.", verb, TabID(pg.sel.tab.BrowserID), hr.Index+1, hr.Count, gen)
	if wait == "none" {
		text = fmt.Sprintf("%s in %s: started loading history entry %d of %d (not waited for; generation %d); its URL is below.", verb, TabID(pg.sel.tab.BrowserID), hr.Index+1, hr.Count, gen)
	}
	st := navigateOut{History: action, URL: PageStr(final), Generation: gen, Waited: wait, Index: &hr.Index, Count: &hr.Count}
	u := NewUntrusted()
	if title != "" {
		t := PageStr(title)
		st.Title = &t
		u.Field("Page", title, 200)
	}
	u.Field("URL", final, 500)
	st.text = text + "\n" + u.String()
	if wait != "none" && a.Observe {
		s.observeNavigation(ctx, pg, &st)
	}
	return st, nil
}
