package browser

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// An Op is one tool call's hold on the selected tab: the document it works
// in (the top one, or the frame of the ref it acts on) and, for an element
// action, that ref's locator. An Op from Page, Acting or Viewing holds the
// page-operation lock until Release: calls that touch the page run one at
// a time, in arrival order. Every method runs under that hold.
type Op struct {
	s     *Session
	pg    page
	l     *Locator
	end   func()    // gives the lock back; nil when none is held
	began time.Time // when the call had its hold (the lock, when it takes one), before it acted
	// at is the point ReachFrame found the documents above the frame leave
	// uncovered (nil: none); covered and depth are its last check's (reachUp).
	at      *pagejs.Point
	covered bool
	depth   int
	// entry: the Op ran a text entry (fill, type_text, press_key in a text
	// field), whose settle waits for the timers it set (pagejs
	// SettleArgs.Entry).
	entry bool
	// unchanged: its last script was a click, a hover or a key pressed on no
	// text field that changed nothing while it was dispatched, whose settle
	// waits for the timers it set while the page still shows no change
	// (pagejs SettleArgs.Unchanged).
	unchanged bool
	// window is the tab's top document (its inner window) when the Op took
	// hold, 0 when it had none: an action that navigated waits for another.
	window int64
	// downloads: the action may start a download without Firefox announcing
	// a load (a click or key on <a download> with a Blob or data: URL): its
	// end asks the download manager (downloads.go). A load Firefox announced
	// is looked at after every action.
	downloads bool
	// confirmedVia: the user allowed the last guarded gesture (Guard), in
	// the window (ConfirmedInWindow) or the MCP client
	// (ConfirmedInClient); "" when not.
	confirmedVia string
}

// DefaultSettleCap is the longest an action waits for the page to be quiet
// by default (click's wait_after_ms default).
const DefaultSettleCap = defaultSettleCap

// Page takes the page-operation lock and the selected tab for a page tool.
// It fails with dialog_open while a dialog one of the server's actions
// opened is still up.
func (s *Session) Page(ctx context.Context) (*Op, error) {
	return s.hold(ctx, true, s.selected)
}

// Viewing is Page for a tool that only looks (screenshot): it works while a
// dialog is open, since it runs nothing under it that acts.
func (s *Session) Viewing(ctx context.Context) (*Op, error) {
	return s.hold(ctx, true, s.selectedTab)
}

// Watching is the selected tab without the page-operation lock, for tools
// that read the tab's buffers or answer its dialog while another call may
// hold the lock (console_messages, network_requests, handle_dialog).
func (s *Session) Watching(ctx context.Context) (*Op, error) {
	return s.hold(ctx, false, s.selectedTab)
}

// Acting is Page followed by Use(ref): an element action's hold.
func (s *Session) Acting(ctx context.Context, ref string) (*Op, error) {
	o, err := s.Page(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := o.Use(ref); err != nil {
		o.Release()
		return nil, err
	}
	return o, nil
}

func (s *Session) hold(ctx context.Context, lock bool, sel func(context.Context) (page, error)) (*Op, error) {
	o := &Op{s: s}
	if lock {
		if err := s.lock(ctx); err != nil {
			return nil, err
		}
		o.end = s.unlock
	}
	o.began = time.Now()
	pg, err := sel(ctx)
	if err != nil {
		o.Release()
		return nil, err
	}
	o.pg = pg
	if pg.sel.watch.HasTarget() {
		if t, err := pg.sel.watch.Current(ctx); err == nil {
			o.window = t.InnerWindowID
		}
	}
	return o, nil
}

// Release gives the page-operation lock back (once).
func (o *Op) Release() {
	if o.end != nil {
		o.end()
		o.end = nil
	}
}

// Use resolves ref in the selected tab's current generation and makes it
// the Op's element: what follows runs in the document (top or frame) it is
// in. A ref of an earlier page state is stale_element.
func (o *Op) Use(ref string) (*Locator, error) {
	l, err := o.s.target(o.pg, ref)
	if err != nil {
		return nil, err
	}
	o.l, o.pg = l, inFrame(o.pg, l)
	return l, nil
}

// Reach is what ReachFrame checks in the documents above a frame.
type Reach uint8

const (
	// ReachKeys: that the frame element is not inert (actions that type, set
	// values or assign files, which hit-test nothing in their own document
	// either).
	ReachKeys Reach = iota
	// ReachPointer: that, and that the documents leave the frame uncovered
	// at a point the pointer could use on the Op's element (click, hover,
	// drag's source), as a user's click would reach whatever covers it.
	ReachPointer
)

// ReachFrame refuses an action on the Op's element when it is in a frame
// that users cannot reach there from the documents that hold it: its frame
// element inert (behind that document's modal dialog, in an inert region),
// as the element would be in its own document, or, with ReachPointer,
// covered at every point of the element the pointer could use, also once it
// is scrolled to the middle of the view (a sticky header above the frame)
// (element_not_interactable). A point they all leave uncovered is the one
// the action uses (Point). It checks up the chain of frames the agent's view
// knows, in each parent's isolated realm; a frame the view does not place,
// or a check that cannot be made, is not refused (an element that shows no
// point in its frame: only the inertness is checked; the action says why).
func (o *Op) ReachFrame(ctx context.Context, what Reach) error {
	o.at = nil
	if o.pg.frame == nil {
		return nil
	}
	if t, ok := o.pg.sel.watch.Frame(o.pg.frame.id); !ok || t.InnerWindowID != o.pg.frame.window {
		return nil // (the frame navigated: the action says the ref is stale)
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if what != ReachPointer || o.l == nil {
		return o.reachUp(cctx, nil)
	}
	err := o.reachUp(cctx, o.framePoints(cctx, false))
	if e, ok := AsError(err); !ok || e.Code != errcode.ElementNotInteractable || !o.covered {
		return err
	}
	// Covered: once more with the element in the middle of the view. The
	// refusal stands unless that check reaches as far up and finds a point.
	refused, depth := err, o.depth
	pts := o.framePoints(cctx, true)
	if pts == nil {
		return refused
	}
	if err := o.reachUp(cctx, pts); err != nil || o.at == nil || o.depth < depth {
		o.at = nil
		return refused
	}
	return nil
}

// reachUp makes ReachFrame's checks up the chain with the frame's points
// (nil: inertness only), keeping in o.at the first point all of them leave
// uncovered; o.covered says whether a refusal was for a cover, o.depth how
// many documents checked the points (the refusing one included).
func (o *Op) reachUp(ctx context.Context, pts *pagejs.ViewPoints) error {
	o.covered, o.depth, o.at = false, 0, nil
	var first []pagejs.Point // pts' points, to name the one kept
	var idx []int            // for each point still checked, its index in first
	if pts != nil {
		first = pts.Points
		for i := range first {
			idx = append(idx, i)
		}
	}
	id := o.pg.frame.id
	for range maxFrameDepth {
		pp, t, ok := o.parentDoc(ctx, id)
		if !ok {
			break
		}
		var r pagejs.FrameReachResult
		if _, err := o.s.execOn(ctx, pp, t, ActionRealm, pagejs.FrameReach, pagejs.FrameReachArgs{Frame: id, At: pts}, &r, nil); err != nil {
			break
		}
		if pts != nil && r.Found {
			o.depth++
		}
		switch {
		case r.Found && r.Inert:
			return Errorf(errcode.ElementNotInteractable, "the element is in a frame that is inert: a modal dialog or menu of the page (or an inert region) keeps users from it; close that first (Escape often does)")
		case r.Found && r.Covered && pts != nil:
			o.covered = true
			return Errorf(errcode.ElementNotInteractable, "another element of the page covers the frame wherever the pointer could land on this element (an overlay, a banner, a cookie notice?): "+
				"a user's click would reach that one; take a snapshot and deal with it first")
		}
		pts, idx = keptPoints(pts, idx, r)
		if pp.frame == nil {
			break
		}
		id = pp.frame.id
	}
	if len(idx) > 0 {
		p := first[idx[0]]
		o.at = &p
	}
	return nil
}

// keptPoints is the points a document left uncovered, for the one above,
// and their indexes among the frame's own; none once one could not tell.
func keptPoints(pts *pagejs.ViewPoints, idx []int, r pagejs.FrameReachResult) (*pagejs.ViewPoints, []int) {
	if pts == nil || r.At == nil || len(r.At.Points) != len(r.Keep) {
		return nil, nil
	}
	var kept []int
	for _, k := range r.Keep {
		if k < 0 || k >= len(idx) {
			return nil, nil
		}
		kept = append(kept, idx[k])
	}
	return r.At, kept
}

// framePoints are the points of its frame's viewport a pointer action on
// the Op's element could use, scrolled to the nearest edge or the middle
// (nil: it shows none, or it could not be told).
func (o *Op) framePoints(ctx context.Context, center bool) *pagejs.ViewPoints {
	var r pagejs.FramePointResult
	args := pagejs.FramePointArgs{Sel: o.l.Sel(), FP: o.l.FP(), Ref: o.l.Node(), Center: center}
	info, err := o.s.exec(ctx, o.pg, ActionRealm, pagejs.FramePoint, args, &r)
	if err != nil || !info.isolated || !r.Ok || r.At == nil || len(r.At.Points) == 0 {
		return nil
	}
	return r.At
}

// Point is where in its frame's viewport a pointer action on the Op's
// element should land: one the documents above leave uncovered (ReachFrame),
// nil for the action's own choice.
func (o *Op) Point() *pagejs.Point { return o.at }

// parentDoc is the document holding frame id's element, as the agent's view
// places it: the Op's page with that document's frame (none for the top
// document), and its target.
func (o *Op) parentDoc(ctx context.Context, id int64) (page, rdp.Target, bool) {
	parent, ok := o.s.frameParent(o.pg.sel, id)
	if !ok {
		return page{}, rdp.Target{}, false
	}
	pp := o.pg
	pp.frame = nil
	if parent == 0 {
		t, err := o.s.current(ctx, pp)
		return pp, t, err == nil
	}
	ft, known := o.pg.sel.watch.Frame(parent)
	if !known {
		return page{}, rdp.Target{}, false
	}
	pp.frame = &frameLoc{parent, ft.InnerWindowID}
	return pp, ft, true
}

// frameParent is the browsing context of the document holding frame id's
// element (0: the top document), as the agent's view has it.
func (s *Session) frameParent(sel *selection, id int64) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sel.view == nil {
		return 0, false
	}
	for _, f := range sel.view.frames {
		if f.id == id {
			return f.parent, true
		}
	}
	return 0, false
}

// maxFocusDepth bounds how many frames deep UseFocus follows the focus.
const maxFocusDepth = 8

// UseFocus makes the document that holds the keyboard focus the Op's
// document: the top one, or the frame (however deeply nested, and in
// whichever process) whose element has the focus, so that a key pressed
// without a ref reaches the focused element as a user's would. Without the
// isolated realm frames are not read, and the top document stays.
func (o *Op) UseFocus(ctx context.Context) {
	if len(o.pg.sel.watch.Frames()) == 0 {
		return
	}
	for range maxFocusDepth {
		var r pagejs.FocusedFrameResult
		info, err := o.s.exec(ctx, o.pg, ReadRealm, pagejs.FocusedFrame, struct{}{}, &r)
		if err != nil || !info.isolated || r.Frame == 0 {
			return
		}
		t, ok := o.pg.sel.watch.Frame(r.Frame)
		if !ok {
			return
		}
		o.pg.frame = &frameLoc{t.BrowsingContextID, t.InnerWindowID}
	}
}

// Locate resolves another ref of the same generation (drag's drop target)
// without changing the Op's element or document.
func (o *Op) Locate(ref string) (*Locator, error) { return o.s.target(o.pg, ref) }

// Element is the Op's element (nil without one).
func (o *Op) Element() *Locator { return o.l }

// TabID names the Op's tab.
func (o *Op) TabID() string { return TabID(o.pg.sel.tab.BrowserID) }

// Generation is the ref generation current when the Op began.
func (o *Op) Generation() uint64 { return o.pg.generation }

// Run runs a page script where realm says it may run, decoding its value
// into out. ExecInfo says where it ran.
func (o *Op) Run(ctx context.Context, realm Realm, script pagejs.Script, args, out any) (ExecInfo, error) {
	info, err := o.s.exec(ctx, o.pg, realm, script, args, out)
	o.noteRun(script, err, out)
	return info, err
}

// noteRun records what the settle after the action just run waits for: a
// text entry's timers (entry), or, when it told that it changed nothing
// (ActionResult.Changed false: a click, a hover, a key pressed on no text
// field), the timers it made the page set. A text entry script that told
// whether it changed the page acted on no text field (press_key on a
// button): it is judged as a click.
func (o *Op) noteRun(script pagejs.Script, err error, out any) {
	r, ok := out.(*pagejs.ActionResult)
	told := err == nil && ok && r.Changed != nil
	if script.TextEntry() && !told {
		o.entry = true
	}
	o.unchanged = told && !*r.Changed
}

// RunIn runs a script in the realm an earlier step of the same operation
// ran in (prev), as a page-side state it left lives there.
func (o *Op) RunIn(ctx context.Context, prev ExecInfo, script pagejs.Script, args, out any) (ExecInfo, error) {
	info, err := o.s.execIn(ctx, o.pg, prev, script, args, out)
	o.noteRun(script, err, out)
	return info, err
}

// Activate makes the tab's document see itself focused before an action
// (focus.go), without raising its window.
func (o *Op) Activate(ctx context.Context) { o.s.activate(ctx, o.pg) }

// End ends an element action: it lets the page settle (at most limit),
// reads where the page is and, when observe is set, what changed since the
// agent's last view (nil when not).
func (o *Op) End(ctx context.Context, before string, limit time.Duration, observe bool) (urlNow string, navigated bool, obs *Observation, err error) {
	return o.endAction(ctx, before, limit, observe, nil, nil)
}

// EndMeasured is End with measure run once the page has settled and before
// it is observed (scroll measures its container there: content that grew
// during the settle is then in the observation too).
func (o *Op) EndMeasured(ctx context.Context, limit time.Duration, observe bool, measure func()) (urlNow string, navigated bool, obs *Observation, err error) {
	return o.endAction(ctx, "", limit, observe, measure, nil)
}

// EndOpened is End for an action that may open tabs (click): it also
// returns, as OpenedSince does, the tabs the tab opened since before,
// asked of the browser while the page is observed.
func (o *Op) EndOpened(ctx context.Context, before string, limit time.Duration, observe bool, openers Openers) (urlNow string, navigated bool, obs *Observation, tabs []string, err error) {
	o.downloads = true
	urlNow, navigated, obs, err = o.endAction(ctx, before, limit, observe, nil, func() { tabs = o.OpenedSince(ctx, openers) })
	return urlNow, navigated, obs, tabs, err
}

// ExpectDownloads makes End ask the download manager for the downloads
// the action started (a key pressed on a link), as EndOpened does.
func (o *Op) ExpectDownloads() { o.downloads = true }

// After reports, once an action ran, where the page is and whether it
// navigated (a new generation: refs stop working), without a settle.
func (o *Op) After(ctx context.Context, before string) (urlNow string, navigated bool) {
	return o.s.after(ctx, o.pg, before)
}

// Sync takes in any navigation the tab's watch saw; it reports whether
// there was one.
func (o *Op) Sync() bool { return o.s.sync(o.pg.sel) }

// NoDialog returns dialog_open when the tab shows a dialog; a check that
// cannot be made is not an error (the next step will tell).
func (o *Op) NoDialog(ctx context.Context) error { return o.s.noDialog(ctx, o.pg) }

// Dialog is a dialog an action's own evaluation opened.
type Dialog struct {
	Type string // alert, confirm, prompt, beforeunload, "" when unknown
	Text Page
}

// DialogOpened reports whether err is the dialog_open of a dialog the
// action itself opened; the tab is then marked so that later calls report
// dialog_open until it is answered. The action happened: the page answered
// it with a dialog.
func (o *Op) DialogOpened(err error) (Dialog, bool) {
	de, isErr := AsError(err)
	if !isErr || de.Code != errcode.DialogOpen {
		return Dialog{}, false
	}
	o.s.markDialog(o.pg.sel, true)
	dd, _ := de.Details["dialog"].(map[string]any)
	typ, _ := dd["type"].(string)
	return Dialog{Type: typ, Text: de.dialogText}, true
}

// ActivateWithOpeners is Activate and Openers at once: both ask the parent
// process, and sent together they wait for one answer's time, not two (a
// click's preparation).
func (o *Op) ActivateWithOpeners(ctx context.Context) Openers {
	ch := make(chan Openers, 1)
	go func() { ch <- o.Openers(ctx) }()
	o.Activate(ctx)
	return <-ch
}

// Openers is what the tab had opened before an action, for OpenedSince.
type Openers struct {
	r     pagejs.TabOpenersResult
	known bool
}

// Openers reads which tabs the tab has opened so far.
func (o *Op) Openers(ctx context.Context) Openers {
	r, ok := o.s.openers(ctx, o.pg)
	return Openers{r, ok}
}

// OpenedSince returns the tabs the tab opened since before, as tab ids,
// and records them as opened by this server (close_tab may close them).
func (o *Op) OpenedSince(ctx context.Context, before Openers) []string {
	return o.s.clickOpened(ctx, o.pg, before.r, before.known)
}

// Observe reads the page and says what changed since the agent's last
// view; match, when set, picks the elements a met wait_for condition names.
func (o *Op) Observe(ctx context.Context, match func(*pagejs.Element) bool) *Observation {
	obs := o.s.observe(ctx, o.pg, observeOpts{match: match}, nil)
	return &obs
}

// PauseForChange waits until the page shows a sign of change (a DOM
// mutation, one of its requests ending) or d passed (wait_for's pause).
func (o *Op) PauseForChange(ctx context.Context, d time.Duration) error {
	return o.s.pauseForChange(ctx, o.pg, d)
}

// Check checks a wait_for condition, in the document and its frames,
// giving up at deadline; r is nil when the check could not be made for a
// reason worth polling on. On a page without frames the check waits in the
// page, woken by its mutations, at most wait for the condition to hold, and
// waited says so (no pause is needed before the next check); with frames
// each document is checked once, and the caller pauses (PauseForChange).
func (o *Op) Check(ctx context.Context, args pagejs.WaitForArgs, wait time.Duration, deadline time.Time) (r *pagejs.WaitForResult, waited bool, err error) {
	args.WaitMS = 0
	w := o.pg.sel.watch
	if wait <= 0 || len(w.Frames()) > 0 {
		r, err = o.s.checkCondition(ctx, o.pg, args, deadline)
		return r, false, err
	}
	args.WaitMS = int(wait.Milliseconds())
	// A document that goes away while the check waits in it never answers:
	// the tab's next navigation ends the check, and the next one is made in
	// the new document.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	navs, done := w.Navigations(), make(chan struct{})
	defer close(done)
	go func() {
		for ch := w.Changed(); w.Navigations() == navs; ch = w.Changed() {
			select {
			case <-ch:
			case <-done:
				return
			}
		}
		cancel()
	}()
	r, err = o.s.checkCondition(cctx, o.pg, args, deadline)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		return nil, true, nil // navigated: check again
	}
	return r, true, err
}

// Console is the tab's console buffer and how many entries it dropped.
func (o *Op) Console() ([]rdp.ConsoleEntry, uint64) { return o.pg.sel.watch.Console() }

// Network is the tab's request buffer and how many entries it dropped.
func (o *Op) Network() ([]rdp.NetworkEntry, uint64) { return o.pg.sel.watch.Network() }

// Request is one buffered request, by its sequence number.
func (o *Op) Request(seq uint64) (rdp.NetworkEntry, bool) { return o.pg.sel.watch.Request(seq) }

// RequestDetails reads one request's headers and (at most maxBody
// characters of) body; rdp.ErrDetailsGone once the page navigated away.
func (o *Op) RequestDetails(ctx context.Context, seq uint64, maxBody int) (rdp.RequestDetails, error) {
	return o.pg.sel.watch.RequestDetails(ctx, seq, maxBody)
}

// Sel is the element's selector, one segment per shadow root.
func (l *Locator) Sel() pagejs.Sel { return l.sel }

// FP is the fingerprint the page re-checks before acting on the element.
func (l *Locator) FP() pagejs.Fingerprint { return l.fp }

// Node is the node id an action passes to check the ref against the node
// itself (0: unbound).
func (l *Locator) Node() int { return l.node }

// Ref is the element's ref, e.g. "e12".
func (l *Locator) Ref() string { return l.ref }

// InFrame reports whether the element is in a frame document, and that
// frame's origin as the snapshot showed it (page-derived).
func (l *Locator) InFrame() (origin string, ok bool) { return l.origin, l.frame != 0 }

// SameDocument reports whether m's element is in the same document (the
// top one or the same frame's) as l's, so one script can reach both.
func (l *Locator) SameDocument(m *Locator) bool { return l.frame == m.frame }

// CheckedBy names how an action checked the ref: "node" (the node itself,
// in the isolated realm) or "selector+fingerprint".
func (l *Locator) CheckedBy(info ExecInfo) string { return refCheck(l, info) }

// Trusted is whether an action's input was trusted: the script ran in the
// isolated realm, where the page can neither see nor shape its result, and
// it reported Firefox's own input pipeline. A page-realm result never is,
// whatever the script (or a page that replaced JSON.stringify) says.
func (i ExecInfo) Trusted(reported bool) bool { return i.isolated && reported }

// Isolated reports whether the script ran in the isolated realm, where
// the page can neither see nor shape its result.
func (i ExecInfo) Isolated() bool { return i.isolated }

// Reason says why an action ran in the page realm ("" when it did not, or
// no reason is known).
func (i ExecInfo) Reason() string { return i.reason }

// Text is the observation's text for the answer: the tabs that opened,
// then what changed ("" for nothing to say).
func (o *Observation) Text() string {
	if o == nil {
		return ""
	}
	t := ""
	if o.tabs != "" {
		t += "\n" + o.tabs
	}
	if o.text != "" {
		t += "\n" + o.text
	}
	return t
}

// SawNoDialog reports whether the observation asked the browser and no
// dialog was showing while it read the page (false when it could not tell).
func (o *Observation) SawNoDialog() bool { return o != nil && o.noDialog }

// Changes is the observation's structured summary (nil when none).
func (o *Observation) Changes() map[string]any {
	if o == nil {
		return nil
	}
	return o.st
}

// Unchanged reports whether the observation could tell and saw no element
// appear, change, go or move since the last view.
func (o *Observation) Unchanged() bool {
	if o == nil || o.st["known"] != true {
		return false
	}
	return o.st["appeared"] == 0 && o.st["changed"] == 0 && o.st["gone"] == 0 && o.st["reordered"] == nil
}

// Follow makes o, an observation made right after earlier in the same
// call (whose view it compares with), also say the URL change earlier saw
// and o then could not; not when o is the first view of a new page (a
// navigation since: the old URL is no news).
func (o *Observation) Follow(earlier *Observation) {
	if o == nil || earlier == nil || earlier.moved == "" || o.moved != "" || o.st == nil || o.st["first_view"] != false || o.st["renewed"] == true {
		return
	}
	o.moved = earlier.moved
	o.text = o.text[:o.pre] + earlier.moved + "\n" + o.text[o.pre:]
	o.st["url_changed"], o.st["url"] = true, earlier.st["url"]
}

// DropTabs leaves the opened tabs out: the action's own result names them.
func (o *Observation) DropTabs() { o.dropTabs() }
