package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
		} else {
			lines = append(lines, "No tab selected.")
		}
	}
	lines = append(lines, fmt.Sprintf("Sandbox: %s (Landlock ABI %d, seccomp %v). Uploads: %s.",
		s.opts.Sandbox.Mode, s.opts.Sandbox.LandlockABI, s.opts.Sandbox.Seccomp, uploadsLine(st["uploads_enabled"].(bool), len(cfg.UploadRoots))))
	return Result{Text: strings.Join(lines, "\n"), Structured: st}, nil
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

type selectTabArgs struct {
	TabID *string `json:"tab_id"`
	Index *int    `json:"index"`
}

func (s *Session) selectTab(ctx context.Context, a *selectTabArgs, _ Progress) (Result, error) {
	if (a.TabID == nil) == (a.Index == nil) {
		return Result{}, errorf(CodeInvalidArguments, "give exactly one of tab_id or index")
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
			return Result{}, errorf(CodeTabNotFound, "there is no tab at index %d (%s open); call list_tabs", *a.Index, plural(len(tabs), "tab is", "tabs are"))
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
			return Result{}, errorf(CodeTabNotFound, "no open tab has tab_id %q; call list_tabs", truncate(*a.TabID, 64))
		}
	}
	tab := tabs[idx]
	c, err := s.conn(ctx)
	if err != nil {
		return Result{}, err
	}
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		return Result{}, err
	}
	t, err := w.Current(ctx)
	if err != nil {
		w.Close()
		return Result{}, err
	}
	s.mu.Lock()
	if s.sel != nil && s.sel.watch != nil {
		s.sel.watch.Close()
	}
	s.sel = &selection{tab: tab, watch: w, navs: w.Navigations()}
	s.newGenerationLocked()
	gen := s.generation
	s.mu.Unlock()
	info := map[string]any{"tab_id": tabID(tab.BrowserID), "index": idx, "title": pageStr(t.Title), "url": pageStr(t.URL), "generation": gen}
	u := newUntrusted()
	u.field("Page", t.Title, 200)
	u.field("URL", t.URL, 500)
	return Result{
		Text:       fmt.Sprintf("Selected %s (index %d), generation %d.\n%s", tabID(tab.BrowserID), idx, gen, u.String()),
		Structured: info,
	}, nil
}
