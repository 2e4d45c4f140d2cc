package browser

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// realm is what one content process offers for actions: a console in the
// privileged, Xray-isolated realm (rdp-notes §11) and which trusted-input
// APIs work there. ok == false means actions fall back to the page realm,
// and reason says why.
type realm struct {
	ok      bool
	reason  string
	console string
	probe   pagejs.ProbeResult
	// kept: the scripts whose compiled copies the console keeps, as far as
	// the server knows (pagejs.Script.IsolatedCached); guarded by Session.mu.
	kept map[string]bool
}

// Realm says what a script does, which decides where it may run.
type Realm int

const (
	// ReadRealm: reading (snapshots, waits, page info). Runs in the isolated
	// realm when available, where a page cannot fake the results by
	// replacing JSON.stringify or querySelector; else in the page realm,
	// where a lie only makes a later action fail its fingerprint check.
	ReadRealm Realm = iota
	// ActionRealm: acting. The isolated realm when Firefox offers it (trusted
	// input), else the page realm (reported as trusted: false).
	ActionRealm
	// PageRealm: the page realm, always (a step that must run where an
	// earlier one did).
	PageRealm
)

// placement is where one script runs: the realm (ExecInfo), the console
// that evaluates it, and whether the page realm's resident copy is called.
type placement struct {
	ExecInfo
	console  string
	resident bool
	realm    *realm // the isolated realm, when isolated
}

// place is the one decision of where a script runs in document t. The
// isolated realm when Firefox offers it, for actions and (unless
// configured otherwise) for reads; else the page realm, where the scripts
// kept resident (residentScripts) are called through their resident copy
// unless the call is pipelined (evaluated with a sent callback, which the
// resident path does not take).
func (s *Session) place(ctx context.Context, pg page, t rdp.Target, kind Realm, script pagejs.Script, pipelined bool) placement {
	p := placement{console: t.ConsoleActor}
	switch {
	case s.opts.PageRealmOnly:
		p.reason = "the page realm was chosen by configuration"
	case kind == PageRealm, kind == ReadRealm && s.opts.ReadInPageRealm:
	default:
		if r := s.realmFor(ctx, pg, t); r.ok {
			p.isolated, p.console, p.realm = true, r.console, r
		} else {
			p.reason = r.reason
		}
	}
	p.resident = !p.isolated && !pipelined && residentScripts[script.Name()]
	return p
}

// prepareRealm probes, in the background, the isolated realm of document
// t's process (once per process) and has it keep the node binding's script
// compiled (one evaluation that binds nothing: its hand-off key names none),
// so that the first snapshot of a tab just selected waits for neither.
func (s *Session) prepareRealm(pg page, t rdp.Target) {
	if s.opts.PageRealmOnly {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), realmProbeTimeout)
	defer cancel()
	// (probed for actions too, with node binding off)
	if !s.realmFor(ctx, pg, t).ok {
		return
	}
	key := s.bindingPlan(ctx, pg, t)
	if key == "" {
		return
	}
	s.mu.Lock()
	r := s.realms[t.ProcessID]
	kept := r != nil && r.kept[pagejs.BindRefs.Name()]
	s.mu.Unlock()
	if kept {
		return
	}
	var out pagejs.BindRefsResult
	if _, err := s.execOn(ctx, pg, t, ActionRealm, pagejs.BindRefs, pagejs.BindRefsArgs{Key: key}, &out, nil); err != nil {
		s.log.Debug("the node binding's script was not readied", "error", err)
	}
}

// ExecInfo says where a script ran.
type ExecInfo struct {
	isolated bool
	reason   string // why the page realm was used for an action
}

// realmFor probes (once per content process) the isolated realm of t; a
// call while another probes that process waits for its answer.
func (s *Session) realmFor(ctx context.Context, pg page, t rdp.Target) *realm {
	for {
		s.mu.Lock()
		r := s.realms[t.ProcessID]
		wait, busy := s.probing[t.ProcessID]
		if r == nil && !busy {
			done := make(chan struct{})
			s.probing[t.ProcessID] = done
			s.mu.Unlock()
			r = s.probeRealm(ctx, pg, t)
			s.mu.Lock()
			delete(s.probing, t.ProcessID)
			s.mu.Unlock()
			close(done)
			return r
		}
		s.mu.Unlock()
		if r != nil {
			return r
		}
		select {
		case <-wait: // (its answer kept, or a transient failure: probe again)
		case <-ctx.Done():
			return &realm{reason: "the page's process did not answer"}
		}
	}
}

// probeRealm is realmFor's probe, which keeps its answer unless the failure
// was transient.
func (s *Session) probeRealm(ctx context.Context, pg page, t rdp.Target) *realm {
	s.mu.Lock()
	table := s.realms // (a connection lost meanwhile starts a new table: this answer is not for it)
	s.mu.Unlock()
	r := &realm{}
	ctx, cancel := context.WithTimeout(ctx, realmProbeTimeout)
	defer cancel()
	console, err := pg.c.ContentProcessConsole(ctx, t.ProcessID)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, rdp.ErrUnresponsive) || errors.Is(err, rdp.ErrClosed) {
			return &realm{reason: "the page's process did not answer"} // not cached: transient
		}
		r.reason = "Firefox did not offer the content-process console (is devtools.chrome.enabled true?)"
		s.log.Info("isolated realm unavailable", "error", err)
	} else {
		src, err := pagejs.Probe.Isolated(t.InnerWindowID, struct{}{})
		if err == nil {
			var res string
			res, err = pg.c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true, AckTimeout: ackTimeout})
			if err == nil {
				err = pagejs.Decode(res, &r.probe)
			}
		}
		switch {
		case err != nil:
			r.reason = "the isolated realm did not answer its probe"
			s.log.Info("isolated realm probe failed", "error", err)
			var se *pagejs.ScriptError
			if errors.Is(err, rdp.ErrTargetGone) || errors.Is(err, rdp.ErrUnresponsive) || errors.Is(err, rdp.ErrClosed) || ctx.Err() != nil ||
				(errors.As(err, &se) && se.Code == errcode.TargetReplaced) { // (the document probed went meanwhile)
				return &realm{reason: r.reason} // do not cache a transient failure
			}
		case !r.probe.TrustedClick || !r.probe.TIP:
			r.reason = "this Firefox lacks the trusted-input interfaces (dispatchDOMEventViaPresShellForTesting, nsITextInputProcessor)"
		default:
			r.ok, r.console, r.kept = true, console, map[string]bool{}
		}
	}
	s.mu.Lock()
	table[t.ProcessID] = r
	s.mu.Unlock()
	return r
}

// exec runs one page script in the selected tab's current document and
// decodes its result envelope into out.
func (s *Session) exec(ctx context.Context, pg page, kind Realm, script pagejs.Script, args any, out any) (ExecInfo, error) {
	return s.execSent(ctx, pg, kind, script, args, out, nil)
}

// execSent is exec with a callback for when the evaluation request is on
// the wire (see rdp.EvalOptions.Sent).
func (s *Session) execSent(ctx context.Context, pg page, kind Realm, script pagejs.Script, args any, out any, sent func()) (ExecInfo, error) {
	t, err := s.docTarget(ctx, pg)
	if err != nil {
		return ExecInfo{}, err
	}
	return s.execOn(ctx, pg, t, kind, script, args, out, sent)
}

// execOn is execSent in document t (the top document or a frame's).
func (s *Session) execOn(ctx context.Context, pg page, t rdp.Target, kind Realm, script pagejs.Script, args any, out any, sent func()) (ExecInfo, error) {
	start := time.Now()
	p := s.place(ctx, pg, t, kind, script, sent != nil)
	info := p.ExecInfo
	defer func() {
		s.log.Debug("page script", "script", script.Name(), "isolated", info.isolated, "resident", p.resident, "ms", time.Since(start).Milliseconds())
	}()
	var res string
	var err error
	switch {
	case p.resident:
		res, err = s.callResident(ctx, pg, t, p.console, script, args)
	case info.isolated:
		res, err = s.evalIsolated(ctx, pg, t, p.realm, script, args, sent)
	default:
		var src string
		src, err = script.Page(args)
		if err != nil {
			return info, Errorf(errcode.InvalidArguments, "cannot encode the arguments: %v", err)
		}
		res, err = s.evaluate(ctx, pg, p.console, src, evalOpts{sent: sent, pipelined: sent != nil})
	}
	if err != nil {
		return info, err
	}
	if err := pagejs.Decode(res, out); err != nil {
		var se *pagejs.ScriptError
		if errors.As(err, &se) {
			e := scriptError(se)
			if !info.isolated {
				// In the page realm the page can make our script throw
				// whatever it likes: its words go inside markers.
				e.Message = "the page script failed in the page realm (its message, which the page can shape, is below)"
				e.WithPage("Message", se.Message, 500)
			}
			return info, e
		}
		s.log.Warn("undecodable page-script result", "error", err)
		return info, Errorf(errcode.PageScriptFailed, "the page script returned an unreadable result")
	}
	return info, nil
}

// evalIsolated evaluates script with args in the isolated realm r of
// document t: through the copies of the script and lib.js that r's console
// keeps when an earlier evaluation left them there (a few hundred bytes
// sent instead of ≈40 KB, and code the engine compiled already), else
// whole, which leaves them there. A copy found missing (a restarted
// debugger server) is forgotten and the script sent whole. Pipelined
// evaluations (sent != nil) are always sent whole: one found missing could
// not be sent again in its place in the pipeline.
func (s *Session) evalIsolated(ctx context.Context, pg page, t rdp.Target, r *realm, script pagejs.Script, args any, sent func()) (string, error) {
	name := script.Name()
	s.mu.Lock()
	kept := sent == nil && r.kept[name]
	s.mu.Unlock()
	if kept {
		src, err := script.IsolatedCached(t.InnerWindowID, args)
		if err != nil {
			return "", Errorf(errcode.InvalidArguments, "cannot encode the arguments: %v", err)
		}
		res, err := s.evaluate(ctx, pg, r.console, src, evalOpts{})
		if err != nil || !residentMissing(res) {
			return res, err
		}
		s.log.Debug("the isolated realm's copy is gone; evaluating the script whole", "script", name)
		s.mu.Lock()
		delete(r.kept, name)
		s.mu.Unlock()
	}
	src, err := script.Isolated(t.InnerWindowID, args)
	if err != nil {
		return "", Errorf(errcode.InvalidArguments, "cannot encode the arguments: %v", err)
	}
	res, err := s.evaluate(ctx, pg, r.console, src, evalOpts{sent: sent, pipelined: sent != nil})
	s.mu.Lock()
	if s.wholeSent == nil {
		s.wholeSent = map[string]int{}
	}
	s.wholeSent[name]++
	if err == nil {
		// It answered, so it ran its first line, which keeps the copies.
		r.kept[name] = true
	}
	s.mu.Unlock()
	return res, err
}

// Deadlines of the waits on Firefox that a call makes on its way (each also
// bounded by the call's own context).
const (
	// targetWait: for the tab's current document. Between two documents of a
	// navigation the gap is milliseconds; a tab that stays without one
	// (target_gone) shows something the debugger cannot reach.
	targetWait = 5 * time.Second
	// ackTimeout: for a console to acknowledge an evaluation, which it does
	// as soon as its process reads the request. None means the process's
	// main thread is busy (page_unresponsive).
	ackTimeout = 5 * time.Second
	// stuckAck: for a console that did not acknowledge an evaluation within
	// ackTimeout less than stuckFor ago (a page stuck in a script loop, whose
	// process reads nothing): every later call on that page would wait the
	// whole ackTimeout again.
	stuckAck = time.Second
	stuckFor = 30 * time.Second
	// busyProbeAfter: an evaluation acknowledged but without a result for
	// this long (and no dialog) has the page's process probed (see watchPage).
	busyProbeAfter = 4 * time.Second
	// realmProbeTimeout: for finding and probing a process's isolated realm.
	realmProbeTimeout = 5 * time.Second
)

// current returns the selected tab's current document, waiting at most
// targetWait for one (then target_gone or page_unresponsive, see
// noDocument).
func (s *Session) current(ctx context.Context, pg page) (rdp.Target, error) {
	t, err := waitDocument(ctx, pg.c, pg.sel.watch, pg.sel.tab.BrowserID)
	if errors.Is(err, rdp.ErrNoTarget) && ctx.Err() == nil {
		return t, s.noDocument(ctx, pg.c, pg.sel.tab.BrowserID)
	}
	return t, err
}

// ackFor is how long an evaluation on console waits for its
// acknowledgement: ackTimeout, or stuckAck while the console is known stuck
// (it did not acknowledge one within ackTimeout less than stuckFor ago).
func (s *Session) ackFor(console string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if at, ok := s.stuck[console]; ok && time.Since(at) < stuckFor {
		return stuckAck
	}
	return ackTimeout
}

// acked records how a wait of ack for console's acknowledgement ended:
// answered clears the console's mark; no acknowledgement within the full
// ackTimeout marks it stuck. (None within stuckAck leaves the mark as it was,
// so a page that only got slow is waited for in full again once the mark is
// stuckFor old.)
func (s *Session) acked(console string, ack time.Duration, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case answered:
		delete(s.stuck, console)
	case ack == ackTimeout:
		if s.stuck == nil || len(s.stuck) >= 64 {
			s.stuck = map[string]time.Time{} // (a few at most in practice)
		}
		s.stuck[console] = time.Now()
	}
}

// blankEvery: how often a tab without a document is asked whether it shows
// only its initial about:blank (blankTab); blankChecks: how many answers in a
// row that it does end the wait for a document. (A tab just opened with an
// address shows its initial about:blank with no load under way for a moment,
// before its load begins: measured, under 300 ms.)
const (
	blankEvery  = 400 * time.Millisecond
	blankChecks = 3
)

// waitDocument waits, at most targetWait, for the current document of the
// tab that w watches, and is rdp.ErrNoTarget without one. A tab found
// blankChecks times in a row, blankEvery apart, showing only its initial
// about:blank with no load under way (a redirect to file: left it so) will
// not get one by itself: the wait ends then, at about 1.2 s instead of 5. A
// tab that shows about:blank while its load is under way (one just opened on
// a slow site) is waited for until its page is there (interactive), within
// the same bound; past it, the blank document is the answer.
func waitDocument(ctx context.Context, c Connection, w TabWatch, browserID int64) (rdp.Target, error) {
	deadline := time.Now().Add(targetWait)
	blank := 0
	for {
		tctx, cancel := context.WithTimeout(ctx, min(blankEvery, time.Until(deadline)))
		t, err := w.Current(tctx)
		cancel()
		if err == nil && t.URL == "about:blank" {
			return loadedOver(ctx, c, w, browserID, t, deadline), nil
		}
		if !errors.Is(err, rdp.ErrNoTarget) || ctx.Err() != nil || !time.Now().Before(deadline) {
			return t, err
		}
		if d, ok := tabDocument(ctx, c, browserID); ok && d.Initial && !d.Loading {
			blank++
		} else {
			blank = 0
		}
		if blank == blankChecks {
			return t, err
		}
	}
}

// loadedOver returns the document that replaced blank, the about:blank the
// tab shows while its load is under way, once it is interactive, or blank
// when no load is under way (any more) or none came by deadline.
func loadedOver(ctx context.Context, c Connection, w TabWatch, browserID int64, blank rdp.Target, deadline time.Time) rdp.Target {
	after := w.Navigations()
	if d, ok := tabDocument(ctx, c, browserID); !ok || !d.Loading {
		return blank
	}
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for ch := w.Changed(); w.Navigations() == after; ch = w.Changed() {
		select {
		case <-ch:
		case <-wctx.Done():
			return blank
		case <-time.After(blankEvery):
			// (A load that ended with no new document: a download.)
			if d, ok := tabDocument(ctx, c, browserID); !ok || !d.Loading {
				if w.Navigations() == after {
					return blank
				}
			}
		}
	}
	if t, err := w.WaitReady(wctx, "interactive"); err == nil {
		return t
	}
	return blank
}

// tabDocument reads what the tab shows, as the parent process knows it (ok
// false when that cannot be read).
func tabDocument(ctx context.Context, c Connection, browserID int64) (pagejs.TabDocumentResult, bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var r pagejs.TabDocumentResult
	err := chromeOn(ctx, c, pagejs.TabDocument, pagejs.TabArgs{BrowserID: browserID}, &r)
	return r, err == nil && r.Found
}

// noDocument says why a tab has no document the debugger can reach. The
// tab's own address (from the parent process) tells the cases apart: a page
// whose process is stuck in a script never reports its document to a new
// watcher, but the tab still shows its http(s) address; a tab left by a
// redirect to file: or about: shows about:blank.
func (s *Session) noDocument(ctx context.Context, c Connection, browserID int64) *Error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	tab, err := c.GetTab(ctx, browserID)
	if err == nil && tab.URL != "about:blank" && ordinaryTab(tab.URL) {
		return pageUnresponsive()
	}
	return targetGone()
}

// residentScripts are the page-realm scripts kept resident in each document
// (pagejs.Script.PageResident) instead of being sent and compiled on every
// call: those called again and again on one document, with a large source.
var residentScripts = map[string]bool{pagejs.Snapshot.Name(): true}

// resident is one script's resident in one document (selection.residents):
// being installed, installed as the function object actor, or failed (not
// tried again in that document). The zero value is no resident.
type resident struct {
	state residentState
	actor string // the resident function's object actor; only when residentInstalled
	// ready is closed once a pending installation ended (residentPending),
	// which started at since.
	ready chan struct{}
	since time.Time
}

// residentState is where a resident stands; residentNone, the zero value,
// is a script never installed in the document (or forgotten since).
type residentState uint8

const (
	residentNone residentState = iota
	residentPending
	residentInstalled
	residentFailed
)

func (st residentState) String() string {
	switch st {
	case residentNone:
		return "none"
	case residentPending:
		return "pending"
	case residentInstalled:
		return "installed"
	case residentFailed:
		return "failed"
	}
	return "residentState(" + strconv.Itoa(int(st)) + ")"
}

// callResident evaluates script with args in the page realm of the
// document whose console is console: through the document's resident when
// it has one, else as a whole script, with the resident's installation
// sent once its result is back. (Sent right behind the script, the
// installation's compiling, ≈5 ms for the snapshot, ran on the page's main
// thread before the script's result was sent, and before the node binding
// waiting for the walk: a document's first read took that much longer.) A
// resident that disappeared is forgotten and the call made again.
func (s *Session) callResident(ctx context.Context, pg page, t rdp.Target, console string, script pagejs.Script, args any) (string, error) {
	name := script.Name()
	s.mu.Lock()
	sl := residentSlotOf(pg.sel, t)
	s.mu.Unlock()
	if err := s.awaitInstall(ctx, sl, console, name); err != nil {
		return "", err
	}
	for attempt := 0; ; attempt++ {
		s.mu.Lock()
		if *sl.console != console {
			*sl.console, (*sl.residents) = console, map[string]resident{}
		}
		r := (*sl.residents)[name]
		install := r.state == residentNone
		var ready chan struct{}
		if install {
			ready = make(chan struct{})
			(*sl.residents)[name] = resident{state: residentPending, ready: ready, since: time.Now()}
		}
		s.mu.Unlock()
		if r.state != residentInstalled {
			src, err := script.Page(args)
			if err != nil {
				return "", Errorf(errcode.InvalidArguments, "cannot encode the arguments: %v", err)
			}
			res, err := s.evaluate(ctx, pg, console, src, evalOpts{})
			switch {
			case install && err == nil:
				go s.install(pg.c, sl, console, script, ready)
			case install: // nothing to install into
				s.mu.Lock()
				if *sl.console == console && (*sl.residents)[name].ready == ready {
					delete((*sl.residents), name)
				}
				s.mu.Unlock()
				close(ready)
			}
			return res, err
		}
		call, err := script.PageCall(args)
		if err != nil {
			return "", Errorf(errcode.InvalidArguments, "cannot encode the arguments: %v", err)
		}
		res, err := s.evaluate(ctx, pg, console, call, evalOpts{self: r.actor})
		if err != nil || attempt > 0 || !residentMissing(res) {
			return res, err
		}
		s.log.Debug("resident gone; evaluating the script again", "script", name)
		s.mu.Lock()
		if *sl.console == console && (*sl.residents)[name] == r {
			delete((*sl.residents), name)
		}
		s.mu.Unlock()
	}
}

// installWait bounds how long after its start an installation is waited
// for (the snapshot's takes about 5 ms): past it a call evaluates the whole
// script, as one does on a document whose installation failed (a page that
// stopped answering is not waited for on every call).
const installWait = 250 * time.Millisecond

// installGrace is how long a read waits at least for an installation still
// pending (awaitInstall).
const installGrace = 50 * time.Millisecond

// awaitInstall waits while the resident name of the document whose console
// is console is being installed: until installWait after the installation's
// start, and installGrace at least.
func (s *Session) awaitInstall(ctx context.Context, sl residentSlot, console, name string) error {
	s.mu.Lock()
	r := (*sl.residents)[name]
	pending := *sl.console == console && r.state == residentPending && r.ready != nil
	s.mu.Unlock()
	// From the installation's start, which may be early in the document's
	// load, but a pending one is given a moment whatever its age: a page
	// whose load kept its main thread busy delays the installation and this
	// read alike.
	left := max(installWait-time.Since(r.since), installGrace)
	if !pending {
		return nil
	}
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case <-r.ready:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// prepareResident starts installing script's resident in document t, in
// the background, unless it has one: a navigation does so as soon as the
// new document is there (readyNow), while it loads, so that the document's first
// read is a call of the resident (which keeps that walk for the next read)
// rather than the whole script.
func (s *Session) prepareResident(pg page, t rdp.Target, script pagejs.Script) {
	if script.Name() == pagejs.Snapshot.Name() {
		s.prepareMarks(pg, t) // (for the same first read)
	}
	if t.ConsoleActor == "" || s.opts.ReadInIsolatedRealm {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := residentSlotOf(pg.sel, t)
	if *sl.console != t.ConsoleActor {
		*sl.console, (*sl.residents) = t.ConsoleActor, map[string]resident{}
	}
	if (*sl.residents)[script.Name()].state != residentNone {
		return
	}
	ready := make(chan struct{})
	(*sl.residents)[script.Name()] = resident{state: residentPending, ready: ready, since: time.Now()}
	go s.install(pg.c, sl, t.ConsoleActor, script, ready)
}

// install makes script resident in the page realm of the document whose
// console is console, in the background, and records its actor in its
// slot unless the document changed meanwhile (its actors then went with it).
// It closes ready, the pending entry's, when done.
func (s *Session) install(c Connection, sl residentSlot, console string, script pagejs.Script, ready chan struct{}) {
	defer close(ready)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var src string
	var err error
	if script.Name() == pagejs.Snapshot.Name() {
		// (the warm walk starts as the resident is made: see warm)
		src, err = script.PageResidentStarting(s.warmArgs(false))
	} else {
		src, err = script.PageResident()
	}
	actor := ""
	if err == nil {
		// Creating the function runs no page code, and starting the warm
		// walk only asks for idle callbacks and the load event: no dialog
		// holds it back unless the page wrapped those (a read waits for an
		// installation at most installWait).
		actor, err = c.EvaluateObject(ctx, console, src, rdp.EvalOptions{})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if *sl.console != console || (*sl.residents)[script.Name()].ready != ready {
		return
	}
	if err != nil {
		s.log.Info("could not install a resident script; this document's snapshots evaluate it whole", "script", script.Name(), "error", err)
		(*sl.residents)[script.Name()] = resident{state: residentFailed}
		return
	}
	(*sl.residents)[script.Name()] = resident{state: residentInstalled, actor: actor}
	s.installs++
	if script.Name() == pagejs.Snapshot.Name() {
		s.warmAsked++
		go s.warm(c, sl, console, actor)
	}
}

// warmTimeout bounds the wait for a resident's warm walk (it waits for the
// document's load and idle periods; a page never idle leaves it undone).
const warmTimeout = 20 * time.Second

// warmArgs are the arguments of the snapshot resident's warm walk: a read's
// (snapshot_page's default, the deltas'), as execSnapshot sends them,
// without the page text; wait: the call that waits for its result.
func (s *Session) warmArgs(wait bool) pagejs.SnapshotArgs {
	return pagejs.SnapshotArgs{MaxElements: s.opts.MaxElements, Warm: true, Wait: wait}
}

// warm waits for the warm walk of the snapshot resident of the document
// whose console is console (pagejs.SnapshotArgs.Warm), which its
// installation started: soon after the document's load it describes the
// elements a read lists (at most the server's element limit) and, in an
// idle period, walks with a read's arguments, so that the document's first
// read does not wait for that work. The result comes back here and is kept
// as the document's (execSnapshot), held by the resident as the last one it
// issued: a first read names it and is answered "same" when nothing since
// could have changed it, else the resident walks again, reusing the entries
// made. A call that walked the document first leaves the warm walk undone
// (or partly done); a failure costs nothing but that.
func (s *Session) warm(c Connection, sl residentSlot, console, actor string) {
	defer func() {
		s.mu.Lock()
		s.warmAnswers++
		s.mu.Unlock()
	}()
	name := pagejs.Snapshot.Name()
	args := pagejs.SnapshotArgs{MaxElements: s.opts.MaxElements}
	call, err := pagejs.Snapshot.PageCall(s.warmArgs(true))
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), warmTimeout)
	defer cancel()
	res, err := c.EvaluateString(ctx, console, call, rdp.EvalOptions{Await: true, Self: actor})
	var w pagejs.SnapshotWarmResult
	if err == nil {
		err = pagejs.Decode(res, &w)
	}
	if err != nil {
		s.log.Debug("the snapshot's warm walk ended without a result", "error", err)
		return
	}
	s.log.Debug("snapshot warm walk", "state", w.Warm, "entries", w.Entries, "ready", w.Ready)
	if !w.Ready || w.Result == nil || w.Result.Seq <= 0 || w.Result.Same != 0 || w.Result.Base != 0 {
		return
	}
	if w.Frames {
		// (readAll's arguments for a document with frames)
		args.Frames, args.MaxElements = true, min(args.MaxElements, maxRefs)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	by := (*sl.residents)[name]
	// Only where no read kept a result since: the document and its resident
	// are the ones asked.
	if k := sl.kept; *sl.console != console || by.state != residentInstalled || by.actor != actor ||
		(k.seq != 0 && k.console == console && k.by == by) {
		return
	}
	*sl.kept = keptSnapshot{console: console, by: by, seq: w.Result.Seq, args: keepArgs(args), res: *w.Result}
	s.warmKept++
}

// residentMissing reports whether res is the envelope of a resident call
// that found no resident bound.
func residentMissing(res string) bool {
	if len(res) > 200 || !strings.Contains(res, string(errcode.ResidentMissing)) {
		return false
	}
	var se *pagejs.ScriptError
	return errors.As(pagejs.Decode(res, nil), &se) && se.Code == errcode.ResidentMissing
}

// scriptError maps a page script's error envelope to a tool error
// (errcode.FromScript: anything not ours is page_script_failed).
func scriptError(se *pagejs.ScriptError) *Error {
	return &Error{Code: errcode.FromScript(se.Code), Message: escape(Truncate(se.Message, 500))}
}

// Dialog watch: an alert(), confirm() or prompt() holds back the result of
// the evaluation that raised it, and RDP announces nothing. When an
// evaluation is slow, ask the browser chrome whether the tab shows a dialog
// and, if so, give up on the evaluation with dialog_open.
const (
	dialogFirstCheck = 400 * time.Millisecond
	dialogRecheck    = 500 * time.Millisecond
)

// evalOpts tune evaluate.
type evalOpts struct {
	self string // an object actor bound as _self (a resident)
	sent func() // called once the request is on the wire
	// pipelined evaluations (upload chunks) queue behind each other, so they
	// are slow by design, and they run no page code that could open a
	// dialog: watching for one would only add work for Firefox.
	pipelined bool
}

// evaluate evaluates src on console, watching for a dialog that holds it
// back or a page that stopped answering, unless o.pipelined.
func (s *Session) evaluate(ctx context.Context, pg page, console, src string, o evalOpts) (string, error) {
	if o.pipelined {
		return pg.c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true, Sent: o.sent})
	}
	ectx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan struct{})
	defer close(done)
	go s.watchPage(ectx, pg, done, cancel)
	ack := s.ackFor(console)
	res, err := pg.c.EvaluateString(ectx, console, src, rdp.EvalOptions{Await: true, Self: o.self, Sent: o.sent, AckTimeout: ack})
	if err == nil || errors.Is(err, rdp.ErrUnresponsive) {
		s.acked(console, ack, err == nil)
	}
	if err != nil {
		var de *Error
		if errors.As(context.Cause(ectx), &de) {
			return "", de
		}
	}
	return res, err
}

// watchPage runs beside a pending evaluation until done is closed. A
// dialog (alert, confirm, prompt, beforeunload) holds the evaluation's
// result back, and RDP announces none: when the evaluation is slow, ask the
// browser chrome whether the tab shows one, and if so stop the evaluation
// with dialog_open. An evaluation acknowledged but still running after
// busyProbeAfter with no dialog has the page's process probed: no answer
// stops it with page_unresponsive (a page handler stuck in a loop). A tab
// that stays without a document for targetWait (a navigation that ended
// somewhere the debugger cannot reach) stops it with target_gone.
func (s *Session) watchPage(ctx context.Context, pg page, done <-chan struct{}, stop context.CancelCauseFunc) {
	start := time.Now()
	timer := time.NewTimer(dialogFirstCheck)
	defer timer.Stop()
	probed := time.Time{}
	var noTarget time.Time // since when the tab has had no document
	// The selection's watch is dropped (set to nil, under mu) when the
	// connection fails meanwhile: keep the one this evaluation began with.
	s.mu.Lock()
	w := pg.sel.watch
	s.mu.Unlock()
	if w == nil {
		return // no connection any more: the evaluation fails on its own
	}
	for {
		select {
		case <-done:
			return
		case <-timer.C:
		}
		switch {
		case w.HasTarget():
			noTarget = time.Time{}
		case noTarget.IsZero():
			noTarget = time.Now()
		case time.Since(noTarget) >= targetWait:
			stop(s.noDocument(ctx, pg.c, pg.sel.tab.BrowserID))
			return
		}
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
		st, err := s.dialog(cctx, pg)
		ccancel()
		switch {
		case err == nil && st.Open && st.Ready:
			stop(dialogError(st))
			return
		case err == nil && st.Open: // still being built: look again soon
			timer.Reset(50 * time.Millisecond)
			continue
		}
		if time.Since(start) >= busyProbeAfter && time.Since(probed) >= busyProbeAfter {
			probed = time.Now()
			if !s.answers(ctx, pg) {
				stop(pageUnresponsive())
				return
			}
		}
		timer.Reset(dialogRecheck)
	}
}

// answers reports whether the selected tab's page process still reads
// requests: a tiny evaluation in its page realm must be acknowledged.
func (s *Session) answers(ctx context.Context, pg page) bool {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	t, err := pg.sel.watch.Current(ctx)
	if err != nil {
		return true // no document: not this check's business
	}
	src, err := pagejs.PageInfo.Page(struct{}{})
	if err != nil {
		return true
	}
	_, err = pg.c.EvaluateString(ctx, t.ConsoleActor, src, rdp.EvalOptions{AckTimeout: 2 * time.Second})
	return !errors.Is(err, rdp.ErrUnresponsive)
}

func dialogError(st pagejs.DialogStateResult) *Error {
	kind := dialogKind(st.Type)
	what := "the page shows " + DialogName(kind) + " dialog (its text is below)"
	if kind == "beforeunload" {
		what = "the page asks to confirm leaving it (a beforeunload prompt; its text is below)"
	}
	return (&Error{
		Code:       errcode.DialogOpen,
		Message:    what + "; answer it with handle_dialog " + DialogHow(kind) + ", then repeat this call",
		Details:    map[string]any{"dialog": map[string]any{"type": kind}},
		dialogText: PageStrN(st.Text, 2000),
	}).WithPage("Dialog text", st.Text, 1000)
}

// dialogKind names a dialog type in the server's own words: the chrome
// script reports Firefox's prompt type, and anything unexpected is
// "unknown".
func dialogKind(t string) string {
	switch t {
	case "alert", "confirm", "prompt", "beforeunload":
		return t
	}
	return "unknown"
}

// dialog asks the parent process whether the selected tab shows a dialog.
func (s *Session) dialog(ctx context.Context, pg page) (pagejs.DialogStateResult, error) {
	var st pagejs.DialogStateResult
	err := s.chrome(ctx, pg, pagejs.DialogState, pagejs.DialogStateArgs{BrowserID: pg.sel.tab.BrowserID}, &st)
	return st, err
}

// readyDialog is dialog, waiting (briefly) for a dialog that is still being
// built to become ready.
func (s *Session) readyDialog(ctx context.Context, pg page) (pagejs.DialogStateResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for {
		st, err := s.dialog(ctx, pg)
		if err != nil || !st.Open || st.Ready {
			return st, err
		}
		if err := Sleep(ctx, 50*time.Millisecond); err != nil {
			return st, nil
		}
	}
}

// chrome runs a browser-chrome script in the parent process.
func (s *Session) chrome(ctx context.Context, pg page, script pagejs.Script, args, out any) error {
	return chromeOn(ctx, pg.c, script, args, out)
}

// chromeOn runs a browser-chrome script in the parent process over c.
func chromeOn(ctx context.Context, c Connection, script pagejs.Script, args, out any) error {
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return err
	}
	src, err := script.Chrome(args)
	if err != nil {
		return err
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	if err != nil {
		return err
	}
	if err := pagejs.Decode(res, out); err != nil {
		var se *pagejs.ScriptError
		if errors.As(err, &se) {
			return scriptError(se)
		}
		return err
	}
	return nil
}
