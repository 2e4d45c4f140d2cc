package browser

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// ProbeReport is what Probe found out about a Firefox, step by step. A step
// that was not reached leaves its fields zero.
type ProbeReport struct {
	// ApplicationType is what Firefox's greeting calls it ("browser").
	ApplicationType string
	// Firefox names the application and its version ("Firefox 140.5.0").
	Firefox string
	// URL is the address of the document evaluated in or, when it could not
	// be evaluated in, of the tab as Firefox lists it. The tab is the active
	// one when it shows an ordinary web page (or a blank one), else the first
	// that does: a privileged first tab (about:sessionrestore after a crash)
	// says nothing about the preferences.
	URL string
	// BrowserPage: no tab shows an ordinary web page, so the active (else
	// the first) tab was tried, a browser or extension page.
	BrowserPage bool
	// PageRealm: the page-info script answered in the tab's page realm. It
	// is false only with BrowserPage: an ordinary tab that cannot be
	// evaluated in is a *ProbeError.
	PageRealm bool
	// Chrome is why Firefox refused its parent process's console (it needs
	// devtools.chrome.enabled), nil when it answered. The isolated realm is
	// probed only when it answered.
	Chrome error
	// Isolated is the isolated realm of the tab's process, as actions find
	// it (the engine's one probe, which browser_status reports too).
	Isolated IsolatedRealm
}

// IsolatedRealm says whether actions in a page run in the isolated realm,
// with trusted input, or fall back to the page realm, and why.
type IsolatedRealm struct {
	Available bool
	Reason    string // why not, when !Available
	// The trusted-input interfaces the realm's probe found.
	TrustedClick, TrustedKeys, PrivilegedFiles bool
}

// ProbeStep names the step of Probe that failed.
type ProbeStep string

// Probe's steps, in order.
const (
	ProbeConnect ProbeStep = "connect" // dialling Firefox's debugger and its greeting
	ProbeVersion ProbeStep = "version" // reading the application's name and version
	ProbeTabs    ProbeStep = "tabs"    // listing the tabs (an empty list fails too, with a nil Err)
	ProbeWatch   ProbeStep = "watch"   // following the chosen tab (its watcher)
	ProbeEval    ProbeStep = "eval"    // reaching its document and evaluating in its page realm
)

// ProbeError is the step at which Probe stopped, and why.
type ProbeError struct {
	Step ProbeStep
	Err  error // nil when Firefox listed no tab
}

func (e *ProbeError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("browser: probe: %s: nothing found", e.Step)
	}
	return fmt.Sprintf("browser: probe: %s: %v", e.Step, e.Err)
}

func (e *ProbeError) Unwrap() error { return e.Err }

// Probe checks what the engine needs of the Firefox at opts.Addr, the way
// a session meets it: it dials, reads the version, picks a tab (see
// ProbeReport.URL), follows it and evaluates in its page realm, then probes
// the isolated realm of its process. It changes nothing in the browser and
// leaves no watcher behind. The error, when not nil, is a *ProbeError; the
// report holds what the steps before it found.
func Probe(ctx context.Context, opts Options) (ProbeReport, error) {
	s := New(opts)
	defer s.Close()
	var r ProbeReport
	c, err := s.dial(ctx)
	if err != nil {
		return r, &ProbeError{Step: ProbeConnect, Err: err}
	}
	s.mu.Lock()
	s.client, s.dialled = c, true // the session's connection from here on
	s.mu.Unlock()
	r.ApplicationType = c.Greeting().ApplicationType
	d, err := c.Describe(ctx)
	if err != nil {
		return r, &ProbeError{Step: ProbeVersion, Err: err}
	}
	r.Firefox = d.String()
	tabs, err := s.tabs(ctx)
	if err != nil || len(tabs) == 0 {
		return r, &ProbeError{Step: ProbeTabs, Err: err}
	}
	tab, ordinary := probeTab(tabs)
	r.URL, r.BrowserPage = tab.URL, !ordinary
	pg, t, perr := s.probePage(ctx, tab)
	if perr != nil {
		if r.BrowserPage {
			return r, nil // a browser page that cannot be evaluated in is a fact, not a failure
		}
		return r, perr
	}
	r.URL, r.PageRealm = t.URL, true
	if _, err := pg.c.ParentProcessConsole(ctx); err != nil {
		r.Chrome = err
		return r, nil
	}
	realm := s.realmFor(ctx, pg, t)
	r.Isolated = IsolatedRealm{Available: realm.ok, Reason: realm.reason,
		TrustedClick: realm.probe.TrustedClick, TrustedKeys: realm.probe.TIP, PrivilegedFiles: realm.probe.MozSetFileArray}
	return r, nil
}

// probeTab picks the tab Probe evaluates in: the active one when it shows
// an ordinary page, else the first that does, else (ordinary false) the
// active one, else the first.
func probeTab(tabs []rdp.Tab) (tab rdp.Tab, ordinary bool) {
	active := activeTab(tabs)
	if active >= 0 && ordinaryTab(tabs[active].URL) {
		return tabs[active], true
	}
	for _, t := range tabs {
		if ordinaryTab(t.URL) {
			return t, true
		}
	}
	if active >= 0 {
		return tabs[active], false
	}
	return tabs[0], false
}

// probePage selects tab, as select_tab does, and evaluates the page-info
// script in its current document's page realm.
func (s *Session) probePage(ctx context.Context, tab rdp.Tab) (page, rdp.Target, *ProbeError) {
	fail := func(step ProbeStep, err error) (page, rdp.Target, *ProbeError) {
		return page{}, rdp.Target{}, &ProbeError{Step: step, Err: err}
	}
	if err := s.lock(ctx); err != nil {
		return fail(ProbeWatch, err)
	}
	defer s.unlock()
	_, terr, _, err := s.use(ctx, tab)
	switch {
	case err != nil:
		step := ProbeWatch
		if _, verdict := AsError(err); verdict {
			step = ProbeEval // the engine's verdict on the page: it does not answer
		}
		return fail(step, err)
	case terr != nil:
		return fail(ProbeEval, terr) // the tab shows no document the debugger can reach
	}
	pg, err := s.selectedTab(ctx)
	var t rdp.Target
	if err == nil {
		t, err = s.current(ctx, pg)
	}
	if err == nil {
		var info pagejs.PageInfoResult
		_, err = s.execOn(ctx, pg, t, PageRealm, pagejs.PageInfo, struct{}{}, &info, nil)
	}
	if err != nil {
		return fail(ProbeEval, err)
	}
	return pg, t, nil
}

// Greeting is what the port at an address says to a debugger client before
// any request (see Greet).
type Greeting struct {
	// Handshake is why the WebSocket handshake failed; nil when it worked.
	Handshake error
	// PlainTCP: the handshake failed and the port speaks the debugger's
	// plain TCP transport (firefox --start-debugger-server PORT, without ws:).
	PlainTCP bool
	// Greeted: the handshake worked and Firefox's greeting came. A
	// WebSocket without a greeting is a Firefox asking on screen whether to
	// allow the connection, a Firefox still starting, or a hung one.
	Greeted bool
}

// Greet knocks at addr the way a debugger client connects, without sending a
// request: the handshake and then the greeting may each take up to wait.
func Greet(ctx context.Context, addr netip.AddrPort, wait time.Duration) Greeting {
	return Greeting(rdp.KnockAt(ctx, addr, wait))
}

// GreetSocket connects to the debugger's Unix socket at path the way a
// debugger client does and waits up to wait for Firefox's greeting,
// sending nothing. err is why the connection failed (its errno tells a
// missing socket from one nothing listens on); greeted is false when the
// connection was made but Firefox stayed silent.
func GreetSocket(ctx context.Context, path string, wait time.Duration) (greeted bool, err error) {
	return rdp.KnockSocket(ctx, path, wait)
}
