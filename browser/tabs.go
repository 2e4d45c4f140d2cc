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

// noArgs is the argument struct of a tool without arguments.
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
func (s *Session) discover(ctx context.Context, f func(c connection) error) error {
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

var browserStatusTool = tool[noArgs, statusOut]{
	Name: "browser_status", Title: "Browser status",
	Description: "Connection to Firefox, the selected tab, the ref generation, uploads, the sandbox and whether trusted input is available. Never selects a tab.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true},
	Run:         (*Session).browserStatus,
}

type statusOut struct {
	said
	Connected        bool           `json:"connected"`
	Host             string         `json:"host"`
	Port             uint16         `json:"port"`
	Endpoint         string         `json:"endpoint"`
	SelectedTab      *statusTab     `json:"selected_tab"`
	Generation       *uint64        `json:"generation"`
	UploadsEnabled   bool           `json:"uploads_enabled"`
	UploadRoots      int            `json:"upload_roots"`
	Sandbox          SandboxInfo    `json:"sandbox"`
	IsolatedRealm    *realmStatus   `json:"isolated_realm"`
	Version          string         `json:"version"`
	Error            string         `json:"error,omitempty"`
	Firefox          *firefoxStatus `json:"firefox,omitempty"`
	SelectionCleared string         `json:"selection_cleared,omitempty"`
}

type statusTab struct {
	TabID string `json:"tab_id"`
	Title *Page  `json:"title,omitempty"`
	URL   *Page  `json:"url,omitempty"`
	Error string `json:"error,omitempty"`
}

type realmStatus struct {
	Available       bool   `json:"available"`
	Reason          string `json:"reason"`
	TrustedClick    bool   `json:"trusted_click"`
	TrustedKeys     bool   `json:"trusted_keys"`
	PrivilegedFiles bool   `json:"privileged_files"`
}

type firefoxStatus struct {
	ApplicationType string `json:"application_type"`
}

func (s *Session) browserStatus(ctx context.Context, _ *noArgs, _ Progress) (statusOut, error) {
	cfg := s.opts
	st := statusOut{
		Host: cfg.Host, Port: cfg.Addr.Port(), Endpoint: "ws://" + cfg.Addr.String() + "/",
		UploadsEnabled: cfg.UploadsEnabled && s.opts.Files != nil, UploadRoots: len(cfg.UploadRoots),
		Sandbox: s.opts.Sandbox, Version: s.opts.Version,
	}
	var lines []string
	c, err := s.conn(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return statusOut{}, ctx.Err()
		}
		e, _ := AsError(err)
		st.Error = e.Message
		lines = append(lines, "Not connected: "+e.Message)
	} else {
		st.Connected = true
		st.Firefox = &firefoxStatus{ApplicationType: c.Greeting().ApplicationType}
		lines = append(lines, "Connected to Firefox at "+cfg.Addr.String()+".")
		lines = append(lines, s.selectionStatus(ctx, c, &st))
	}
	lines = append(lines, fmt.Sprintf("Sandbox: %s (Landlock ABI %d, seccomp %v). Uploads: %s.",
		s.opts.Sandbox.Mode, s.opts.Sandbox.LandlockABI, s.opts.Sandbox.Seccomp, uploadsLine(st.UploadsEnabled, len(cfg.UploadRoots))))
	st.text = strings.Join(lines, "\n")
	return st, nil
}

// selectionStatus fills in the selected tab and its realm, and says it.
func (s *Session) selectionStatus(ctx context.Context, c connection, st *statusOut) string {
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
	if sel == nil {
		if lost := s.lostNote(); lost != "" {
			st.SelectionCleared = lost
			return "No tab selected: " + lost + "."
		}
		return "No tab selected: page tools will use the active tab of the most recently used window (select_tab picks one)."
	}
	st.SelectedTab, st.Generation = &statusTab{TabID: TabID(sel.tab.BrowserID)}, &gen
	tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	t, err := sel.watch.Current(tctx)
	cancel()
	if err != nil {
		st.SelectedTab.Error = "the tab's document is not available right now"
		return fmt.Sprintf("Selected %s, generation %d (document not available).", TabID(sel.tab.BrowserID), gen)
	}
	title, u := PageStr(t.Title), PageStr(t.URL)
	st.SelectedTab.Title, st.SelectedTab.URL = &title, &u
	r := s.realmFor(ctx, page{c: c, sel: sel, generation: gen}, t)
	st.IsolatedRealm = &realmStatus{Available: r.ok, Reason: r.reason,
		TrustedClick: r.probe.TrustedClick, TrustedKeys: r.probe.TIP, PrivilegedFiles: r.probe.MozSetFileArray}
	trust := "trusted input available"
	if !r.ok {
		trust = "page-realm fallback: " + r.reason
	}
	return fmt.Sprintf("Selected %s, generation %d (%s).", TabID(sel.tab.BrowserID), gen, trust)
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
	return "enabled beneath " + Plural(roots, "root", "roots")
}

func (s *Session) tabs(ctx context.Context) ([]rdp.Tab, error) {
	var tabs []rdp.Tab
	err := s.discover(ctx, func(c connection) error {
		var err error
		tabs, err = c.ListTabs(ctx)
		return err
	})
	return tabs, err
}

var listTabsTool = tool[noArgs, listTabsOut]{
	Name: "list_tabs", Title: "List tabs",
	Description: "The user's ordinary tabs in tab-strip order: tab_id (stable across navigations), title, URL, selected, opened by this server.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Session).listTabs,
}

type listTabsOut struct {
	said
	Tabs []tabInfo `json:"tabs"`
}

func (s *Session) listTabs(ctx context.Context, _ *noArgs, _ Progress) (listTabsOut, error) {
	tabs, err := s.tabs(ctx)
	if err != nil {
		return listTabsOut{}, err
	}
	s.mu.Lock()
	var selID int64 = -1
	if s.sel != nil {
		selID = s.sel.tab.BrowserID
	}
	s.mu.Unlock()
	out := make([]tabInfo, len(tabs))
	w := NewUntrusted()
	for i, t := range tabs {
		out[i] = tabInfo{TabID: TabID(t.BrowserID), Index: i, Title: PageStr(t.Title), URL: PageStr(t.URL), Selected: t.BrowserID == selID, OpenedHere: s.isOpened(t.BrowserID)}
		mark := " "
		if out[i].Selected {
			mark = "*"
		}
		if out[i].OpenedHere {
			mark += "+"
		} else {
			mark += " "
		}
		w.Line(fmt.Sprintf("%s%d %s %s %s", mark, i, out[i].TabID, Quote(t.Title, 80), Quote(t.URL, 120)))
	}
	res := listTabsOut{Tabs: out}
	res.text = Plural(len(tabs), "tab", "tabs") + " (* = selected, + = opened by this server):\n" + w.String()
	return res, nil
}

// watchTimeout bounds attaching to a tab (the watcher waits for the tab's
// content processes, and a page stuck in a script holds its process).
const watchTimeout = 10 * time.Second

var selectTabTool = tool[selectTabArgs, selectTabOut]{
	Name: "select_tab", Title: "Select tab",
	Description: "Choose the tab page tools act on, by tab_id or index; starts a new ref generation; does not bring it to the front. Until then, page tools use the active tab of the last-used window and say which.",
	Annotations: Annotations{Idempotent: true},
	Run:         (*Session).selectTab,
}

type selectTabArgs struct {
	TabID *string  `json:"tab_id" min:"1" max:"64" desc:"from list_tabs, e.g. tab-9"`
	Index *int     `json:"index" min:"0" max:"100000" desc:"position in list_tabs"`
	_     struct{} `oneof:"tab_id,index" msg:"give exactly one of tab_id or index"`
}

type selectTabOut struct {
	said
	TabID      string `json:"tab_id"`
	Index      int    `json:"index"`
	Title      Page   `json:"title"`
	URL        Page   `json:"url"`
	Generation uint64 `json:"generation"`
	Document   *bool  `json:"document,omitempty"`
}

func (s *Session) selectTab(ctx context.Context, a *selectTabArgs, _ Progress) (selectTabOut, error) {
	if err := s.lock(ctx); err != nil {
		return selectTabOut{}, err
	}
	defer s.unlock()
	tabs, err := s.tabs(ctx)
	if err != nil {
		return selectTabOut{}, err
	}
	idx, err := tabIndex(tabs, a)
	if err != nil {
		return selectTabOut{}, err
	}
	tab := tabs[idx]
	t, terr, gen, err := s.use(ctx, tab)
	if err != nil {
		return selectTabOut{}, err
	}
	out := selectTabOut{TabID: TabID(tab.BrowserID), Index: idx, Title: PageStr(t.Title), URL: PageStr(t.URL), Generation: gen}
	u := NewUntrusted()
	if terr != nil {
		no := false
		out.Title, out.URL, out.Document = PageStr(tab.Title), PageStr(tab.URL), &no
		u.Field("Page", tab.Title, 200)
		u.Field("URL", tab.URL, 500)
		out.text = fmt.Sprintf("Selected %s (index %d), generation %d, but it shows no document this server can reach (say, after a redirect to a file: or about: URL); navigate it to an http(s) URL.\n%s",
			TabID(tab.BrowserID), idx, gen, u.String())
		return out, nil
	}
	u.Field("Page", t.Title, 200)
	u.Field("URL", t.URL, 500)
	out.text = fmt.Sprintf("Selected %s (index %d), generation %d.\n%s", TabID(tab.BrowserID), idx, gen, u.String())
	return out, nil
}

// tabIndex finds the tab a select_tab call names.
func tabIndex(tabs []rdp.Tab, a *selectTabArgs) (int, error) {
	if a.Index != nil {
		if *a.Index >= len(tabs) {
			return 0, Errorf(errcode.TabNotFound, "there is no tab at index %d (%s open); call list_tabs", *a.Index, Plural(len(tabs), "tab is", "tabs are"))
		}
		return *a.Index, nil
	}
	id, ok := ParseTabID(*a.TabID)
	for i, t := range tabs {
		if ok && t.BrowserID == id {
			return i, nil
		}
	}
	return 0, Errorf(errcode.TabNotFound, "no open tab has tab_id %q; call list_tabs", Truncate(*a.TabID, 64))
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

// AutoSelected is the tab a page tool chose when none was selected.
type AutoSelected struct {
	TabID      string `json:"tab_id"`
	Index      int    `json:"index"`
	Generation uint64 `json:"generation"`
	Auto       bool   `json:"auto"`
}

// autoSelect selects the active tab of the most recently used Firefox
// window when no tab is selected, so that a client that never calls
// select_tab (one process per call, as the MCP Inspector CLI does) can act.
// It returns the sentence that tells the agent which tab it got, "" when a
// tab was already selected.
func (s *Session) autoSelect(ctx context.Context) (note string, info *AutoSelected, err error) {
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
		return "", nil, Errorf(errcode.NoTabSelected, "no tab is selected and Firefox reports no active tab in a browser window; call list_tabs, then select_tab")
	}
	if why := notAutoSelectable(tabs[idx].URL); why != "" {
		return "", nil, Errorf(errcode.NoTabSelected, "no tab is selected, and the active tab (index %d) %s, which this server does not pick by itself; call list_tabs, then select_tab", idx, why)
	}
	t, terr, gen, err := s.use(ctx, tabs[idx])
	if err != nil {
		return "", nil, err
	}
	if terr != nil {
		t.URL = tabs[idx].URL
	}
	id := TabID(tabs[idx].BrowserID)
	info = &AutoSelected{TabID: id, Index: idx, Generation: gen, Auto: true}
	return fmt.Sprintf("No tab was selected, so this call used the active tab of the most recently used window: %s (index %d; its URL is below) — select_tab picks another.\n%s",
		id, idx, Marked("URL", t.URL, 200)), info, nil
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

// attach starts watching tab for select_tab. terr is rdp.ErrNoTarget when
// the tab has no document the debugger can reach (it is selected anyway, so
// navigate can recover it).
func (s *Session) attach(ctx context.Context, c connection, tab rdp.Tab) (w tabWatch, t rdp.Target, terr, err error) {
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
