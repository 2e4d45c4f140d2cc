package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Tabs this server opened: new_tab's, and those an agent's click opened.
// Only these may be closed with close_tab; every other tab is the user's,
// and closing it could lose their unsaved work. The set lives as long as
// the connection: after a reconnect (Firefox may have restarted and reused
// the numbers) every tab counts as the user's again.

// markOpened records tabs this server opened.
func (s *Session) markOpened(ids ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opened == nil {
		s.opened = map[int64]bool{}
	}
	for _, id := range ids {
		s.opened[id] = true
	}
}

func (s *Session) isOpened(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened[id]
}

// newTabLoad bounds how long new_tab waits for the page to complete; a
// slower page is reported as still loading, not as a failure.
const newTabLoad = 10 * time.Second

// waitListed waits (bounded) until the root actor lists a tab that was
// just opened.
func waitListed(ctx context.Context, c Connection, browserID int64) (rdp.Tab, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		tab, err := c.GetTab(ctx, browserID)
		if err == nil || !errors.Is(err, rdp.ErrTabClosed) || time.Now().After(deadline) {
			return tab, err
		}
		if err := Sleep(ctx, 15*time.Millisecond); err != nil {
			return rdp.Tab{}, err
		}
	}
}

// waitNewTab waits until a new tab has left its initial about:blank and its
// document is complete, at most newTabLoad; then it reports where it is.
func waitNewTab(ctx context.Context, w TabWatch) (rdp.Target, string, error) {
	wctx, cancel := context.WithTimeout(ctx, newTabLoad)
	defer cancel()
	for {
		before := w.Navigations()
		t, err := w.WaitReady(wctx, "complete")
		if err == nil && t.URL != "about:blank" {
			return t, "complete", nil
		}
		if err == nil {
			err = waitNavigated(wctx, w, before)
		}
		if err != nil {
			if ctx.Err() != nil || wctx.Err() == nil {
				return rdp.Target{}, "", err
			}
			break
		}
	}
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
	defer ccancel()
	t, err := w.Current(cctx)
	if err != nil || t.URL == "about:blank" {
		return rdp.Target{}, "", Errorf(errcode.NavigationTimeout, "the new tab did not start showing the page within %v; it stays open (close_tab can close it)", newTabLoad)
	}
	return t, w.ReadyState(), nil
}

// replaceSelection makes tab (watched by w) the selected tab and starts a
// new generation, which it returns.
func (s *Session) replaceSelection(tab rdp.Tab, w TabWatch) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	s.sel = &selection{tab: tab, watch: w, navs: w.Navigations()}
	s.newGenerationLocked()
	return s.generation
}

// openers returns the tabs the selected tab has opened so far and the
// highest browserId open, or ok == false when Firefox could not say.
func (s *Session) openers(ctx context.Context, pg page) (r pagejs.TabOpenersResult, ok bool) {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.chrome(cctx, pg, pagejs.TabOpeners, pagejs.TabArgs{BrowserID: pg.sel.tab.BrowserID}, &r); err != nil {
		s.log.Info("cannot tell which tabs the page opened", "error", err)
		return r, false
	}
	return r, true
}

// clickOpened returns the tabs the selected tab opened since before (a
// result of openers), and records them as opened by this server.
func (s *Session) clickOpened(ctx context.Context, pg page, before pagejs.TabOpenersResult, known bool) []string {
	if !known {
		return nil
	}
	after, ok := s.openers(ctx, pg)
	if !ok {
		return nil
	}
	var ids []int64
	for _, id := range after.Opened {
		if id > before.MaxID && !slices.Contains(before.Opened, id) {
			ids = append(ids, id)
		}
	}
	s.markOpened(ids...)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = TabID(id)
	}
	return out
}

// NewTab is a tab new_tab opened. URL and Title are page-derived.
type NewTab struct {
	TabID      string
	URL, Title string
	// ReadyState is "complete", or how far it got within newTabLoad.
	ReadyState string
	Selected   bool
	Generation uint64 // when selected
}

// NewTab opens u in a new background tab of the most recent window (the
// user's own tab stays in front and keeps the keyboard; no window is
// raised), waits at most newTabLoad for it to load and, when selectIt,
// selects it in a new generation.
func (s *Session) NewTab(ctx context.Context, u *url.URL, selectIt bool) (NewTab, error) {
	if err := s.lock(ctx); err != nil {
		return NewTab{}, err
	}
	defer s.unlock()
	c, err := s.conn(ctx)
	if err != nil {
		return NewTab{}, err
	}
	var tr pagejs.TabResult
	if err := s.chrome(ctx, page{c: c}, pagejs.TabOpen, pagejs.TabOpenArgs{URL: u.String(), Background: true}, &tr); err != nil {
		return NewTab{}, err
	}
	s.markOpened(tr.BrowserID)
	id := TabID(tr.BrowserID)
	tab, err := waitListed(ctx, c, tr.BrowserID)
	if err != nil {
		return NewTab{}, fmt.Errorf("new tab %s: %w", id, err)
	}
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		return NewTab{}, err
	}
	t, state, err := waitNewTab(ctx, w)
	if err != nil {
		w.Close()
		if ctx.Err() != nil {
			return NewTab{}, ctx.Err()
		}
		return NewTab{}, err
	}
	nt := NewTab{TabID: id, URL: t.URL, Title: t.Title, ReadyState: state, Selected: selectIt}
	if selectIt {
		nt.Generation = s.replaceSelection(tab, w)
	} else {
		w.Close()
	}
	return nt, nil
}

// CloseTab closes the tab browserID, which this server must have opened:
// the user's tabs are tab_not_owned, a page asking to confirm leaving is
// close_blocked. wasSelected: it was the selected tab, and none is now.
func (s *Session) CloseTab(ctx context.Context, id int64) (wasSelected bool, err error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.unlock()
	c, err := s.conn(ctx)
	if err != nil {
		return false, err
	}
	if _, err := c.GetTab(ctx, id); err != nil {
		if errors.Is(err, rdp.ErrTabClosed) {
			return false, Errorf(errcode.TabNotFound, "no open tab has tab_id %s; call list_tabs", TabID(id))
		}
		return false, err
	}
	if !s.isOpened(id) {
		return false, Errorf(errcode.TabNotOwned, "%s is one of the user's tabs: close_tab closes only tabs this server opened (with new_tab, or by a click), because closing a user's tab can lose their unsaved work", TabID(id))
	}
	var tr pagejs.TabResult
	if err := s.chrome(ctx, page{c: c}, pagejs.TabClose, pagejs.TabArgs{BrowserID: id}, &tr); err != nil {
		return false, err
	}
	if tr.Kept {
		return false, Errorf(errcode.CloseBlocked, "%s was not closed: its page asks to confirm leaving (a beforeunload handler), so it may hold unsaved input; it stays open for the user", TabID(id))
	}
	if err := waitClosed(ctx, c, id); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.opened, id)
	wasSelected = s.sel != nil && s.sel.tab.BrowserID == id
	if wasSelected {
		if s.sel.watch != nil {
			s.sel.watch.Close()
		}
		s.sel = nil
		s.newGenerationLocked()
	}
	return wasSelected, nil
}

// waitClosed waits (at most 3 s) until the root actor no longer lists a
// tab that was asked to close.
func waitClosed(ctx context.Context, c Connection, id int64) error {
	deadline := time.Now().Add(3 * time.Second)
	for {
		_, err := c.GetTab(ctx, id)
		if errors.Is(err, rdp.ErrTabClosed) {
			return nil
		}
		if err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return Errorf(errcode.TabNotFound, "%s was asked to close but is still listed after 3 s", TabID(id))
		}
		if err := Sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
}
