package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

type noArgs struct{}

type tabInfo struct {
	TabID    string `json:"tab_id"`
	Index    int    `json:"index"`
	Title    Page   `json:"title"`
	URL      Page   `json:"url"`
	Selected bool   `json:"selected"`
	// OpenedHere: this server opened the tab (new_tab, or a click), so
	// close_tab may close it.
	OpenedHere bool `json:"opened_here,omitempty"`
}

// discover runs a read-only discovery step, retrying it once on a fresh
// connection when the first one turned out to be dead. Only discovery is
// retried: an action may have taken effect before its connection failed.
func (s *Session) discover(ctx context.Context, f func(c *rdp.Client) error) error {
	for attempt := 0; ; attempt++ {
		c, err := s.conn(ctx)
		if err != nil {
			return err
		}
		err = f(c)
		if err == nil || attempt > 0 || ctx.Err() != nil ||
			!(errors.Is(err, rdp.ErrClosed) || errors.Is(err, rdp.ErrTimeout)) {
			return err
		}
		s.log.Info("retrying discovery on a new connection", "error", err)
		s.dropBroken()
	}
}

func (s *Session) browserStatus(ctx context.Context, _ *noArgs, _ Progress) (Result, error) {
	cfg := s.opts.Config
	st := map[string]any{
		"connected":       false,
		"host":            cfg.Host,
		"port":            cfg.Addr.Port(),
		"endpoint":        "ws://" + cfg.Addr.String() + "/",
		"selected_tab":    nil,
		"generation":      nil,
		"uploads_enabled": cfg.UploadsEnabled && s.opts.Files != nil,
		"upload_roots":    len(cfg.UploadRoots),
		"sandbox":         s.opts.Sandbox,
		"isolated_realm":  nil,
		"version":         s.opts.Version,
	}
	var lines []string
	c, err := s.conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		e, _ := AsError(err)
		st["error"] = e.Message
		lines = append(lines, "Not connected: "+e.Message)
	} else {
		st["connected"] = true
		st["firefox"] = map[string]any{"application_type": c.Greeting().ApplicationType}
		lines = append(lines, "Connected to Firefox at "+cfg.Addr.String()+".")
		s.mu.Lock()
		sel, gen := s.sel, s.generation
		if sel != nil && sel.watch == nil {
			sel = nil
		}
		if sel != nil {
			s.syncLocked(sel)
			gen = s.generation
		}
		s.mu.Unlock()
		if sel != nil {
			tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			t, err := sel.watch.Current(tctx)
			cancel()
			tab := map[string]any{"tab_id": tabID(sel.tab.BrowserID)}
			if err == nil {
				tab["title"], tab["url"] = pageStr(t.Title), pageStr(t.URL)
				r := s.realmFor(ctx, page{c: c, sel: sel, generation: gen}, t)
				st["isolated_realm"] = map[string]any{
					"available": r.ok, "reason": r.reason,
					"trusted_click": r.probe.TrustedClick, "trusted_keys": r.probe.TIP, "privileged_files": r.probe.MozSetFileArray,
				}
				trust := "trusted input available"
				if !r.ok {
					trust = "page-realm fallback: " + r.reason
				}
				lines = append(lines, fmt.Sprintf("Selected %s, generation %d (%s).", tabID(sel.tab.BrowserID), gen, trust))
			} else {
				tab["error"] = "the tab's document is not available right now"
				lines = append(lines, fmt.Sprintf("Selected %s, generation %d (document not available).", tabID(sel.tab.BrowserID), gen))
			}
			st["selected_tab"], st["generation"] = tab, gen
		} else if lost := s.lostNote(); lost != "" {
			st["selection_cleared"] = lost
			lines = append(lines, "No tab selected: "+lost+".")
		} else {
			lines = append(lines, "No tab selected: page tools will use the active tab of the most recently used window (select_tab picks one).")
		}
	}
	lines = append(lines, fmt.Sprintf("Sandbox: %s (Landlock ABI %d, seccomp %v). Uploads: %s.",
		s.opts.Sandbox.Mode, s.opts.Sandbox.LandlockABI, s.opts.Sandbox.Seccomp, uploadsLine(st["uploads_enabled"].(bool), len(cfg.UploadRoots))))
	return Result{Text: strings.Join(lines, "\n"), Structured: st}, nil
}

func (s *Session) lostNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

func uploadsLine(enabled bool, roots int) string {
	switch {
	case !enabled:
		return "disabled (set FIREFOX_MCP_UPLOAD_ROOTS)"
	case roots == 0:
		return "enabled for any readable file"
	}
	return "enabled beneath " + plural(roots, "root", "roots")
}

func (s *Session) tabs(ctx context.Context) ([]rdp.Tab, error) {
	var tabs []rdp.Tab
	err := s.discover(ctx, func(c *rdp.Client) error {
		var err error
		tabs, err = c.ListTabs(ctx)
		return err
	})
	return tabs, err
}

func (s *Session) listTabs(ctx context.Context, _ *noArgs, _ Progress) (Result, error) {
	tabs, err := s.tabs(ctx)
	if err != nil {
		return Result{}, err
	}
	s.mu.Lock()
	var selID int64 = -1
	if s.sel != nil {
		selID = s.sel.tab.BrowserID
	}
	s.mu.Unlock()
	out := make([]tabInfo, len(tabs))
	w := newUntrusted()
	for i, t := range tabs {
		out[i] = tabInfo{TabID: tabID(t.BrowserID), Index: i, Title: pageStr(t.Title), URL: pageStr(t.URL), Selected: t.BrowserID == selID, OpenedHere: s.isOpened(t.BrowserID)}
		mark := " "
		if out[i].Selected {
			mark = "*"
		}
		if out[i].OpenedHere {
			mark += "+"
		} else {
			mark += " "
		}
		w.line(fmt.Sprintf("%s%d %s %s %s", mark, i, out[i].TabID, quote(t.Title, 80), quote(t.URL, 120)))
	}
	text := plural(len(tabs), "tab", "tabs") + " (* = selected, + = opened by this server):\n" + w.String()
	return Result{Text: text, Structured: map[string]any{"tabs": out}}, nil
}

// watchTimeout bounds attaching to a tab (the watcher waits for the tab's
// content processes, and a page stuck in a script holds its process).
const watchTimeout = 10 * time.Second

type selectTabArgs struct {
	TabID *string `json:"tab_id"`
	Index *int    `json:"index"`
}

func (s *Session) selectTab(ctx context.Context, a *selectTabArgs, _ Progress) (Result, error) {
	if (a.TabID == nil) == (a.Index == nil) {
		return Result{}, errorf(errcode.InvalidArguments, "give exactly one of tab_id or index")
	}
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	tabs, err := s.tabs(ctx)
	if err != nil {
		return Result{}, err
	}
	idx := -1
	if a.Index != nil {
		if *a.Index >= len(tabs) {
			return Result{}, errorf(errcode.TabNotFound, "there is no tab at index %d (%s open); call list_tabs", *a.Index, plural(len(tabs), "tab is", "tabs are"))
		}
		idx = *a.Index
	} else {
		id, ok := parseTabID(*a.TabID)
		for i, t := range tabs {
			if ok && t.BrowserID == id {
				idx = i
			}
		}
		if idx < 0 {
			return Result{}, errorf(errcode.TabNotFound, "no open tab has tab_id %q; call list_tabs", truncate(*a.TabID, 64))
		}
	}
	tab := tabs[idx]
	t, terr, gen, err := s.use(ctx, tab)
	if err != nil {
		return Result{}, err
	}
	info := map[string]any{"tab_id": tabID(tab.BrowserID), "index": idx, "title": pageStr(t.Title), "url": pageStr(t.URL), "generation": gen}
	u := newUntrusted()
	if terr != nil {
		info["title"], info["url"] = pageStr(tab.Title), pageStr(tab.URL)
		info["document"] = false
		u.field("Page", tab.Title, 200)
		u.field("URL", tab.URL, 500)
		return Result{
			Text: fmt.Sprintf("Selected %s (index %d), generation %d, but it shows no document this server can reach (say, after a redirect to a file: or about: URL); navigate it to an http(s) URL.\n%s",
				tabID(tab.BrowserID), idx, gen, u.String()),
			Structured: info,
		}, nil
	}
	u.field("Page", t.Title, 200)
	u.field("URL", t.URL, 500)
	return Result{
		Text:       fmt.Sprintf("Selected %s (index %d), generation %d.\n%s", tabID(tab.BrowserID), idx, gen, u.String()),
		Structured: info,
	}, nil
}

// use makes tab the selected tab (a new generation) and returns its
// current document; terr is rdp.ErrNoTarget when the tab shows no document
// the debugger can reach (it is selected anyway, so navigate can recover
// it). The caller holds the page-operation lock.
func (s *Session) use(ctx context.Context, tab rdp.Tab) (t rdp.Target, terr error, gen uint64, err error) {
	c, err := s.conn(ctx)
	if err != nil {
		return rdp.Target{}, nil, 0, err
	}
	w, t, terr, err := s.attach(ctx, c, tab)
	if err != nil {
		return rdp.Target{}, nil, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	s.sel = &selection{tab: tab, watch: w, navs: w.Navigations()}
	s.kept.keep(s.sel)
	s.lost = ""
	s.newGenerationLocked()
	return t, terr, s.generation, nil
}

// tablessTools work without a selected tab; every other tool acts on one,
// and when none was selected, Session.Call selects the active one first.
var tablessTools = map[string]bool{"browser_status": true, "list_tabs": true, "select_tab": true, "new_tab": true, "close_tab": true}

// autoSelect selects the active tab of the most recently used Firefox
// window when no tab is selected, so that a client that never calls
// select_tab (one process per call, as the MCP Inspector CLI does) can act.
// It returns the sentence that tells the agent which tab it got, "" when a
// tab was already selected.
func (s *Session) autoSelect(ctx context.Context) (note string, info map[string]any, err error) {
	s.mu.Lock()
	has := s.sel != nil || s.lost != "" // a lost selection is reported, not replaced
	s.mu.Unlock()
	if has {
		return "", nil, nil
	}
	if err := s.lock(ctx); err != nil {
		return "", nil, err
	}
	defer s.unlock()
	s.mu.Lock()
	has = s.sel != nil || s.lost != ""
	s.mu.Unlock()
	if has { // selected by a call that held the lock before us
		return "", nil, nil
	}
	tabs, err := s.tabs(ctx)
	if err != nil {
		return "", nil, err
	}
	idx := activeTab(tabs)
	if idx < 0 {
		return "", nil, errorf(errcode.NoTabSelected, "no tab is selected and Firefox reports no active tab in a browser window; call list_tabs, then select_tab")
	}
	if why := notAutoSelectable(tabs[idx].URL); why != "" {
		return "", nil, errorf(errcode.NoTabSelected, "no tab is selected, and the active tab (index %d) %s, which this server does not pick by itself; call list_tabs, then select_tab", idx, why)
	}
	t, terr, gen, err := s.use(ctx, tabs[idx])
	if err != nil {
		return "", nil, err
	}
	if terr != nil {
		t.URL = tabs[idx].URL
	}
	id := tabID(tabs[idx].BrowserID)
	info = map[string]any{"tab_id": id, "index": idx, "generation": gen, "auto": true}
	return fmt.Sprintf("No tab was selected, so this call used the active tab of the most recently used window: %s (index %d; its URL is below) — select_tab picks another.\n%s",
		id, idx, marked("URL", t.URL, 200)), info, nil
}

// activeTab is the index of the tab Firefox marks selected: the selected
// tab of the most recently used browser window (the tab descriptor's
// "selected" is gBrowser.selectedBrowser of getMostRecentBrowserWindow()).
func activeTab(tabs []rdp.Tab) int {
	for i, t := range tabs {
		if t.Selected {
			return i
		}
	}
	return -1
}

// notAutoSelectable says why a tab's URL is not one to act on unasked:
// browser and extension pages, and about: pages other than the blank and
// new-tab ones a user starts from and the error pages Firefox shows in
// place of a web page that failed to load. "" when it may be used.
func notAutoSelectable(u string) string {
	scheme, rest, _ := strings.Cut(u, ":")
	switch strings.ToLower(scheme) {
	case "http", "https", "file", "data":
		return ""
	case "about":
		page, _, _ := strings.Cut(rest, "?")
		switch strings.ToLower(page) {
		case "blank", "newtab", "home", "welcome", "privatebrowsing",
			"neterror", "certerror", "httpsonlyerror", "blocked": // a web page that failed to load, in the user's tab
			return ""
		}
		return "shows the browser page about:" + truncate(page, 40)
	case "":
		return "has no URL yet"
	}
	return "shows a " + truncate(scheme, 20) + ": page"
}

// attach starts watching tab for select_tab. terr is rdp.ErrNoTarget when
// the tab has no document the debugger can reach (it is selected anyway, so
// navigate can recover it).
func (s *Session) attach(ctx context.Context, c *rdp.Client, tab rdp.Tab) (w *rdp.TabWatch, t rdp.Target, terr, err error) {
	// Close the old watch first: Firefox (153) keeps forwarding a content
	// process's packets through a stale channel when a watcher stops while
	// another watcher of the connection has targets in that process, and
	// then delivers every packet twice once the first watcher starts again
	// (rdp drops the copies; not causing them is cheaper).
	s.mu.Lock()
	if s.sel != nil && s.sel.watch != nil && s.sel.tab.BrowserID != tab.BrowserID {
		s.sel.watch.Close()
		s.sel.watch = nil
	}
	s.mu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, watchTimeout)
	defer cancel()
	w, err = c.WatchTab(wctx, tab)
	if err == nil {
		tctx, cancel := context.WithTimeout(wctx, targetWait)
		t, terr = w.Current(tctx)
		cancel()
		if errors.Is(terr, rdp.ErrNoTarget) && ctx.Err() == nil {
			if e := s.noDocument(ctx, c, tab.BrowserID); e.Code == errcode.PageUnresponsive {
				w.Close()
				err = e
			}
		}
		if terr != nil && !errors.Is(terr, rdp.ErrNoTarget) {
			w.Close()
			err = terr
		}
	}
	if err != nil {
		s.mu.Lock()
		if s.sel != nil && s.sel.watch == nil { // released above
			s.sel, s.lost = nil, "select_tab "+tabID(tab.BrowserID)+" failed after the previous selection was released"
		}
		s.mu.Unlock()
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = pageUnresponsive()
		}
		return nil, t, nil, err
	}
	return w, t, terr, nil
}
