package browser

// Act and observe. After an action the page is given time to react, judged by
// watching it rather than by a fixed sleep (settle), and the answer ends with
// what changed among the actionable elements since the agent's last view of
// the page (the delta): elements that appeared, changed (value, checked,
// selected, expanded, disabled, …) or went away, as snapshot lines with refs
// from the same table as snapshot_page, plus a line for a dialog, a new tab
// or a page still busy, and the new page's elements after a navigation. wait_for answers the same way once its condition holds.
//
// The agent's last view is the last reading the server took of the document
// for it (snapshot_page, a delta, a wait_for answer), elements left out of a
// truncated answer included. A delta says so when it cannot tell what
// changed: no earlier view in this generation, a walk cut at the element
// limit, a page that could not be read. Its lines are page content (the walk
// runs in the page realm) and go between the untrusted markers; "no change"
// is the page's own account too, and is worded so.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

const (
	// settleQuiet is how long the page must be quiet (no DOM mutation, none of
	// its own requests in flight) for an action to count as settled, with an
	// animation frame that began after the last change passed (and the 0 ms
	// timers the page set in it); a page that changed more than once during
	// the wait, or shows no frame (hidden, throttled), needs settleLong
	// (pagejs/js/settle.js). Chosen by measurement (README "Act and observe",
	// pagejs BenchmarkSettleWindow): after a click, React 18 and Preact 10
	// renders of a fetch's answer (fetched in the handler, in an effect, after
	// a second request) left a median 3 ms (p90 4–5, at most 16, machine
	// stalls aside) without a mutation or a request in flight before the
	// render, a render put off to the frame after next a p90 of 17 ms; the
	// frame covers those, the window the microtask and timer renders. None of
	// 240 settles ended before the render (10 ms alone: 1; 5 ms alone: 13). A
	// longer window only adds its length to every action that changes nothing.
	// Measured again with 8, 6 and 5 ms and the frame (none of 240 early
	// either, waits 0–6 ms shorter): the job flow of issue 15 took the same
	// (1.297–1.306 s with 10 ms, 1.301–1.310 s with 6 ms, two runs each), the
	// frame deciding most settles, so the window stays at 10 ms.
	settleQuiet = 10 * time.Millisecond
	settleLong  = 30 * time.Millisecond
	// defaultSettleCap is the longest an action waits for the page by default
	// (click's wait_after_ms default).
	defaultSettleCap = 250 * time.Millisecond
	// deltaLines bounds the element lines of one delta.
	deltaLines = 30
	// matchLines bounds the matching elements wait_for lists.
	matchLines = 10
	// unshownLines bounds the elements a delta lists that no answer showed
	// before (delta.unshown): all of them or none.
	unshownLines = 10
)

// walkInfo is what the server derives from a walk's elements, once per
// walk (a kept walk that the resident answers {same} for reuses it): the
// fingerprint sums, the ref keys and, as they are needed, the lines without
// refs. Immutable once made, except bodies and byNode, filled in as needed
// by the call that holds the page-operation lock.
type walkInfo struct {
	sums   [][32]byte
	keys   []string
	bodies []string // "" until made
	index  map[string]int
	// Node binding (binding.go) of the read: the document's window and each
	// element's node id (nil: unbound, refs by selector and fingerprint).
	window int64
	ids    []int
	byNode map[int]int // node id → index (nodeIndex), nil until made (like bodies)
	// near is each element's near text (SnapshotResult.NearRows), nil when
	// none has one: shown on its line, not part of its body (a look-alike
	// appearing or going is no change of the others).
	near []string
}

func newWalkInfo(r *pagejs.SnapshotResult) *walkInfo {
	n := len(r.Elements)
	w := &walkInfo{sums: make([][32]byte, n), keys: make([]string, n), bodies: make([]string, n), index: make(map[string]int, n), near: r.NearRows()}
	for i := range r.Elements {
		w.sums[i] = r.Elements[i].FP.Sum()
		w.keys[i] = refKey(0, r.Elements[i].Sel, w.sums[i]) // the top document's
		w.index[w.keys[i]] = i
	}
	return w
}

// body is element i's line without its ref.
func (w *walkInfo) body(i int, e *pagejs.Element) string {
	if w.bodies[i] == "" {
		w.bodies[i] = elementBody(e)
	}
	return w.bodies[i]
}

// line is element i's line with ref: its body, then its near text.
func (w *walkInfo) line(ref string, i int, e *pagejs.Element) string {
	return "[" + ref + "] " + w.body(i, e) + nearSuffix(w.nearOf(i))
}

// nearOf is element i's near text ("" for none).
func (w *walkInfo) nearOf(i int) string {
	if w.near == nil {
		return ""
	}
	return w.near[i]
}

// nearSuffix shows a look-alike's near text on its line.
func nearSuffix(near string) string {
	if near == "" {
		return ""
	}
	return " near=" + Quote(near, nearMax)
}

// nearMax is how many characters of a near text a line shows (the page
// script sends at most 40).
const nearMax = 40

// boundWalkInfoLocked is docInfoLocked for a read of the top document,
// with that read's node binding.
func (s *Session) boundWalkInfoLocked(sel *selection, d *docSnap) *walkInfo {
	w := *s.docInfoLocked(sel, d)
	w.window, w.ids, w.byNode = d.t.InnerWindowID, d.b.ids, nil
	return &w
}

// walkInfoLocked returns the walk info of r: the kept walk's (k, its
// document's), when r is it. Called with s.mu held.
func walkInfoLocked(k *keptSnapshot, r *pagejs.SnapshotResult) *walkInfo {
	same := keptRes(k, r)
	if same && k.info != nil {
		return k.info
	}
	w := newWalkInfo(r)
	if same {
		k.info = w
	}
	return w
}

// refLocked issues (or finds) the ref of element i of r.
func (s *Session) refLocked(pg page, gen uint64, r *pagejs.SnapshotResult, w *walkInfo, i int) string {
	e := &r.Elements[i]
	l := &Locator{generation: gen, browserID: pg.sel.tab.BrowserID, sel: e.Sel, fp: e.FP, sum: w.sums[i], window: w.window}
	if w.ids != nil { // bound: the same node has the same ref (snapshot_page's refFor)
		l.node = w.ids[i]
		return s.refs.addNode(l)
	}
	if ref, ok := s.refs.byKey[w.keys[i]]; ok {
		return ref
	}
	return s.refs.add(l)
}

// issuedRefLocked is the ref element j of view v already has, if any.
func (s *Session) issuedRefLocked(v *pageView, j int) (string, bool) {
	if v.info.ids != nil {
		ref, ok := s.refs.byNode[nodeKey{v.info.window, v.info.ids[j]}]
		return ref, ok
	}
	ref, ok := s.refs.byKey[v.info.keys[j]]
	return ref, ok
}

// settle waits until the page is quiet, at most limit (nothing when 0). It
// returns a dialog_open error when the page opened a dialog meanwhile; other
// failures only shorten the wait (logged).
//
// began, when set, is when the action began: requests the page had in
// flight since before then (an EventSource, a long poll) are not waited for.
func (s *Session) settle(ctx context.Context, pg page, limit time.Duration, began time.Time, entry, unchanged bool) (pagejs.SettleResult, error) {
	var r pagejs.SettleResult
	if limit <= 0 {
		return r, ctx.Err()
	}
	sctx, cancel := context.WithTimeout(ctx, limit+2*time.Second)
	defer cancel()
	args := pagejs.SettleArgs{QuietMS: int(settleQuiet.Milliseconds()), LongMS: int(settleLong.Milliseconds()), CapMS: int(limit.Milliseconds()), Entry: entry, Unchanged: unchanged}
	if !began.IsZero() {
		args.Began = began.UnixMilli()
	}
	if _, err := s.exec(sctx, pg, ActionRealm, pagejs.Settle, args, &r); err != nil {
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		if e, ok := AsError(err); ok && e.Code == errcode.DialogOpen {
			return r, err
		}
		s.log.Debug("settle failed; observing the page as it is", "error", err)
	}
	s.log.Debug("settled", "quiet", r.Quiet, "waited_ms", r.WaitedMS, "mutations", r.Mutations, "frames", r.Frames, "frame_changes", r.FrameChanges, "pending", r.Pending, "held_ms", r.HeldMS, "ignored", r.Ignored, "live_mutations", r.LiveMutations)
	return r, nil
}

// Observation is what an answer says about the page after an action or a
// met wait: text to append and a structured summary.
type Observation struct {
	text string
	tabs string // the tabs that opened (tabsNote), said before text
	st   map[string]any
	// noDialog: the browser said no dialog was showing while the page was
	// read (a read that succeeded: a dialog opened during it would have held
	// it back).
	noDialog bool
	moved    string // the lines saying the URL changed (urlMoved), part of text
	pre      int    // how many bytes of text come before the delta's (dialog, busy)
}

// dropTabs leaves the opened tabs out: the action's own result names them.
func (o *Observation) dropTabs() {
	if o != nil {
		o.tabs = ""
		delete(o.st, "new_tabs")
	}
}

// unknownChange is the observation when the page could not be read.
func unknownChange(why string) Observation {
	return Observation{text: "Could not tell what changed: " + why + ".", st: map[string]any{"known": false, "reason": why}}
}

// observeOpts say what an observation is for.
type observeOpts struct {
	navigated bool
	// from is the document an action that navigated began in (its inner
	// window; 0 when unknown): the new one is read once it is interactive.
	from int64
	// settled is how the settle before the observation ended (nil: none).
	settled *pagejs.SettleResult
	// match, when set, picks the elements a met wait_for condition names.
	match func(e *pagejs.Element) bool
	// unread is how many of the page's frames the read for the view could not
	// read (framesSkipped: none was, for want of the isolated realm or node
	// binding), which a delta says it did not compare; deltaOf sets them.
	unread        int
	framesSkipped bool
}

// observe reads the page, compares it with the agent's last view, issues
// refs for what it shows and makes the read the new view.
func (s *Session) observe(ctx context.Context, pg page, o observeOpts, dialogErr error) Observation {
	if dialogErr != nil {
		return s.dialogObservation(dialogErr)
	}
	if o.navigated {
		// The new document first: read it once it is interactive.
		s.awaitInteractive(ctx, pg, o.from)
	}
	// A dialog opened after the action does not hold back the walk: ask the
	// browser (not the page) whether one is showing, while the page is read.
	type dialogState struct {
		pagejs.DialogStateResult
		known bool
	}
	dialogs := make(chan dialogState, 1)
	go func() {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		d, err := s.dialog(dctx, pg)
		dialogs <- dialogState{d, err == nil}
	}()
	tabs := make(chan []rdp.Tab, 1)
	go func() {
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		list, err := listTabs(tctx, pg.c)
		if err != nil {
			list = nil
		}
		tabs <- list
	}()
	vr, gen, err := s.readForView(ctx, pg)
	d := <-dialogs
	opened := s.newTabs(pg, <-tabs)
	if err != nil {
		if e, ok := AsError(err); ok && e.Code == errcode.DialogOpen {
			return s.dialogObservation(err)
		}
		if ctx.Err() != nil {
			return unknownChange("the call was cancelled")
		}
		s.log.Debug("delta read failed", "error", err)
		// Only the code: a page-realm script's message may be the page's words.
		code := "error"
		if e, ok := AsError(err); ok {
			code = string(e.Code)
		}
		return unknownChange("the page could not be read (" + code + "); take a snapshot")
	}
	obs := s.deltaOf(pg, gen, vr, o)
	obs.noDialog = d.known && !d.Open
	if len(opened) > 0 {
		obs.tabs = tabsNote(opened)
		list := make([]map[string]any, len(opened))
		for i, t := range opened {
			list[i] = map[string]any{"tab_id": TabID(t.BrowserID), "title": PageTitle(t.Title), "url": PageURL(t.URL)}
		}
		obs.st["new_tabs"] = list
	}
	if d.Open {
		line := "A dialog is open: " + dialogError(d.DialogStateResult).Text() + "\n"
		obs.text, obs.pre = line+obs.text, obs.pre+len(line)
		obs.st["dialog"] = map[string]any{"type": dialogKind(d.Type), "text": PageStrN(d.Text, 2000)}
	}
	addBusyNote(&obs, o.settled)
	return obs
}

// addBusyNote puts busyNote's sentence first in obs and says it in its
// structured summary. A timer's note is left out when the delta shows a
// change: the timer's change came between the wait's end and the read, and
// a note that nothing had changed would contradict it.
func addBusyNote(obs *Observation, settled *pagejs.SettleResult) {
	if settled != nil && settled.Quiet && settled.AnimatingMS == 0 && settled.TimerLeft && settled.TimerUnchanged &&
		obs.st["known"] == true && !obs.Unchanged() {
		return
	}
	b := busyNote(settled)
	if b == "" {
		return
	}
	obs.text, obs.pre = b+"\n"+obs.text, obs.pre+len(b)+1
	switch {
	case settled.Quiet && settled.AnimatingMS > 0:
		obs.st["animating_ms"] = settled.AnimatingMS
	case settled.Quiet:
		obs.st["timer_pending"] = true
	default:
		obs.st["settled"] = false
	}
}

// awaitInteractive waits, at most 5 s, until the tab's document is
// interactive after an action that navigated away from document from (its
// inner window; 0 when unknown): as Firefox reports it, or as the document
// says itself (readyNow): a new one, or from itself when it stays (a URL the
// page changed itself) and Firefox announced no new one (will-navigate).
// Firefox 153 holds a document's dom-interactive event back until its load
// while an image holds the load (measured: a click onto a page whose picture
// came 3 s late answered after 3.3 s), so a page's own word is what ends the
// wait on a real site, whose pictures come late.
func (s *Session) awaitInteractive(ctx context.Context, pg page, from int64) {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	w := pg.sel.watch
	if from == 0 {
		_, _ = w.WaitReady(wctx, "interactive")
		return
	}
	if t, err := w.Current(wctx); err == nil && t.InnerWindowID == from && !w.Leaving() {
		from = 0 // (the same document: readyNow takes it as it is)
	}
	_, _ = s.readyNow(wctx, pg, "interactive", from)
}

// newTabs returns the tabs in list that the selection had not seen before,
// and records list as seen. The first list of a selection is only recorded:
// what came before it is unknown.
func (s *Session) newTabs(pg page, list []rdp.Tab) []rdp.Tab {
	if list == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	known := pg.sel.knownTabs
	pg.sel.knownTabs = make(map[int64]bool, len(list))
	var out []rdp.Tab
	for _, t := range list {
		pg.sel.knownTabs[t.BrowserID] = true
		if known != nil && !known[t.BrowserID] {
			out = append(out, t)
		}
	}
	return out
}

// tabsNote says which tabs opened since the last observation; their titles
// and URLs follow inside markers.
func tabsNote(opened []rdp.Tab) string {
	ids := make([]string, len(opened))
	u := NewUntrusted()
	for i, t := range opened {
		ids[i] = TabID(t.BrowserID)
		u.Field(ids[i]+" title", t.Title, 80)
		u.Field(ids[i]+" URL", t.URL, 200)
	}
	return "A new tab opened: " + strings.Join(ids, ", ") + " (select_tab to work in it; this tab stays selected). Its title and URL:\n" + u.String()
}

// busyNote says that the page had not settled when the wait ended, or was
// still animating something it may show or hide, so the delta may not be
// the last word.
func busyNote(r *pagejs.SettleResult) string {
	if r != nil && r.Quiet && r.AnimatingMS > 0 {
		return fmt.Sprintf("The page is still animating (about %d ms more): what it shows or hides may change after this answer; wait_for what you expect.", r.AnimatingMS)
	}
	if r != nil && r.Quiet && r.TimerLeft && r.TimerUnchanged {
		return fmt.Sprintf("The page set a timer during the action and had shown no change when the wait ended after %d ms (a menu or dialog shown after a delay, perhaps): what it shows may still change; wait_for what you expect (click also takes a longer wait_after_ms).", r.WaitedMS)
	}
	if r != nil && r.Quiet && r.TimerLeft {
		return fmt.Sprintf("A timer the page set during the entry had not run when the wait ended after %d ms (a debounced search or check, perhaps): what the page shows may still change; wait_for what you expect (fill and type_text also take a longer wait_after_ms).", r.WaitedMS)
	}
	if r == nil || r.Quiet {
		return ""
	}
	n := fmt.Sprintf("The page was still busy when the wait ended after %d ms", r.WaitedMS)
	if r.Requests && r.Pending > 0 {
		n += " (" + Plural(r.Pending, "request", "requests") + " of its own in flight)"
	}
	return n + ": more may change; wait_for what you expect."
}

// dialogObservation reports a dialog_open error of the settle or the walk.
// Only the server's own dialog check (dialogError, which carries the
// dialog's details) is repeated; a page-realm script can throw an error
// with that code and any message, which is not.
func (s *Session) dialogObservation(err error) Observation {
	e, _ := AsError(err)
	if e == nil || e.Details == nil || e.Details["dialog"] == nil {
		return unknownChange("a page script reported " + string(errcode.DialogOpen) + "; check with browser_status or handle_dialog")
	}
	dd, _ := e.Details["dialog"].(map[string]any)
	st := map[string]any{"known": false, "reason": "dialog", "dialog": map[string]any{"type": dd["type"], "text": e.dialogText}}
	return Observation{text: "A dialog is open: " + e.Text(), st: st}
}

// viewRead is a read of the page for the agent's view: the top document and
// its visible frames' documents.
type viewRead struct {
	top     *docSnap
	frames  []frameDoc
	unread  []int64 // visible frames whose documents could not be read (visibleFrames)
	skipped int     // frames not read at all (readAll's framesSkipped)
}

// newViewRead is readAll's read (top, frames, skipped) for the view.
func newViewRead(pg page, top *docSnap, frames map[int64]*docSnap, skipped string) *viewRead {
	vr := &viewRead{top: top}
	if skipped != "" {
		vr.skipped = len(pg.sel.watch.Frames())
	} else {
		vr.frames, vr.unread = visibleFrames(top, frames)
	}
	return vr
}

// readForView walks the selected document and its visible frames with the
// server's element limit, reading once more when it navigated under the
// walk; gen is the generation the result belongs to.
func (s *Session) readForView(ctx context.Context, pg page) (*viewRead, uint64, error) {
	args := pagejs.SnapshotArgs{MaxElements: s.opts.MaxElements}
	pg.frame = nil // the view is of the top document, also after an action in a frame
	for attempt := 0; ; attempt++ {
		top, frames, skipped := s.readAll(ctx, pg, args) // with refs bound, as snapshot_page reads
		err := top.err
		if err == nil {
			s.mu.Lock()
			stale := s.sel != pg.sel || s.syncLocked(pg.sel)
			gen := s.generation
			s.mu.Unlock()
			if !stale {
				return newViewRead(pg, top, frames, skipped), gen, nil
			}
			err = Errorf(errcode.TargetReplaced, "the page navigated while it was being read")
		}
		if e, ok := AsError(s.Classify(ctx, err)); attempt > 0 || !ok || e.Code != errcode.TargetReplaced {
			return nil, 0, err
		}
		if _, err := pg.sel.watch.Current(ctx); err != nil {
			return nil, 0, err
		}
	}
}

// endAction ends an action (Op.End): it lets the page settle (at most
// limit), reads where the page is (after, with the URL the settle ended on)
// and, when on, observes what changed. The element actions end with it
// (click, fill, type_text, press_key, select_option, hover, drag,
// upload_files, scroll), the tool table adding the
// observation's text and changes to their answers.
//
// between, when set, runs once the page has settled, before it is observed;
// alongside, when set, runs then too, while the page is observed (a click's
// look at the tabs it opened: the browser answers it while the page is
// read).
func (o *Op) endAction(ctx context.Context, before string, limit time.Duration, on bool, between, alongside func()) (urlNow string, nav bool, obs *Observation, err error) {
	s, pg := o.s, o.pg
	sr, serr := s.settle(ctx, pg, limit, o.began, o.entry, o.unchanged)
	if ctx.Err() != nil {
		return "", false, nil, ctx.Err()
	}
	if between != nil {
		between()
	}
	// A load Firefox announced may be a download: known before the
	// navigation is judged. Otherwise, for an action that may start one
	// unannounced (o.downloads), the downloads are asked for alongside.
	var dls []Download
	leaving := o.leavingFrom(ctx)
	if leaving {
		dls = o.actionDownloads(ctx, true)
	}
	urlNow, nav = s.afterSeen(ctx, pg, before, sr.URL) // the settle's last look, no read of its own
	done := make(chan struct{})
	go func() {
		defer close(done)
		if !leaving && o.downloads {
			dls = o.actionDownloads(ctx, false)
		}
		if alongside != nil {
			alongside()
		}
	}()
	if !on {
		<-done
		return urlNow, nav, notesOnly(o.moved(before, urlNow, nav), urlNow, dls), nil
	}
	var settled *pagejs.SettleResult
	if limit > 0 && serr == nil && sr.WaitedMS > 0 {
		settled = &sr
	}
	ob := s.observe(ctx, pg, observeOpts{navigated: nav, from: o.window, settled: settled}, serr)
	<-done
	ob.addDownloads(dls)
	return urlNow, nav, &ob, nil
}

// minCheckGap bounds how often wait_for checks a page that changes all the
// time: a pause ends at most this long after the change that woke it.
// pauseCalm is how long a pause waits, after that change, for the page to
// stop mutating (the rest of the render), so that a change that comes soon
// after a check is checked at once, not a gap later.
const (
	minCheckGap = 25 * time.Millisecond
	pauseCalm   = 4 * time.Millisecond
)

// pauseForChange is wait_for's pause between two checks: until the page
// shows a sign of change (a DOM mutation, one of its requests ending) and
// then pauseCalm without a mutation (at most minCheckGap after the change),
// or d passed.
func (s *Session) pauseForChange(ctx context.Context, pg page, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	start := time.Now()
	pctx, cancel := context.WithTimeout(ctx, d+2*time.Second)
	defer cancel()
	var r pagejs.SettleResult
	args := pagejs.SettleArgs{QuietMS: int(pauseCalm.Milliseconds()), CapMS: int(d.Milliseconds()), Change: true, GapMS: int(minCheckGap.Milliseconds())}
	if _, err := s.exec(pctx, pg, ReadRealm, pagejs.Settle, args, &r); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Mid-navigation, or a dialog: look again soon.
		return Sleep(ctx, min(d, 50*time.Millisecond)-time.Since(start))
	}
	return ctx.Err()
}

// moved is the lines saying that the action changed the document's URL
// without replacing the document (pushState, a fragment), for an answer
// without an observation; "" when it did not.
func (o *Op) moved(before, urlNow string, nav bool) string {
	if nav || before == "" || urlNow == "" || before == urlNow {
		return ""
	}
	u := NewUntrusted()
	u.Field("URL", urlNow, 300)
	return "The URL changed, in the same document (refs still work):\n" + u.String()
}

// notesOnly is the observation of an action told not to observe: what it
// still says (the URL it changed in the same document, the downloads it
// started); nil when nothing.
func notesOnly(moved, urlNow string, ds []Download) *Observation {
	if moved == "" && len(ds) == 0 {
		return nil
	}
	o := &Observation{st: map[string]any{}}
	if moved != "" {
		o.text, o.moved = moved, moved
		o.st["url_changed"], o.st["url"] = true, PageStr(urlNow)
	}
	o.addDownloads(ds)
	return o
}
