package rdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Target is one document (top-level or frame) as the watcher describes it.
// Every top-level navigation creates a new Target with a new ConsoleActor.
type Target struct {
	Actor             string
	ConsoleActor      string
	BrowsingContextID int64
	InnerWindowID     int64
	ProcessID         int64  // content process id, see Client.ContentProcessConsole
	ScreenshotActor   string // the target's screenshotContentActor (Client.PrepareCapture)
	URL               string
	Title             string
	Frame             bool // a frame's document, not the tab's top-level one (see TabWatch.Frames)
}

type targetForm struct {
	Actor             string `json:"actor"`
	ConsoleActor      string `json:"consoleActor"`
	BrowsingContextID int64  `json:"browsingContextID"`
	InnerWindowID     int64  `json:"innerWindowId"`
	ProcessID         int64  `json:"processID"`
	ScreenshotActor   string `json:"screenshotContentActor"`
	URL               string `json:"url"`
	Title             string `json:"title"`
	IsTopLevelTarget  bool   `json:"isTopLevelTarget"`
}

func (f targetForm) target() Target {
	return Target{Actor: f.Actor, ConsoleActor: f.ConsoleActor, BrowsingContextID: f.BrowsingContextID,
		InnerWindowID: f.InnerWindowID, ProcessID: f.ProcessID, ScreenshotActor: f.ScreenshotActor, URL: f.URL, Title: f.Title, Frame: !f.IsTopLevelTarget}
}

type documentEvent struct {
	Name              string  `json:"name"`
	URL               *string `json:"url"`
	Title             *string `json:"title"`
	BrowsingContextID int64   `json:"browsingContextID"`
	InnerWindowID     int64   `json:"innerWindowId"`
}

// TabWatch follows one tab through the RDP watcher: it always knows the
// tab's current top-level target, across navigations and process switches.
//
// Firefox has one watcher actor per tab and connection, so watches of the
// same tab on one Client share their state; each TabWatch is a handle, and
// the watcher is unwatched when the last handle closes.
type TabWatch struct {
	w         *tabWatch
	closeOnce sync.Once
	closed    chan struct{}
}

// tabWatch is the state shared by the handles watching one tab.
type tabWatch struct {
	c       *Client
	tab     Tab
	watcher string
	refs    int // open handles; guarded by the client's state lock

	mu      sync.Mutex
	top     *Target // nil between the old target's destruction and the new one's arrival
	hadTop  bool
	ready   string // readyState of top: "", "loading", "interactive", "complete"
	leaving bool   // top is being replaced (will-navigate), no new top yet
	left    string // ready when will-navigate came (Stayed restores it)
	navs    uint64
	err     error         // ErrTabClosed, a closed connection, or errWatchClosed
	changed chan struct{} // closed and replaced on every change
	actors  []string      // routes registered in the client's state
	// forms holds every live target of the tab (frames too): destroy
	// notices may carry only the actor, not its console.
	forms map[string]targetForm
	res   resources // console and network buffers (resources.go)
}

var errWatchClosed = fmt.Errorf("%w: tab watch closed", ErrClosed)

type getWatcherRequest struct {
	Type                           string `json:"type"`
	IsServerTargetSwitchingEnabled bool   `json:"isServerTargetSwitchingEnabled"`
	IsPopupDebuggingEnabled        bool   `json:"isPopupDebuggingEnabled"`
}

type watchTargetsRequest struct {
	Type       string `json:"type"`
	TargetType string `json:"targetType"`
}

type watchResourcesRequest struct {
	Type          string   `json:"type"`
	ResourceTypes []string `json:"resourceTypes"`
}

// watchedResources are the resource types WatchTab subscribes to: document
// events for readiness, console, error and network resources for the
// buffers (resources.go).
var watchedResources = []string{"document-event", "console-message", "error-message", "network-event"}

// WatchTab starts following tab: getWatcher (with server-side target
// switching), watchTargets "frame", watchResources document-event. Close
// the watch when done.
func (c *Client) WatchTab(ctx context.Context, tab Tab) (*TabWatch, error) {
	var resp struct {
		Actor string `json:"actor"`
	}
	err := c.Request(ctx, tab.Actor, getWatcherRequest{Type: "getWatcher", IsServerTargetSwitchingEnabled: true}, &resp)
	if err != nil {
		if IsNoSuchActor(err) {
			err = fmt.Errorf("%w (%v)", ErrTabClosed, err)
		}
		return nil, fmt.Errorf("rdp: getWatcher on %s: %w", tab.Actor, err)
	}
	if resp.Actor == "" {
		return nil, fmt.Errorf("rdp: getWatcher on %s: %w", tab.Actor, protocolError("no watcher actor"))
	}
	var (
		w      *tabWatch
		shared bool
		closed error
	)
	c.update(func(s *state) {
		if s.err != nil {
			closed = s.err
			return
		}
		if old := s.watches[resp.Actor]; old != nil && old.watcher == resp.Actor && old.refs > 0 {
			old.refs++
			w, shared = old, true
			return
		}
		w = &tabWatch{c: c, tab: tab, watcher: resp.Actor, refs: 1, changed: make(chan struct{}), forms: map[string]targetForm{}, res: newResources()}
		w.route(s, resp.Actor)
		w.route(s, tab.Actor)
	})
	if closed != nil {
		return nil, closed
	}
	h := &TabWatch{w: w, closed: make(chan struct{})}
	if shared {
		return h, nil
	}
	if err := c.Request(ctx, w.watcher, watchTargetsRequest{Type: "watchTargets", TargetType: "frame"}, nil); err != nil {
		err = fmt.Errorf("rdp: watchTargets on %s: %w", w.watcher, err)
		w.fail(err)
		h.Close()
		return nil, err
	}
	if err := c.Request(ctx, w.watcher, watchResourcesRequest{Type: "watchResources", ResourceTypes: watchedResources}, nil); err != nil {
		err = fmt.Errorf("rdp: watchResources on %s: %w", w.watcher, err)
		w.fail(err)
		h.Close()
		return nil, err
	}
	return h, nil
}

// route makes packets from actor reach w. Called with the client state locked.
func (w *tabWatch) route(s *state, actor string) {
	s.watches[actor] = w
	w.mu.Lock()
	w.actors = append(w.actors, actor)
	w.mu.Unlock()
}

func (w *tabWatch) unroute(s *state, actor string) {
	if s.watches[actor] == w {
		delete(s.watches, actor)
	}
}

// broadcast wakes waiters. Called with w.mu held.
func (w *tabWatch) broadcast() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// fail ends the watch with err (first error wins).
func (w *tabWatch) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
		w.top = nil
		w.broadcast()
	}
}

// handle processes one watcher-related event. It runs on the reader
// goroutine with the client state locked; it must not block.
func (w *tabWatch) handle(s *state, from, typ string, pkt packet) {
	switch typ {
	case "descriptor-destroyed":
		if from == w.tab.Actor {
			w.tabDestroyed(s)
		}
	case "target-available-form":
		if f, ok := targetIn(s, from, typ, pkt); ok {
			w.targetAvailable(s, f)
		}
	case "target-destroyed-form":
		if f, ok := targetIn(s, from, typ, pkt); ok {
			w.targetDestroyed(s, f)
		}
	case "resources-available-array", "resources-updated-array":
		w.resourceArray(s, from, typ, pkt)
	}
}

// targetIn reads a target form notice's target, noting a bad one.
func targetIn(s *state, from, typ string, pkt packet) (targetForm, bool) {
	var f targetForm
	if err := json.Unmarshal(pkt["target"], &f); err != nil || f.Actor == "" {
		s.note("%s from %s: bad target", typ, from)
		return f, false
	}
	return f, true
}

// tabDestroyed ends the watch when the tab's descriptor goes away.
func (w *tabWatch) tabDestroyed(s *state) {
	w.fail(fmt.Errorf("%w: tab %d", ErrTabClosed, w.tab.BrowserID))
	w.mu.Lock()
	actors := w.actors
	w.mu.Unlock()
	for _, a := range actors {
		w.unroute(s, a)
	}
}

// targetAvailable records a new target; a top-level one becomes current
// and, after the first, counts as a navigation.
func (w *tabWatch) targetAvailable(s *state, f targetForm) {
	w.route(s, f.Actor)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.forms[f.Actor] = f
	if !f.IsTopLevelTarget {
		return
	}
	t := f.target()
	if w.hadTop {
		w.navs++
		w.res.navigated(f.URL)
	}
	w.hadTop = true
	w.top = &t
	w.ready = "loading"
	w.leaving = false
	w.broadcast()
}

// targetDestroyed forgets a target and fails what waits on its actors.
func (w *tabWatch) targetDestroyed(s *state, f targetForm) {
	w.unroute(s, f.Actor)
	w.mu.Lock()
	defer w.mu.Unlock()
	if known, ok := w.forms[f.Actor]; ok {
		if f.ConsoleActor == "" {
			f.ConsoleActor = known.ConsoleActor
		}
		delete(w.forms, f.Actor)
	}
	// A destroyed actor never answers: fail what waits on it.
	err := fmt.Errorf("%w: %s", ErrTargetGone, f.Actor)
	s.purge(func(a string) bool { return a == f.Actor || (f.ConsoleActor != "" && a == f.ConsoleActor) }, err)
	if w.top != nil && w.top.Actor == f.Actor {
		w.top = nil
		w.ready = ""
		w.leaving = false
		w.broadcast()
	}
}

// resourceArray dispatches a resources array: document events drive
// readiness, the rest go to the buffers (w.resource).
func (w *tabWatch) resourceArray(s *state, from, typ string, pkt packet) {
	var arr []json.RawMessage
	if err := json.Unmarshal(pkt["array"], &arr); err != nil {
		s.note("%s from %s: bad array", typ, from)
		return
	}
	for _, pair := range arr {
		var tr []json.RawMessage
		if json.Unmarshal(pair, &tr) != nil || len(tr) != 2 {
			s.note("%s from %s: bad entry", typ, from)
			continue
		}
		var rtype string
		json.Unmarshal(tr[0], &rtype)
		if rtype != "document-event" {
			w.resource(s, from, typ, rtype, tr[1])
		} else if typ == "resources-available-array" {
			w.documentEvents(s, from, tr[1])
		}
	}
}

// documentEvents applies an available document-event array.
func (w *tabWatch) documentEvents(s *state, from string, raw json.RawMessage) {
	var evs []documentEvent
	if json.Unmarshal(raw, &evs) != nil {
		s.note("document-event from %s: bad resources", from)
		return
	}
	for _, ev := range evs {
		w.documentEvent(from, ev)
	}
}

var readyRank = map[string]int{"": 0, "loading": 1, "interactive": 2, "complete": 3}

func (w *tabWatch) documentEvent(from string, ev documentEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	top := w.top
	if top == nil {
		return
	}
	if from == w.watcher {
		// will-navigate comes from the watcher (parent process) and names
		// the window that is about to be replaced.
		if ev.Name == "will-navigate" && (ev.InnerWindowID == top.InnerWindowID || ev.BrowsingContextID == top.BrowsingContextID) {
			w.navs++
			if !w.leaving {
				w.left = w.ready
			}
			w.ready = "loading"
			w.leaving = true
			w.broadcast()
		}
		return
	}
	if from != top.Actor {
		return // a frame's document
	}
	t := *top
	if ev.URL != nil && *ev.URL != "" && *ev.URL != t.URL {
		t.URL = *ev.URL
		w.navs++
	}
	if ev.Title != nil {
		t.Title = *ev.Title
	}
	switch ev.Name {
	case "dom-loading":
		w.ready = "loading"
	case "dom-interactive":
		w.ready = "interactive"
	case "dom-complete":
		w.ready = "complete"
	case "will-navigate":
		w.navs++
		w.ready = "loading"
	}
	w.top = &t
	w.broadcast()
}

// Tab returns the tab as it was when the watch started.
func (h *TabWatch) Tab() Tab { return h.w.tab }

// Current returns the tab's current top-level target, waiting while there
// is none (mid-navigation) until ctx ends, or for the client's
// RequestTimeout when ctx has no deadline. Running out of time with no
// target is ErrNoTarget (which also matches ctx.Err() when ctx ended);
// ErrTabClosed when the tab is gone; ErrClosed when the connection or the
// watch is.
func (h *TabWatch) Current(ctx context.Context) (Target, error) {
	t, err := h.w.wait(ctx, h.closed, func() bool { return true })
	if errors.Is(err, context.DeadlineExceeded) || (err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		err = fmt.Errorf("%w (tab %d, %w)", ErrNoTarget, h.w.tab.BrowserID, err)
	}
	return t, err
}

// HasTarget reports, without waiting, whether the tab has a current
// top-level target.
func (h *TabWatch) HasTarget() bool {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.top != nil && w.err == nil
}

// WaitReady waits until the current top-level document reached state:
// "loading", "interactive" (interactive or complete) or "complete".
func (h *TabWatch) WaitReady(ctx context.Context, state string) (Target, error) {
	want, ok := readyRank[state]
	if !ok || state == "" {
		return Target{}, fmt.Errorf("rdp: WaitReady: unknown state %q", state)
	}
	w := h.w
	return w.wait(ctx, h.closed, func() bool { return readyRank[w.ready] >= want })
}

// WaitNavigation waits until Navigations() has moved past after and the
// then-current top-level document reached state (as in WaitReady). Record
// after := w.Navigations() before triggering a navigation, so that the old
// document's readiness cannot be mistaken for the new one's.
func (h *TabWatch) WaitNavigation(ctx context.Context, after uint64, state string) (Target, error) {
	want, ok := readyRank[state]
	if !ok || state == "" {
		return Target{}, fmt.Errorf("rdp: WaitNavigation: unknown state %q", state)
	}
	w := h.w
	return w.wait(ctx, h.closed, func() bool { return w.navs > after && readyRank[w.ready] >= want })
}

// wait returns the top target once ok (called with w.mu held) holds. Every
// wait has a deadline: ctx's, else the client's RequestTimeout.
func (w *tabWatch) wait(ctx context.Context, closed <-chan struct{}, ok func() bool) (Target, error) {
	if _, has := ctx.Deadline(); !has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, w.c.opts.RequestTimeout)
		defer cancel()
	}
	for {
		select {
		case <-closed:
			return Target{}, errWatchClosed
		default:
		}
		w.mu.Lock()
		top, err, ch := w.top, w.err, w.changed
		good := top != nil && ok()
		w.mu.Unlock()
		if err != nil {
			return Target{}, err
		}
		if good {
			return *top, nil
		}
		select {
		case <-ch:
		case <-closed:
			return Target{}, errWatchClosed
		case <-ctx.Done():
			return Target{}, ctx.Err()
		}
	}
}

// Navigations counts top-level document changes seen so far: it increments
// when the top-level target is replaced, when it announces a navigation
// (will-navigate) and when its URL changes. Compare values for inequality;
// one navigation may count more than once.
func (h *TabWatch) Navigations() uint64 {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.navs
}

// Changed returns a channel that is closed at the watch's next change:
// a new or destroyed top-level target, a readiness step, a navigation
// counted by Navigations, the watch's end. Take the channel before reading
// the state it guards, so that no change falls between the two:
//
//	for ch := w.Changed(); w.Navigations() == before; ch = w.Changed() {
//		select {
//		case <-ch:
//		case <-ctx.Done():
//			return ctx.Err()
//		}
//	}
func (h *TabWatch) Changed() <-chan struct{} {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// Leaving reports whether Firefox announced that the current top-level
// document is being replaced (will-navigate) and no new one is there yet.
func (h *TabWatch) Leaving() bool {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.leaving
}

// Stayed tells the watch that the document Firefox said was being replaced
// (Leaving), the top document innerWindowID, stays: the load it began
// became a download, or ended without a new document (an HTTP 204). It is
// no longer leaving, and its readiness is what it was before. It reports
// whether the watch was leaving that document.
func (h *TabWatch) Stayed(innerWindowID int64) bool {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.leaving || w.top == nil || w.top.InnerWindowID != innerWindowID {
		return false
	}
	w.leaving = false
	w.ready = w.left
	w.broadcast()
	return true
}

// ReadyState is "loading", "interactive" or "complete" for the current top
// document, from document-event resources; "" when no target is current.
func (h *TabWatch) ReadyState() string {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ready
}

// Close ends this handle; its waits return an ErrClosed error. When it is
// the tab's last open handle, the watcher is unwatched: those requests never
// get replies, so they are sent without waiting.
func (h *TabWatch) Close() {
	h.closeOnce.Do(func() {
		close(h.closed)
		h.w.release()
	})
}

// release drops one handle's reference; the last one unwatches.
func (w *tabWatch) release() {
	last := false
	var actors []string
	w.c.update(func(s *state) {
		w.refs--
		if w.refs > 0 {
			return
		}
		last = true
		w.mu.Lock()
		actors = w.actors
		w.actors = nil
		w.mu.Unlock()
		for _, a := range actors {
			w.unroute(s, a)
		}
	})
	if !last {
		return
	}
	w.mu.Lock()
	alive := w.err == nil
	w.mu.Unlock()
	w.fail(errWatchClosed)
	if !alive || w.c.Err() != nil {
		return // tab closed or connection gone: nothing to unwatch
	}
	err := errors.Join(
		w.c.notify(w.watcher, watchResourcesRequest{Type: "unwatchResources", ResourceTypes: watchedResources}),
		w.c.notify(w.watcher, watchTargetsRequest{Type: "unwatchTargets", TargetType: "frame"}),
	)
	if err != nil {
		w.c.log.Debug("rdp unwatch failed", "watcher", w.watcher, "err", err)
	}
}
