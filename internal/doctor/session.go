package doctor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
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

// session checks what needs a debugger connection — the version, a tab to
// evaluate in, and trusted input — through the engine's probe.
func (p *probe) session(v verdict) verdict {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := browser.Probe(ctx, browser.Options{Socket: p.socket, Host: p.o.Config.Host, Addr: p.o.Config.Addr, RequestTimeout: 5 * time.Second})
	var pe *browser.ProbeError
	if err != nil && !errors.As(err, &pe) {
		pe = &browser.ProbeError{Step: browser.ProbeConnect, Err: err}
	}
	failed := func(step browser.ProbeStep) bool { return pe != nil && pe.Step == step }
	if failed(browser.ProbeConnect) {
		return p.starting(v, check{name: "Firefox greeting", detail: pe.Err.Error(), blocking: true}, "the debugger connection failed (Firefox still starting?)")
	}
	v = v.add(check{name: "Firefox greeting", ok: true, detail: "applicationType " + r.ApplicationType})
	if failed(browser.ProbeVersion) {
		return p.starting(v, check{name: "Firefox version", detail: "could not be read: " + pe.Err.Error(), fix: "a recent Firefox ESR (140 or newer) is expected"},
			"Firefox's version is not readable yet")
	}
	v = v.add(check{name: "Firefox version", ok: true, detail: r.Firefox})
	switch {
	case failed(browser.ProbeTabs):
		return p.starting(v, check{name: "tab evaluation", detail: fmt.Sprintf("no tab listed yet (%v)", pe.Err), blocking: true, fix: "open a tab with a web page"},
			"Firefox lists no tab yet")
	case failed(browser.ProbeWatch):
		return p.starting(v, check{name: "tab evaluation", detail: pe.Err.Error(), blocking: true, fix: "restart Firefox; if it persists, update it (the watcher actor is needed)"},
			"the tab's watcher is not ready yet")
	case failed(browser.ProbeEval):
		return p.starting(v, check{name: "tab evaluation", detail: pe.Err.Error(), blocking: true, fix: "reload the tab; if it persists, report a bug with this output"},
			"the tab's page is not ready for evaluation yet")
	case r.BrowserPage && !r.PageRealm:
		// Only browser pages are open (about:welcome on a new profile,
		// about:sessionrestore after a crash), and the active one cannot be
		// evaluated in: say so without blaming a preference.
		return v.add(check{name: "tab evaluation", detail: fmt.Sprintf("no ordinary web page is open (the active tab shows the browser page %q, which cannot be evaluated in), so page evaluation and trusted input are not checked", truncate(r.URL, 80)),
			fix: "open any web page (or a new tab) and run doctor again"})
	case r.BrowserPage:
		v = v.add(check{name: "tab evaluation", ok: true, detail: "evaluated in the browser page " + truncate(r.URL, 80)})
	default:
		v = v.add(check{name: "tab evaluation", ok: true, detail: "evaluated in " + truncate(r.URL, 80)})
	}
	return p.trusted(r, v)
}

// trusted reports the isolated realm: the browser console first (it needs
// devtools.chrome.enabled), then the page's content-process console.
func (p *probe) trusted(r browser.ProbeReport, v verdict) verdict {
	if r.Chrome != nil {
		return v.add(check{name: "trusted input", detail: "the browser console is refused (" + truncate(r.Chrome.Error(), 120) + "): devtools.chrome.enabled is off",
			fix: "quit Firefox, run `firefox-rdp-mcp setup --write`, start Firefox again"})
	}
	if r.Isolated.Available {
		return v.add(check{name: "trusted input", ok: true, detail: fmt.Sprintf("isolated realm: trusted clicks and keys, privileged file assignment %v", r.Isolated.PrivilegedFiles)})
	}
	if r.BrowserPage {
		return v.add(check{name: "trusted input", detail: "devtools.chrome.enabled works (the browser console answered); the isolated realm is checked on web pages, and the active tab is the browser page " + truncate(r.URL, 80),
			fix: "open any web page and run doctor again to check trusted input there"})
	}
	return p.starting(v, check{name: "trusted input", detail: "isolated realm unavailable in " + truncate(r.URL, 80) + " (" + truncate(r.Isolated.Reason, 160) + "): actions fall back to synthetic page events",
		fix: "devtools.chrome.enabled is on; if this persists on ordinary pages, report a bug with this output"}, "the page's process is not ready yet")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
