package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// discover runs a read-only discovery step, retrying it once on a fresh
// connection when the first one turned out to be dead. Only discovery is
// retried: an action may have taken effect before its connection failed.
func (s *Session) discover(ctx context.Context, f func(c Connection) error) error {
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

func (s *Session) tabs(ctx context.Context) ([]rdp.Tab, error) {
	var tabs []rdp.Tab
	err := s.discover(ctx, func(c Connection) error {
		var err error
		tabs, err = listTabs(ctx, c)
		return err
	})
	return tabs, err
}

// tabTextMax is the most characters of a tab's title or URL the tab list
// carries: a page's title can be megabytes long, and root's listTabs sends
// every title whole, in one reply that a few such tabs made larger than the
// connection reads (it then fails). Selecting a tab reads its own title from
// its document.
const tabTextMax = 16 << 10

// listTabs lists the tabs from the parent process, each title and URL cut
// to tabTextMax (TabList; the tabs' descriptor actors are left empty, see
// withActor), or, where Firefox offers no parent-process console, through
// root's listTabs.
func listTabs(ctx context.Context, c Connection) ([]rdp.Tab, error) {
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return c.ListTabs(ctx)
	}
	src, err := pagejs.TabList.Chrome(pagejs.TabListArgs{Max: tabTextMax})
	if err != nil {
		return nil, err
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	var r pagejs.TabListResult
	if err == nil {
		err = pagejs.Decode(res, &r)
	}
	if err != nil {
		return nil, fmt.Errorf("listing the tabs: %w", err)
	}
	tabs := make([]rdp.Tab, len(r.Tabs))
	for i, t := range r.Tabs {
		tabs[i] = rdp.Tab{BrowserID: t.BrowserID, Title: t.Title, URL: t.URL, Selected: t.Selected}
	}
	return tabs, nil
}

// withActor gives tab its descriptor actor (getTab) when the list it came
// from did not.
func withActor(ctx context.Context, c Connection, tab rdp.Tab) (rdp.Tab, error) {
	if tab.Actor != "" {
		return tab, nil
	}
	t, err := c.GetTab(ctx, tab.BrowserID)
	if err != nil {
		return tab, err
	}
	tab.Actor = t.Actor
	return tab, nil
}

// watchTimeout bounds attaching to a tab (the watcher waits for the tab's
// content processes, and a page stuck in a script holds its process): past
// it the call that selects the tab is page_unresponsive (docs/limits.md).
// Not 5 s like the other waits: on a loaded machine attaching a healthy tab
// has taken longer (load 40 on two cores).
const watchTimeout = 10 * time.Second

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
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	sel := &selection{tab: tab, watch: w, navs: w.Navigations()}
	s.sel = sel
	s.kept.keep(sel)
	s.lost = ""
	s.newGenerationLocked()
	gen = s.generation
	s.mu.Unlock()
	if terr == nil && webDocument(t.URL) {
		// The document's snapshot resident is installed now, in the
		// background, which starts its warm walk: the agent's first read of
		// a tab it selected finds that read made ahead, as after a
		// navigation (prepareResident). Its process's isolated realm, which
		// binds refs and acts, is probed meanwhile (once per process) and
		// readied to bind them (prepareRealm).
		pg := page{c: c, sel: sel, generation: gen}
		s.prepareResident(pg, t, pagejs.Snapshot)
		go s.prepareRealm(pg, t)
	}
	return t, terr, gen, nil
}

// AutoSelected is the tab a page tool chose when none was selected.
type AutoSelected struct {
	TabID      string `json:"tab_id"`
	Index      int    `json:"index"`
	Generation uint64 `json:"generation"`
	Auto       bool   `json:"auto"`
	// Starting: Firefox was still starting when the tab was chosen (the
	// call waited for it); its first page may be slow to answer.
	Starting bool `json:"-"`
	// URL is the tab's address (page text): the answer shows it inside the
	// markers after the note, never in structuredContent.
	URL string `json:"-"`
}

// AutoSelect selects the active tab of the most recently used Firefox
// window when no tab is selected, so that a client that never calls
// select_tab (one process per call, as the MCP Inspector CLI does) can act.
// It returns the sentence that tells the agent which tab it got (in the
// server's words; the tab's URL, which it says is below, is info.URL), ""
// when a tab was already selected.
//
// A Firefox that is still starting (no browser window yet, or one that has
// not finished starting) is waited for, up to startupWait, with progress on
// p. A tab whose document turns out to be a browser page once attached
// (the initial about:blank that became about:sessionrestore) is let go.
func (s *Session) AutoSelect(ctx context.Context, p Progress) (note string, info *AutoSelected, err error) {
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
	start := time.Now()
	tabs, starting, timedOut, err := s.startedTabs(ctx, p)
	if err != nil {
		return "", nil, err
	}
	idx := activeTab(tabs)
	if timedOut {
		return "", nil, stillStarting()
	}
	starting = starting || s.young()
	if why := notAutoSelectable(tabs[idx].URL); why != "" {
		return "", nil, Errorf(errcode.NoTabSelected, "no tab is selected, and the active tab (index %d) %s, which this server does not pick by itself; call list_tabs, then select_tab", idx, why)
	}
	t, terr, gen, err := s.useStarting(ctx, tabs[idx], starting, start, p)
	if err != nil {
		return "", nil, err
	}
	if terr != nil {
		t.URL = tabs[idx].URL
	}
	if why := notAutoSelectable(t.URL); why != "" {
		s.release()
		return "", nil, Errorf(errcode.NoTabSelected, "no tab is selected, and the active tab (index %d) %s, which this server does not pick by itself; call list_tabs, then select_tab", idx, why)
	}
	id := TabID(tabs[idx].BrowserID)
	info = &AutoSelected{TabID: id, Index: idx, Generation: gen, Auto: true, Starting: starting, URL: t.URL}
	return fmt.Sprintf("No tab was selected, so this call used the active tab of the most recently used window: %s (index %d; its URL is below) — select_tab picks another.",
		id, idx), info, nil
}

// release drops the selection use made (its tab turned out not to be one
// to pick by itself).
func (s *Session) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	s.sel = nil
	s.newGenerationLocked()
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
		return "shows the browser page about:" + Truncate(page, 40)
	case "":
		return "has no URL yet"
	}
	return "shows a " + Truncate(scheme, 20) + ": page"
}

// webDocument tells whether a document at u is a web page (not a browser
// page, nor about:blank): one worth reading ahead when its tab is selected.
func webDocument(u string) bool {
	scheme, _, _ := strings.Cut(u, ":")
	switch strings.ToLower(scheme) {
	case "http", "https", "file", "data":
		return true
	}
	return false
}

// attach starts watching tab for select_tab. terr is rdp.ErrNoTarget when
// the tab has no document the debugger can reach (it is selected anyway, so
// navigate can recover it).
func (s *Session) attach(ctx context.Context, c Connection, tab rdp.Tab) (w TabWatch, t rdp.Target, terr, err error) {
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
	tab, err = withActor(wctx, c, tab)
	if err == nil {
		w, err = c.WatchTab(wctx, tab)
	}
	if err == nil {
		t, terr = waitDocument(wctx, c, w, tab.BrowserID)
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
			s.sel, s.lost = nil, "select_tab "+TabID(tab.BrowserID)+" failed after the previous selection was released"
		}
		s.mu.Unlock()
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = pageUnresponsive()
		}
		return nil, t, nil, err
	}
	return w, t, terr, nil
}

// Status is what browser_status reports of the connection and the
// selection; it never selects a tab.
type Status struct {
	Connected       bool
	Error           string // why there is no connection ("" when connected)
	ApplicationType string // from Firefox's greeting
	// Lost says why the selection was cleared ("" when it was not).
	Lost     string
	Selected *SelectedStatus // nil: no tab selected
}

// SelectedStatus is the selected tab as browser_status reports it.
type SelectedStatus struct {
	TabID      string
	Generation uint64
	// NoDocument: the tab's document is not available right now (Title
	// and URL are then empty and Realm unknown).
	NoDocument bool
	Title, URL string // page-derived
	Realm      RealmStatus
}

// RealmStatus is the isolated realm of the selected tab's process: whether
// it is available (else why not) and what it offers.
type RealmStatus struct {
	Available                                  bool
	Reason                                     string
	TrustedClick, TrustedKeys, PrivilegedFiles bool
}

// Status reads the connection and the selected tab.
func (s *Session) Status(ctx context.Context) (Status, error) {
	c, err := s.conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Status{}, ctx.Err()
		}
		e, _ := AsError(err)
		return Status{Error: e.Message}, nil
	}
	st := Status{Connected: true, ApplicationType: c.Greeting().ApplicationType}
	s.mu.Lock()
	sel, gen := s.sel, s.generation
	if sel != nil && sel.watch == nil {
		sel = nil
	}
	if sel != nil {
		s.syncLocked(sel)
		gen = s.generation
	}
	st.Lost = s.lost
	s.mu.Unlock()
	if sel == nil {
		return st, nil
	}
	st.Selected = &SelectedStatus{TabID: TabID(sel.tab.BrowserID), Generation: gen}
	tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	t, err := sel.watch.Current(tctx)
	cancel()
	if err != nil {
		st.Selected.NoDocument = true
		return st, nil
	}
	st.Selected.Title, st.Selected.URL = t.Title, t.URL
	r := s.realmFor(ctx, page{c: c, sel: sel, generation: gen}, t)
	st.Selected.Realm = RealmStatus{Available: r.ok, Reason: r.reason,
		TrustedClick: r.probe.TrustedClick, TrustedKeys: r.probe.TIP, PrivilegedFiles: r.probe.MozSetFileArray}
	return st, nil
}

// TabEntry is one of the user's tabs as list_tabs shows it. Title and URL
// are page-derived.
type TabEntry struct {
	BrowserID  int64
	Title, URL string
	Selected   bool
	// OpenedHere: this server opened the tab (new_tab, or a click), so
	// close_tab may close it.
	OpenedHere bool
}

// ListTabs lists the ordinary tabs in tab-strip order.
func (s *Session) ListTabs(ctx context.Context) ([]TabEntry, error) {
	tabs, err := s.tabs(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	var selID int64 = -1
	if s.sel != nil {
		selID = s.sel.tab.BrowserID
	}
	s.mu.Unlock()
	out := make([]TabEntry, len(tabs))
	for i, t := range tabs {
		out[i] = TabEntry{BrowserID: t.BrowserID, Title: t.Title, URL: t.URL, Selected: t.BrowserID == selID, OpenedHere: s.isOpened(t.BrowserID)}
	}
	return out, nil
}

// Selection is a tab select_tab selected: its place in the list, and its
// document (NoDocument: none this server can reach; Title and URL are then
// the tab's own).
type Selection struct {
	BrowserID  int64
	Index      int
	Title, URL string // page-derived
	NoDocument bool
	Generation uint64
}

// SelectTab makes the tab pick chooses among the listed tabs the selected
// one, in a new generation. pick's error is returned as it is.
func (s *Session) SelectTab(ctx context.Context, pick func([]rdp.Tab) (int, error)) (Selection, error) {
	if err := s.lock(ctx); err != nil {
		return Selection{}, err
	}
	defer s.unlock()
	tabs, err := s.tabs(ctx)
	if err != nil {
		return Selection{}, err
	}
	idx, err := pick(tabs)
	if err != nil {
		return Selection{}, err
	}
	tab := tabs[idx]
	t, terr, gen, err := s.use(ctx, tab)
	if err != nil {
		return Selection{}, err
	}
	sel := Selection{BrowserID: tab.BrowserID, Index: idx, Title: t.Title, URL: t.URL, Generation: gen}
	if terr != nil {
		sel.Title, sel.URL, sel.NoDocument = tab.Title, tab.URL, true
	}
	return sel, nil
}
