package browser

import (
	"context"
	"errors"
	"fmt"
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

var newTabTool = tool[newTabArgs, newTabOut]{
	Name: "new_tab", Title: "Open tab",
	Description: "Open an http(s) URL in a new background tab (no window is raised), wait up to 10 s for it to load, and select it unless select is false.",
	Annotations: Annotations{OpenWorld: true},
	Run:         (*Session).newTab,
}

type newTabArgs struct {
	URL    string `json:"url" min:"8" max:"8192" desc:"absolute http(s) URL"`
	Select bool   `json:"select" default:"true" desc:"page tools act on it"`
}

type newTabOut struct {
	said
	TabID      string  `json:"tab_id"`
	URL        Page    `json:"url"`
	Title      Page    `json:"title"`
	ReadyState string  `json:"ready_state"`
	Selected   bool    `json:"selected"`
	Generation *uint64 `json:"generation,omitempty"`
}

// newTabLoad bounds how long new_tab waits for the page to complete; a
// slower page is reported as still loading, not as a failure.
const newTabLoad = 10 * time.Second

func (s *Session) newTab(ctx context.Context, a *newTabArgs, _ Progress) (newTabOut, error) {
	u, err := checkURL(a.URL)
	if err != nil {
		return newTabOut{}, err
	}
	selectIt := a.Select
	if err := s.lock(ctx); err != nil {
		return newTabOut{}, err
	}
	defer s.unlock()
	c, err := s.conn(ctx)
	if err != nil {
		return newTabOut{}, err
	}
	// In the background of its window: the user's own tab stays in front
	// and keeps the keyboard, and no window is raised.
	var tr pagejs.TabResult
	if err := s.chrome(ctx, page{c: c}, pagejs.TabOpen, pagejs.TabOpenArgs{URL: u.String(), Background: true}, &tr); err != nil {
		return newTabOut{}, err
	}
	s.markOpened(tr.BrowserID)
	id := TabID(tr.BrowserID)
	tab, err := waitListed(ctx, c, tr.BrowserID)
	if err != nil {
		return newTabOut{}, fmt.Errorf("new tab %s: %w", id, err)
	}
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		return newTabOut{}, err
	}
	t, state, err := waitNewTab(ctx, w)
	if err != nil {
		w.Close()
		if ctx.Err() != nil {
			return newTabOut{}, ctx.Err()
		}
		return newTabOut{}, err
	}
	st := newTabOut{TabID: id, URL: PageStr(t.URL), Title: PageStr(t.Title), ReadyState: state, Selected: selectIt}
	text := "Opened " + id
	if selectIt {
		gen := s.replaceSelection(tab, w)
		st.Generation = &gen
		text += fmt.Sprintf(" and selected it (generation %d)", gen)
	} else {
		w.Close()
		text += " (not selected: page tools still act on the previously selected tab)"
	}
	if state != "complete" {
		text += "; it is still loading (" + state + ")"
	}
	b := NewUntrusted()
	b.Field("Page", t.Title, 200)
	b.Field("URL", t.URL, 500)
	st.text = text + ".\n" + b.String()
	return st, nil
}

// waitListed waits (bounded) until the root actor lists a tab that was
// just opened.
func waitListed(ctx context.Context, c connection, browserID int64) (rdp.Tab, error) {
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
func waitNewTab(ctx context.Context, w tabWatch) (rdp.Target, string, error) {
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
func (s *Session) replaceSelection(tab rdp.Tab, w tabWatch) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	s.sel = &selection{tab: tab, watch: w, navs: w.Navigations()}
	s.newGenerationLocked()
	return s.generation
}

var closeTabTool = tool[closeTabArgs, closeTabOut]{
	Name: "close_tab", Title: "Close tab",
	Description: "Close a tab that new_tab or an agent's click opened. The user's tabs are refused (tab_not_owned), as is a page asking to confirm leaving (close_blocked).",
	Annotations: Annotations{Destructive: true, Idempotent: true},
	Run:         (*Session).closeTab,
}

type closeTabArgs struct {
	TabID string `json:"tab_id" min:"5" max:"64" desc:"from list_tabs"`
}

type closeTabOut struct {
	said
	TabID       string `json:"tab_id"`
	Closed      bool   `json:"closed"`
	WasSelected bool   `json:"was_selected"`
}

func (s *Session) closeTab(ctx context.Context, a *closeTabArgs, _ Progress) (closeTabOut, error) {
	id, ok := ParseTabID(a.TabID)
	if !ok {
		return closeTabOut{}, Errorf(errcode.InvalidArguments, "%q is not a tab_id; tab ids look like tab-12 and come from list_tabs or new_tab", Truncate(a.TabID, 40))
	}
	if err := s.lock(ctx); err != nil {
		return closeTabOut{}, err
	}
	defer s.unlock()
	c, err := s.conn(ctx)
	if err != nil {
		return closeTabOut{}, err
	}
	if _, err := c.GetTab(ctx, id); err != nil {
		if errors.Is(err, rdp.ErrTabClosed) {
			return closeTabOut{}, Errorf(errcode.TabNotFound, "no open tab has tab_id %s; call list_tabs", TabID(id))
		}
		return closeTabOut{}, err
	}
	if !s.isOpened(id) {
		return closeTabOut{}, Errorf(errcode.TabNotOwned, "%s is one of the user's tabs: close_tab closes only tabs this server opened (with new_tab, or by a click), because closing a user's tab can lose their unsaved work", TabID(id))
	}
	var tr pagejs.TabResult
	if err := s.chrome(ctx, page{c: c}, pagejs.TabClose, pagejs.TabArgs{BrowserID: id}, &tr); err != nil {
		return closeTabOut{}, err
	}
	if tr.Kept {
		return closeTabOut{}, Errorf(errcode.CloseBlocked, "%s was not closed: its page asks to confirm leaving (a beforeunload handler), so it may hold unsaved input; it stays open for the user", TabID(id))
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		_, err := c.GetTab(ctx, id)
		if errors.Is(err, rdp.ErrTabClosed) {
			break
		}
		if err != nil && !errors.Is(err, rdp.ErrTabClosed) {
			return closeTabOut{}, err
		}
		if time.Now().After(deadline) {
			return closeTabOut{}, Errorf(errcode.TabNotFound, "%s was asked to close but is still listed after 3 s", TabID(id))
		}
		if err := Sleep(ctx, 20*time.Millisecond); err != nil {
			return closeTabOut{}, err
		}
	}
	s.mu.Lock()
	delete(s.opened, id)
	wasSelected := s.sel != nil && s.sel.tab.BrowserID == id
	if wasSelected {
		if s.sel.watch != nil {
			s.sel.watch.Close()
		}
		s.sel = nil
		s.newGenerationLocked()
	}
	s.mu.Unlock()
	text := "Closed " + TabID(id) + "."
	if wasSelected {
		text += " It was the selected tab: no tab is selected now (use list_tabs and select_tab)."
	}
	out := closeTabOut{TabID: TabID(id), Closed: true, WasSelected: wasSelected}
	out.text = text
	return out, nil
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
