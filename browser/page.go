package browser

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// snapshot reads the page. It walks the DOM in the page realm first, which
// is much faster than walking it through Xray wrappers (measured on the
// 3,000-element fixture with its text, per call: ≈100 ms against ≈215 ms,
// ≈72 ms resident: see callResident). The page
// can lie there, but a lie only makes a later action fail its fingerprint
// check in the isolated realm. A page that breaks the walk outright (say, by
// replacing JSON.stringify) gets it redone in the isolated realm. same
// reports the resident's {same} answer (r is the kept result).
func (s *Session) snapshot(ctx context.Context, pg page, args pagejs.SnapshotArgs) (r pagejs.SnapshotResult, same bool, err error) {
	kind := PageRealm
	if s.opts.ReadInIsolatedRealm {
		kind = ReadRealm
	}
	same, err = s.execSnapshot(ctx, pg, kind, args, &r)
	// A page that does not answer or a tab without a document is no better
	// in the isolated realm: those errors stand.
	stands := errors.Is(err, rdp.ErrUnresponsive) || errors.Is(err, rdp.ErrNoTarget) || errors.Is(err, rdp.ErrTabClosed)
	if kind == PageRealm && !s.opts.PageRealmOnly && ctx.Err() == nil && !stands && (err != nil || r.Elements == nil || r.URL == "") {
		if e, ok := AsError(err); !ok || e.Code == errcode.PageScriptFailed || e.Code == errcode.InvalidSelector {
			s.log.Info("page-realm snapshot unusable; reading through the isolated realm", "error", err)
			r, same = pagejs.SnapshotResult{}, false
			_, err = s.exec(ctx, pg, ReadRealm, pagejs.Snapshot, args, &r)
		}
	}
	if err == nil && r.Elements == nil {
		err = Errorf(errcode.PageScriptFailed, "the page returned an unreadable snapshot")
	}
	return r, same, err
}

// elementLine renders one element compactly: [ref] role "name" states.
func elementLine(ref string, e *pagejs.Element) string {
	return "[" + ref + "] " + elementBody(e)
}

// elementBody is an element's line without "[ref] ".
func elementBody(e *pagejs.Element) string {
	var b strings.Builder
	role := e.Role
	switch {
	case role != "":
	case e.Kind == "clickable":
		role = e.Kind
	case e.Tag == "input" && e.Type == "file":
		role = "file"
	case e.Tag == "input" && e.Type != "":
		role = e.Type
	default:
		role = e.Tag
	}
	b.WriteString(role)
	if e.Name != "" {
		b.WriteString(" " + Quote(e.Name, 80))
	}
	if e.Value != nil && *e.Value != "" {
		b.WriteString(" value=" + Quote(*e.Value, 60))
	}
	flag := func(on bool, s string) {
		if on {
			b.WriteString(" " + s)
		}
	}
	flag(e.Checked != nil && *e.Checked, "checked")
	flag(e.Mixed, "mixed")
	flag(e.Selected != nil && *e.Selected, "selected")
	flag(e.Expanded != nil, map[bool]string{true: "expanded", false: "collapsed"}[e.Expanded != nil && *e.Expanded])
	flag(e.Disabled, "disabled")
	flag(e.Readonly, "readonly")
	flag(e.Required, "required")
	flag(e.Multiple, "multiple")
	flag(e.Invalid, "invalid")
	flag(e.Level > 0, "level="+strconv.Itoa(e.Level))
	flag(e.Drag != "", e.Drag)
	if e.Error != "" {
		b.WriteString(" error=" + Quote(e.Error, 100))
	}
	if e.Accept != "" {
		b.WriteString(" accept=" + Quote(e.Accept, 60))
	}
	if e.Href != "" {
		b.WriteString(" → " + linkTarget(e.Href))
	}
	return b.String()
}

// linkTarget shows where a link goes, compactly: the snapshot's href is
// already origin-relative for the page's own origin. Tracking parameters
// (utm_*, ref, trk, fbclid, …) are left out: they do not tell two
// destinations apart (the fingerprint keeps the whole target). Plain URLs
// are shown bare; anything with spaces, quotes or control characters is
// quoted.
func linkTarget(href string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		href = href[:i] + dropTracking(href[i:])
	}
	for i := 0; i < len(href); i++ {
		if c := href[i]; c <= ' ' || c == '"' || c == '\\' || c >= 0x7f {
			return Quote(href, 120)
		}
	}
	return Truncate(href, 120)
}

// dropTracking removes tracking parameters from "?query#fragment".
func dropTracking(q string) string {
	frag := ""
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q, frag = q[:i], q[i:]
	}
	var kept []string
	for _, p := range strings.Split(strings.TrimPrefix(q, "?"), "&") {
		name, _, _ := strings.Cut(p, "=")
		if p == "" || trackingParam(strings.ToLower(name)) {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return frag
	}
	return "?" + strings.Join(kept, "&") + frag
}

func trackingParam(name string) bool {
	switch name {
	case "ref", "ref_src", "refid", "trk", "trkinfo", "trackingid", "fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid", "mc_eid", "_hsenc", "_hsmi":
		return true
	}
	return strings.HasPrefix(name, "utm_")
}

// target resolves a ref of the selected tab's current generation.
func (s *Session) target(pg page, ref string) (*Locator, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.refs.lookup(ref)
	if err != nil {
		return nil, err
	}
	if l.generation != pg.generation || l.browserID != pg.sel.tab.BrowserID {
		return nil, Errorf(errcode.StaleElement, "%s is from an earlier state of the page; take a new snapshot", ref)
	}
	return l, nil
}

// after reports, once an action ran, where the page is and whether it
// navigated (which starts a new generation: refs stop working).
func (s *Session) after(ctx context.Context, pg page, before string) (urlNow string, navigated bool) {
	return s.afterSeen(ctx, pg, before, "")
}

// afterSeen is after given the URL the document showed a moment ago (seen,
// read in the realm after would read it in; "": unknown), which stands when
// the document did not change since.
func (s *Session) afterSeen(ctx context.Context, pg page, before, seen string) (urlNow string, navigated bool) {
	if pg.frame != nil {
		return s.frameAfter(ctx, pg)
	}
	navigated = s.sync(pg.sel)
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var info pagejs.PageInfoResult
	if seen != "" && !navigated {
		urlNow = seen
	} else if _, err := s.exec(cctx, pg, ReadRealm, pagejs.PageInfo, struct{}{}, &info); err == nil {
		urlNow = info.URL
	} else if t, err := pg.sel.watch.Current(cctx); err == nil {
		urlNow = t.URL
	}
	// A URL changed in the same document (history.pushState, replaceState,
	// a fragment) is no navigation: the nodes are the same, and so are
	// their refs. Only a new document starts a new generation.
	if !navigated {
		navigated = s.sync(pg.sel)
	}
	return urlNow, navigated
}

// navigationGeneration starts a new generation once a navigation (by url
// or history) was asked for: refs die with the old page state, whatever
// happens next.
func (s *Session) navigationGeneration(pg page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == pg.sel {
		s.newGenerationLocked()
		pg.sel.navs = pg.sel.watch.Navigations()
	}
}

// settledGeneration takes in the navigations the watch saw during a
// navigation (the generation it started already covers them) and returns
// the current generation.
func (s *Session) settledGeneration(pg page) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == pg.sel {
		s.syncLocked(pg.sel)
		pg.sel.navs = pg.sel.watch.Navigations()
	}
	return s.generation
}

// startNavigation asks the selected tab to load u and returns the
// navigation count from before. The request goes to the current document's
// target; if that document is replaced before the request lands (a load
// already under way, which may pass through more than one document: a
// fresh Firefox still loading its start page), it goes to the new one, at
// most navigateTries times in all (loading a URL twice is harmless). A tab
// with no document the debugger can reach is loaded from
// the parent process instead; a target that does not answer is a page stuck
// in a script.
func (s *Session) startNavigation(ctx context.Context, pg page, u *url.URL) (from navStart, sameDoc bool, err error) {
	for attempt := 0; ; attempt++ {
		t, err := s.current(ctx, pg)
		if e, ok := AsError(err); ok && e.Code == errcode.TargetGone && ctx.Err() == nil {
			// No document to ask: load the URL from the parent process.
			from = navStart{before: pg.sel.watch.Navigations()}
			cctx, cancel := context.WithTimeout(ctx, ackTimeout)
			defer cancel()
			var r pagejs.TabResult
			err := s.chrome(cctx, pg, pagejs.TabNavigate, pagejs.TabNavigateArgs{BrowserID: pg.sel.tab.BrowserID, URL: u.String()}, &r)
			return from, false, err
		}
		if err != nil {
			return navStart{}, false, err
		}
		from = navStart{before: pg.sel.watch.Navigations(), prev: t.InnerWindowID}
		sameDoc = sameDocument(s.docURL(ctx, pg, t, u), u)
		ack := s.ackFor(t.ConsoleActor) // (the document's process reads both)
		rctx, cancel := context.WithTimeout(ctx, ack)
		err = pg.c.Request(rctx, t.Actor, map[string]any{"type": "navigateTo", "url": u.String()}, nil)
		cancel()
		if err == nil {
			s.acked(t.ConsoleActor, ack, true)
			return from, sameDoc, nil
		}
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			s.acked(t.ConsoleActor, ack, false)
			return navStart{}, false, pageUnresponsive()
		}
		if e, ok := AsError(s.Classify(ctx, err)); attempt+1 >= navigateTries || !ok || e.Code != errcode.TargetReplaced {
			return navStart{}, false, err
		}
	}
}

// navigateTries bounds how often startNavigation sends its request.
const navigateTries = 4

// navStart is where a navigation started: the watch's navigation count and
// the document being replaced (its inner window, 0 when unknown), read
// before it was asked for.
type navStart struct {
	before uint64
	prev   int64
}

// navStartNow reads where a navigation about to be asked for starts.
func navStartNow(ctx context.Context, w TabWatch) navStart {
	from := navStart{before: w.Navigations()}
	if w.HasTarget() {
		if t, err := w.Current(ctx); err == nil {
			from.prev = t.InnerWindowID
		}
	}
	return from
}

// waitNavigation waits (up to timeout) for the navigation started after
// the count before to reach wait ("dom" or "complete"), while watching for a
// dialog that blocks the page (an alert while loading, a beforeunload
// prompt) and for a page that stopped answering: either ends the wait at
// once with dialog_open or page_unresponsive.
func (s *Session) waitNavigation(ctx context.Context, pg page, u *url.URL, from navStart, sameDoc bool, wait string, timeout time.Duration) (loaded, error) {
	wctx, cancel := context.WithTimeoutCause(ctx, timeout, errNavigationTimeout)
	defer cancel()
	sctx, stop := context.WithCancelCause(wctx)
	defer stop(nil)
	done := make(chan struct{})
	defer close(done)
	go s.watchPage(sctx, pg, done, stop)
	var t loaded
	var err error
	if sameDoc {
		t.URL, err = s.pollURL(sctx, pg, u.String())
	} else {
		state := map[string]string{"dom": "interactive", "complete": "complete"}[wait]
		t, err = s.waitLoaded(sctx, pg, from, u.String(), state)
	}
	if err == nil {
		return t, nil
	}
	var e *Error
	switch {
	case ctx.Err() != nil:
		return t, ctx.Err()
	case errors.As(context.Cause(sctx), &e):
		return t, e
	case wctx.Err() != nil:
		return t, Errorf(errcode.NavigationTimeout, "the page did not become %s within %v; it may still be loading (check with wait_for or snapshot_page)", wait, timeout)
	}
	return t, err
}

var errNavigationTimeout = errors.New("navigation timeout")

// loadState reads how the navigation ended: Firefox's error page for a load
// that failed is navigation_failed, with the reason it gives. read is the
// state the wait read from the document it ended on, if it did (then it is
// not read again).
func (s *Session) loadState(ctx context.Context, pg page, read *pagejs.LoadStateResult) (pagejs.LoadStateResult, error) {
	var r pagejs.LoadStateResult
	if read != nil {
		r = *read
	} else {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if _, err := s.exec(cctx, pg, ReadRealm, pagejs.LoadState, pagejs.LoadStateArgs{}, &r); err != nil {
			if e, ok := AsError(err); ok && e.Code == errcode.DialogOpen {
				return r, e
			}
			s.log.Debug("load state unavailable", "error", err)
			return pagejs.LoadStateResult{}, nil // the navigation itself succeeded
		}
	}
	if reason, failed := loadFailure(r.DocumentURI); failed {
		return r, Errorf(errcode.NavigationFailed, "Firefox could not load the address (below): %s. The tab shows Firefox's error page", reason).WithPage("URL", r.URL, 300)
	}
	return r, nil
}

// netErrors are the reasons Firefox names in an error page's address
// (about:neterror?e=<code>&u=…), in words.
var netErrors = map[string]string{
	"connectionFailure":       "the connection was refused (nothing listens at that address)",
	"netTimeout":              "the connection timed out",
	"dnsNotFound":             "the server's name could not be resolved",
	"netReset":                "the connection was reset",
	"netInterrupt":            "the connection was interrupted",
	"netOffline":              "Firefox is offline",
	"deniedPortAccess":        "Firefox blocks that port",
	"malformedURI":            "the address is not valid",
	"unknownProtocolFound":    "the protocol is not known",
	"redirectLoop":            "the page redirects in a loop",
	"unknownSocketType":       "the server did not answer as expected",
	"proxyConnectFailure":     "the proxy refused the connection",
	"proxyResolveFailure":     "the proxy could not be found",
	"nssFailure2":             "the secure connection failed",
	"nssBadCert":              "the server's certificate is not trusted",
	"contentEncodingError":    "the page's content encoding is broken",
	"corruptedContentErrorv2": "Firefox refused the response as corrupted (it does so for a redirect to a scheme web pages may not reach, such as file: or about:)",
	"httpErrorPage":           "the server answered with an error",
	"blockedByPolicy":         "an enterprise policy blocks the page",
}

// loadFailure reports whether documentURI is one of Firefox's error pages,
// and the reason it names.
func loadFailure(documentURI string) (string, bool) {
	u, err := url.Parse(documentURI)
	if err != nil || u.Scheme != "about" {
		return "", false
	}
	switch u.Opaque {
	case "neterror", "certerror", "blocked":
	default:
		return "", false
	}
	code := u.Query().Get("e")
	if r, ok := netErrors[code]; ok {
		return r, true
	}
	if u.Opaque == "certerror" {
		return "the server's certificate is not trusted", true
	}
	if u.Opaque == "blocked" {
		return "Firefox blocked the page", true
	}
	if ok, _ := regexp.MatchString(`^[A-Za-z0-9]{1,40}$`, code); ok {
		return "Firefox reports " + code, true
	}
	return "Firefox shows an error page", true
}

// docURL is the URL of the document of target t, for sameDocument: as the
// document has it when u has a fragment (the page may have changed its URL
// since it loaded: pushState), else as Firefox reported it at its load.
func (s *Session) docURL(ctx context.Context, pg page, t rdp.Target, u *url.URL) string {
	if u.Fragment == "" && u.RawFragment == "" {
		return t.URL
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var info pagejs.PageInfoResult
	if _, err := s.exec(cctx, pg, ReadRealm, pagejs.PageInfo, struct{}{}, &info); err != nil || info.URL == "" {
		return t.URL
	}
	return info.URL
}

// sameDocument reports whether going to u from current only changes the
// fragment, which loads no new document.
func sameDocument(current string, u *url.URL) bool {
	cu, err := url.Parse(current)
	if err != nil || u.Fragment == "" && u.RawFragment == "" {
		return false
	}
	return canonicalURL(cu, false) == canonicalURL(u, false)
}

// redirectGrace is how long a navigation that ended on another URL than
// the one requested waits for one more navigation: a load that was already
// under way ends first, and ours follows; a redirect has nothing after it.
const redirectGrace = 500 * time.Millisecond

// loaded is the document a navigation ended on, and its load state when the
// wait read it there (nil: the watcher reported the state first).
type loaded struct {
	rdp.Target
	state *pagejs.LoadStateResult
}

// waitLoaded waits for the navigation that started at from to reach state,
// and for the document at want, or at its redirect target.
func (s *Session) waitLoaded(ctx context.Context, pg page, from navStart, want, state string) (loaded, error) {
	w := pg.sel.watch
	before, prev := from.before, from.prev // prev: the document being replaced, which readyNow must not take
	for {
		if err := waitNavigated(ctx, w, before); err != nil {
			return loaded{}, err
		}
		t, err := s.readyNow(ctx, pg, state, prev)
		if err != nil || sameURL(t.URL, want) {
			return t, err
		}
		before = w.Navigations()
		gctx, cancel := context.WithTimeout(ctx, redirectGrace)
		err = waitNavigated(gctx, w, before)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return loaded{}, ctx.Err()
			}
			return t, nil // nothing followed: a redirect
		}
	}
}

// readyPoll is how long readyNow waits before looking again when a look at
// the new document failed; readyWait, how long one look waits in the
// document for it to get ready (below the first dialog check, so that a
// document loading slowly does not look like one held by a dialog).
const (
	readyPoll = 10 * time.Millisecond
	readyWait = 300 * time.Millisecond
)

// readyNow waits until the tab's document (a new one: not prev) reached
// state ("interactive" or "complete"). Firefox reports the document's events
// in batches, up to 100 ms after they happen (measured: a page complete
// 34–75 ms after the request was reported at 126–161 ms), so the report is
// raced with a look at the document's own readyState, made as soon as the
// new document is there, which waits in it for its readystatechange (at
// most readyWait a look).
func (s *Session) readyNow(ctx context.Context, pg page, state string, prev int64) (loaded, error) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type ready struct {
		t   loaded
		err error
	}
	ch := make(chan ready, 2)
	go func() {
		// The document being replaced may be reported ready late (Firefox
		// batches its events), after the navigation began: that is not
		// the new one.
		for {
			changed := pg.sel.watch.Changed()
			t, err := pg.sel.watch.WaitReady(rctx, state)
			if err != nil || prev == 0 || t.InnerWindowID != prev {
				ch <- ready{loaded{Target: t}, err}
				return
			}
			select {
			case <-changed:
			case <-rctx.Done():
				ch <- ready{err: rctx.Err()}
				return
			}
		}
	}()
	go func() {
		w := pg.sel.watch
		for rctx.Err() == nil {
			changed := w.Changed()
			t, err := w.Current(rctx)
			if err != nil || t.InnerWindowID == prev {
				// No new document yet: the watch says when one comes (a
				// failed look is tried again after readyPoll).
				pause := time.NewTimer(readyPoll)
				select {
				case <-changed:
				case <-pause.C:
				case <-rctx.Done():
				}
				pause.Stop()
				continue
			}
			// The new document is there: its snapshot resident is compiled
			// while it loads, not after (≈5 ms of its main thread, and as
			// much again waiting behind the load), so that its first read
			// finds it.
			s.prepareResident(pg, t, pagejs.Snapshot)
			var r pagejs.LoadStateResult
			args := pagejs.LoadStateArgs{Until: state, WaitMS: int(readyWait.Milliseconds())}
			if _, err := s.execOn(rctx, pg, t, ReadRealm, pagejs.LoadState, args, &r, nil); err == nil &&
				(r.ReadyState == "complete" || state == "interactive" && r.ReadyState == "interactive") {
				t.URL, t.Title = r.URL, r.Title
				ch <- ready{loaded{t, &r}, nil}
				return
			} else if err != nil {
				Sleep(rctx, readyPoll) // (a document going away, say)
			}
		}
	}()
	r := <-ch
	return r.t, r.err
}

// waitNavigated waits until w counts a navigation past before, woken by
// the watch's change notification, until ctx ends.
func waitNavigated(ctx context.Context, w TabWatch, before uint64) error {
	for ch := w.Changed(); w.Navigations() == before; ch = w.Changed() {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// pollURL waits until the document's URL is want (sameURL), and returns it
// as the document reports it: a move within the document loads nothing to
// be told of.
func (s *Session) pollURL(ctx context.Context, pg page, want string) (string, error) {
	for {
		var info pagejs.PageInfoResult
		if _, err := s.exec(ctx, pg, ReadRealm, pagejs.PageInfo, struct{}{}, &info); err == nil && sameURL(info.URL, want) {
			return info.URL, nil
		}
		if err := Sleep(ctx, 30*time.Millisecond); err != nil {
			return "", err
		}
	}
}

// checkCondition checks a wait_for condition once, in the document and its
// frames, giving up at deadline. r is nil when the check could not be made
// for a reason worth polling on: cut short by the deadline, or the
// document briefly unavailable mid-navigation.
func (s *Session) checkCondition(ctx context.Context, pg page, args pagejs.WaitForArgs, deadline time.Time) (*pagejs.WaitForResult, error) {
	var r pagejs.WaitForResult
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	// A dialog blocks the page: whatever the page shows, the condition
	// is not what the agent waits for, and polling cannot change that. The
	// browser is asked while the page is checked (two processes: one
	// answer's time, not two); a dialog ends the check.
	dialog := make(chan error, 1)
	go func() { dialog <- s.noDialog(ctx, pg) }()
	checked := make(chan error, 1)
	go func() {
		_, err := s.exec(pctx, pg, ReadRealm, pagejs.WaitFor, args, &r)
		checked <- err
	}()
	var err error
	select {
	case derr := <-dialog:
		if derr != nil && ctx.Err() == nil {
			cancel()
			<-checked
			return nil, derr
		}
		err = <-checked
	case err = <-checked:
		if derr := <-dialog; derr != nil && ctx.Err() == nil {
			return nil, derr
		}
	}
	if err == nil {
		r.Met = s.waitFrames(pctx, pg, args, r.Met)
		return &r, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		if e, ok := AsError(s.Classify(ctx, err)); !ok || (e.Code != errcode.TargetReplaced && e.Code != errcode.PageScriptFailed) {
			return nil, err
		}
	}
	return nil, nil
}

// noDialog returns dialog_open when the selected tab shows a dialog; a
// check that cannot be made is not an error (the next step will tell).
func (s *Session) noDialog(ctx context.Context, pg page) error {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	st, err := s.readyDialog(cctx, pg)
	if err == nil && st.Open {
		return dialogError(st)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// UTF16Len counts UTF-16 code units, the unit page scripts measure text in.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
