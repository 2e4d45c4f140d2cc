package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// young reports whether a failure after the greeting may be Firefox still
// starting: its process is younger than startupGrace, or (when the process
// cannot be seen) doctor has not been waiting for long.
func (p *probe) young() bool {
	if f, ok := p.firefoxOnPort(); ok {
		return f.Age < startupGrace
	}
	return time.Since(p.start) < 5*time.Second
}

// starting turns a failed check into a retry while Firefox is young.
func (p *probe) starting(v verdict, c check, why string) verdict {
	if p.young() {
		v.retry = why
	}
	return v.add(c)
}

// session checks what needs a debugger connection: the version, a tab to
// evaluate in, and trusted input.
func (p *probe) session(v verdict) verdict {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := rdp.Dial(ctx, p.o.Config.Addr, rdp.Options{RequestTimeout: 5 * time.Second})
	if err != nil {
		return p.starting(v, check{name: "Firefox greeting", detail: err.Error(), blocking: true}, "the debugger connection failed (Firefox still starting?)")
	}
	defer c.Close()
	v = v.add(check{name: "Firefox greeting", ok: true, detail: "applicationType " + c.Greeting().ApplicationType})
	version, err := firefoxVersion(ctx, c)
	if err != nil {
		return p.starting(v, check{name: "Firefox version", detail: "could not be read: " + err.Error(), fix: "a recent Firefox ESR (140 or newer) is expected"},
			"Firefox's version is not readable yet")
	}
	v = v.add(check{name: "Firefox version", ok: true, detail: version})

	tabs, err := c.ListTabs(ctx)
	if err != nil || len(tabs) == 0 {
		return p.starting(v, check{name: "tab evaluation", detail: fmt.Sprintf("no tab listed yet (%v)", err), blocking: true, fix: "open a tab with a web page"},
			"Firefox lists no tab yet")
	}
	tab, ok := ordinaryTab(tabs)
	if !ok {
		// Only browser pages are open (about:welcome on a new profile,
		// about:sessionrestore after a crash): try the active one, and if
		// it cannot be evaluated in, say so without blaming a preference.
		tab = activeOrFirst(tabs)
		if t, err := p.evalIn(ctx, c, tab); err == nil {
			v = v.add(check{name: "tab evaluation", ok: true, detail: "evaluated in the browser page " + truncate(t.URL, 80)})
			return p.trusted(ctx, c, t, v, true)
		}
		return v.add(check{name: "tab evaluation", detail: fmt.Sprintf("no ordinary web page is open (the active tab shows the browser page %q, which cannot be evaluated in), so page evaluation and trusted input are not checked", truncate(tab.URL, 80)),
			fix: "open any web page (or a new tab) and run doctor again"})
	}
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		return p.starting(v, check{name: "tab evaluation", detail: err.Error(), blocking: true, fix: "restart Firefox; if it persists, update it (the watcher actor is needed)"},
			"the tab's watcher is not ready yet")
	}
	defer w.Close()
	t, err := w.Current(ctx)
	if err == nil {
		err = evalPageInfo(ctx, c, t)
	}
	if err != nil {
		return p.starting(v, check{name: "tab evaluation", detail: err.Error(), blocking: true, fix: "reload the tab; if it persists, report a bug with this output"},
			"the tab's page is not ready for evaluation yet")
	}
	v = v.add(check{name: "tab evaluation", ok: true, detail: "evaluated in " + truncate(t.URL, 80)})
	return p.trusted(ctx, c, t, v, false)
}

// evalIn evaluates the page-info script in tab's current document.
func (p *probe) evalIn(ctx context.Context, c *rdp.Client, tab rdp.Tab) (rdp.Target, error) {
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		return rdp.Target{}, err
	}
	defer w.Close()
	t, err := w.Current(ctx)
	if err != nil {
		return rdp.Target{}, err
	}
	return t, evalPageInfo(ctx, c, t)
}

func activeOrFirst(tabs []rdp.Tab) rdp.Tab {
	for _, t := range tabs {
		if t.Selected {
			return t
		}
	}
	return tabs[0]
}

func firefoxVersion(ctx context.Context, c *rdp.Client) (string, error) {
	var root struct {
		DeviceActor string `json:"deviceActor"`
	}
	var desc struct {
		Value struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"value"`
	}
	if err := c.Request(ctx, "root", map[string]any{"type": "getRoot"}, &root); err != nil {
		return "", err
	}
	if root.DeviceActor == "" {
		return "", fmt.Errorf("no device actor")
	}
	if err := c.Request(ctx, root.DeviceActor, map[string]any{"type": "getDescription"}, &desc); err != nil {
		return "", err
	}
	return strings.TrimSpace(desc.Value.Name + " " + desc.Value.Version), nil
}

func evalPageInfo(ctx context.Context, c *rdp.Client, t rdp.Target) error {
	src, err := pagejs.PageInfo.Page(struct{}{})
	if err != nil {
		return err
	}
	res, err := c.EvaluateString(ctx, t.ConsoleActor, src, rdp.EvalOptions{Await: true})
	if err != nil {
		return err
	}
	var info struct{ ReadyState string }
	return pagejs.Decode(res, &info)
}

// trusted checks the isolated realm: the browser console first (it needs
// devtools.chrome.enabled), then the page's content-process console.
func (p *probe) trusted(ctx context.Context, c *rdp.Client, t rdp.Target, v verdict, browserPage bool) verdict {
	if _, err := c.ParentProcessConsole(ctx); err != nil {
		return v.add(check{name: "trusted input", detail: "the browser console is refused (" + truncate(err.Error(), 120) + "): devtools.chrome.enabled is off",
			fix: "quit Firefox, run `firefox-rdp-mcp setup --write`, start Firefox again"})
	}
	console, err := c.ContentProcessConsole(ctx, t.ProcessID)
	var probe struct {
		TrustedClick bool `json:"trustedClick"`
		TIP          bool `json:"tip"`
		Files        bool `json:"mozSetFileArray"`
	}
	if err == nil {
		var src, res string
		if src, err = pagejs.Probe.Isolated(t.InnerWindowID, struct{}{}); err == nil {
			if res, err = c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true}); err == nil {
				err = pagejs.Decode(res, &probe)
			}
		}
	}
	if err == nil && probe.TrustedClick && probe.TIP {
		return v.add(check{name: "trusted input", ok: true, detail: fmt.Sprintf("isolated realm: trusted clicks and keys, privileged file assignment %v", probe.Files)})
	}
	if browserPage {
		return v.add(check{name: "trusted input", detail: "devtools.chrome.enabled works (the browser console answered); the isolated realm is checked on web pages, and the active tab is the browser page " + truncate(t.URL, 80),
			fix: "open any web page and run doctor again to check trusted input there"})
	}
	why := "the page's process offers no trusted click or key API"
	if err != nil {
		why = truncate(err.Error(), 160)
	}
	return p.starting(v, check{name: "trusted input", detail: "isolated realm unavailable in " + truncate(t.URL, 80) + " (" + why + "): actions fall back to synthetic page events",
		fix: "devtools.chrome.enabled is on; if this persists on ordinary pages, report a bug with this output"}, "the page's process is not ready yet")
}

// ordinaryTab picks the tab to evaluate in: the active one when it shows an
// ordinary page, else the first that does. Privileged pages (a first tab
// that is about:sessionrestore after a crash, say) say nothing about the
// preferences.
func ordinaryTab(tabs []rdp.Tab) (rdp.Tab, bool) {
	for _, t := range tabs {
		if t.Selected && ordinary(t.URL) {
			return t, true
		}
	}
	for _, t := range tabs {
		if ordinary(t.URL) {
			return t, true
		}
	}
	return rdp.Tab{}, false
}

func ordinary(u string) bool {
	scheme, rest, _ := strings.Cut(u, ":")
	switch strings.ToLower(scheme) {
	case "http", "https", "file", "data":
		return true
	case "about":
		page, _, _ := strings.Cut(rest, "?")
		return page == "blank"
	}
	return false
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
