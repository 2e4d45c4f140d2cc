package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// SandboxInfo is what browser_status reports about the process sandbox.
type SandboxInfo struct {
	Mode        string `json:"mode"`
	LandlockABI int    `json:"landlock_abi"`
	Seccomp     bool   `json:"seccomp"`
}

// Options configure a Session: where Firefox's debugger listens, the limits
// the tools enforce, and what the process around the engine provides. cmd
// fills them from the configuration (internal/config), which the engine
// does not import.
type Options struct {
	// Socket is the debugger's Unix socket (the default endpoint); when it
	// is "", Host is the ws: endpoint's host as configured, for messages,
	// and Addr the loopback address it resolved to, the one dialled.
	Socket string
	Host   string
	Addr   netip.AddrPort
	// OpenSocket connects to Socket on the engine's behalf (the sandboxed
	// server's broker does: broker.Connector); nil = connect directly.
	OpenSocket SocketOpener
	// RequestTimeout bounds one RDP request (rdp.Options.RequestTimeout).
	RequestTimeout time.Duration
	// MaxElements and MaxTextChars cap a snapshot: they are the maximums of
	// the max_elements and max_text_chars arguments.
	MaxElements  int
	MaxTextChars int
	// ChunkBytes is how many raw bytes of a file one upload chunk carries.
	ChunkBytes int
	// UploadsEnabled says upload_files may run (Files must be set too).
	// UploadRoots are the directories the broker confines uploads to (none:
	// any readable file); the engine only reports how many there are.
	UploadsEnabled bool
	UploadRoots    []string

	Logger *slog.Logger
	Files  Files // the broker client; nil = uploads unavailable
	// Confirm asks the user before a consequential action (lock.go); nil
	// with ConfirmMode "window" (the default) or "elicit" makes every armed
	// gesture fail with confirmation_unavailable. ConfirmMode "elicit" asks
	// through the call's MCP client instead when the call's context carries
	// one (WithElicitation). ConfirmMode "off" (dev builds only) asks
	// nobody.
	Confirm     Confirmer
	ConfirmMode string
	Sandbox     SandboxInfo
	Version     string
	// PageRealmOnly runs every script in the page realm, as when Firefox
	// offers no isolated realm. For tests and benchmarks of that fallback.
	PageRealmOnly bool
	// ReadInPageRealm runs the small read-only scripts (waits, page info) in
	// the page realm even when the isolated realm is available. For
	// benchmarks.
	ReadInPageRealm bool
	// ReadInIsolatedRealm walks snapshots through the isolated realm from the
	// start instead of only when the page realm fails. For benchmarks.
	ReadInIsolatedRealm bool
	// NoUploadSink moves upload chunks through console evaluations even when
	// the parent process's upload sink is available. For tests and
	// benchmarks of that path.
	NoUploadSink bool
	// NoNodeBinding leaves snapshot refs unbound to their nodes (checked by
	// selector and fingerprint only). For benchmarks of the binding's cost.
	NoNodeBinding bool
	// Dial opens a connection to Firefox at ep; nil = DialRDP. Tests in
	// this package put a fake RDP peer (or a wrapper) in its place.
	Dial func(ctx context.Context, ep rdp.Endpoint, opts rdp.Options) (Connection, error)
}

// SocketOpener connects to the debugger's Unix socket for a process that
// cannot connect to a path itself; broker.Connector is one.
type SocketOpener interface {
	Open(ctx context.Context) (*os.File, error)
}

// Endpoint is where o dials: the Unix socket, or the ws: address.
func (o Options) Endpoint() rdp.Endpoint {
	if o.Socket == "" {
		return rdp.Endpoint{Addr: o.Addr}
	}
	ep := rdp.Endpoint{Socket: o.Socket}
	if o.OpenSocket != nil {
		ep.Open = func(ctx context.Context) (rdp.Stream, error) { return o.OpenSocket.Open(ctx) }
	}
	return ep
}

// debuggerArg is what Firefox's --start-debugger-server takes for ep.
func debuggerArg(ep rdp.Endpoint) string {
	if ep.Socket != "" {
		return ep.Socket
	}
	return "ws:" + strconv.Itoa(int(ep.Addr.Port()))
}

// Session is the server's view of one Firefox: the RDP connection (dialled
// lazily, redialled after a failure), the selected tab, the element-reference
// generation and the refs of the latest snapshots. Tool calls may arrive
// concurrently; calls that touch the page run one at a time, in arrival
// order, because RDP replies are ordered and side effects must be too.
type Session struct {
	opts    Options
	log     *slog.Logger
	started time.Time // when the session was made: list_downloads lists what started since

	op chan struct{} // one page operation at a time; waiting is cancellable
	// dialing admits one connection attempt (dial and reselection) at a
	// time; waiting is cancellable. Nothing waits on Firefox under mu.
	dialing chan struct{}

	mu          sync.Mutex // guards everything below; never held across a wait on Firefox
	client      Connection
	dialled     bool                         // a connection existed before: the next dial is a reconnect
	instance    pagejs.BrowserInstanceResult // the Firefox run client reached; zero when unknown
	lost        string                       // why the selection was cleared on a reconnect; "" when it was not
	sel         *selection
	generation  uint64
	refs        refTable
	realms      map[int64]*realm        // isolated-realm probe per content process
	probing     map[int64]chan struct{} // probes under way, by process (closed when done)
	marks       map[int64]chan struct{} // listener marks made or being made, by inner window (marks.go)
	installs    int                     // residents installed so far (for tests)
	warmKept    int                     // results of warm walks kept (for tests)
	warmAsked   int                     // warm walks waited for (for tests)
	warmAnswers int                     // warm walks waited for to their end, kept or not (for tests)
	sameAnswers int                     // snapshot reads answered "same" (for tests)
	wholeSent   map[string]int          // isolated-realm scripts sent whole so far, by name (for tests)
	priorLines  int                     // lines a rendering took from the one before (for tests)
	sink        uploadSink              // the parent process's upload sink on client
	kept        keptWatches             // watches of tabs selected before, for their console and network buffers
	opened      map[int64]bool          // tabs this server opened, by browserId (tabtools.go)
	stuck       map[string]time.Time    // consoles that did not acknowledge an evaluation, and when (eval.go ackFor)
}

// selection is the selected tab.
type selection struct {
	tab   rdp.Tab
	watch TabWatch
	navs  uint64 // watch.Navigations() when the generation was last set
	// Residents (pagejs.Script.PageResident) of the current document's page
	// realm by script name (eval.go resident), valid while the document's
	// console is residentConsole. Guarded by Session.mu.
	residentConsole string
	residents       map[string]resident
	// Residents of frame documents, by frame (frames.go residentSlotOf).
	frameResidents map[int64]*frameResidents
	// dialog: one of our actions opened a dialog that may still be open.
	// Guarded by Session.mu.
	dialog bool
	// kept is the last result of the snapshot resident of residentConsole,
	// which the resident may answer {same} to (see Session.snapshot); view
	// is the agent's last view of the document (observe.go). Guarded by
	// Session.mu.
	kept      keptSnapshot
	view      *pageView
	knownTabs map[int64]bool // the tabs the last observation saw (nil: none yet)
}

// New makes a session. It does not connect: tools/list and browser_status
// work without Firefox.
func New(opts Options) *Session {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Dial == nil {
		opts.Dial = DialRDP
	}
	s := &Session{
		opts:    opts,
		log:     opts.Logger,
		started: time.Now(),
		op:      make(chan struct{}, 1),
		dialing: make(chan struct{}, 1),
		realms:  map[int64]*realm{},
		probing: map[int64]chan struct{}{},
		marks:   map[int64]chan struct{}{},
	}
	s.refs.reset()
	return s
}

// Options are the options the session was made with.
func (s *Session) Options() Options { return s.opts }

// Close drops the RDP connection.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked()
}

// lock takes the page-operation lock, or gives up when ctx ends.
func (s *Session) lock(ctx context.Context) error {
	select {
	case s.op <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Session) unlock() { <-s.op }

// Classify turns any error into an *Error that is safe to show. Errors
// that are not ours are logged and replaced by a generic message.
func (s *Session) Classify(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if e, ok := AsError(err); ok {
		return e
	}
	var ae *rdp.ActorError
	var ee *rdp.EvalError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		// Whatever the step reported, the client cancelled the call.
		return Errorf(errcode.Cancelled, "the call was cancelled")
	case errors.Is(err, rdp.ErrUnresponsive):
		return pageUnresponsive()
	case errors.Is(err, rdp.ErrNoTarget):
		return targetGone()
	case errors.Is(err, rdp.ErrTimeout):
		return Errorf(errcode.RDPTimeout, "Firefox did not answer in time; try again, or take a new snapshot")
	case errors.Is(err, context.DeadlineExceeded):
		return Errorf(errcode.RDPTimeout, "the operation did not finish in time")
	case errors.Is(err, rdp.ErrTargetGone):
		return Errorf(errcode.TargetReplaced, "the page navigated or its document was replaced during the call; take a new snapshot")
	case errors.Is(err, rdp.ErrTabClosed):
		return Errorf(errcode.TabNotFound, "the selected tab was closed; use list_tabs and select_tab")
	case errors.Is(err, rdp.ErrClosed):
		s.dropBroken()
		return Errorf(errcode.ConnectionLost, "the connection to Firefox was lost; the next call reconnects (element refs are invalidated)")
	case errors.As(err, &ae) && ae.Code == "noSuchActor":
		return Errorf(errcode.TargetReplaced, "the page's target went away (navigation or tab change); take a new snapshot")
	case errors.As(err, &ee):
		s.log.Debug("page script exception", "error", ee.Message)
		return Errorf(errcode.PageScriptFailed, "a page script threw an exception (its message, which the page can shape, is below)").WithPage("Exception", ee.Message, 300)
	case errors.Is(err, rdp.ErrProtocol), errors.As(err, &ae):
		s.log.Warn("rdp protocol error", "error", err)
		return Errorf(errcode.RDPProtocolError, "Firefox sent an unexpected reply")
	}
	s.log.Error("internal error", "error", err)
	return Errorf(errcode.InternalError, "internal error (details in the server's log)")
}

func pageUnresponsive() *Error {
	return Errorf(errcode.PageUnresponsive, "the page is not answering: a script on it seems stuck in a loop, which blocks its whole content process (other tabs of the same site too). "+
		"Work in another tab (list_tabs, select_tab), or navigate this tab away once Firefox's slow-script warning has stopped the script, then try again")
}

func targetGone() *Error {
	return Errorf(errcode.TargetGone, "the tab shows no document this server can reach: it navigated (for example through a redirect to a file: or about: URL, which Firefox does not expose) and no new page arrived. "+
		"Navigate the tab to an http(s) URL, or select another tab")
}

// dropBroken forgets a connection that failed, so the next call redials.
func (s *Session) dropBroken() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked()
}

func (s *Session) dropLocked() {
	if s.sel != nil {
		if s.sel.watch != nil {
			s.sel.watch.Close()
			s.sel.watch = nil
		}
		// Actor names start over with a new connection (and a restarted
		// Firefox): a resident's name could come back meaning something else.
		s.sel.residentConsole, s.sel.residents = "", nil
	}
	if s.client != nil {
		s.client.Close()
		s.client = nil
	}
	s.realms = map[int64]*realm{}
	s.sink = uploadSink{}
	s.kept.closeAll()
	s.opened = nil // a new connection may be to a restarted Firefox: ids can mean other tabs
	s.stuck = nil
}

// dialTimeout bounds one connection attempt, reselection included. A
// refused or missing endpoint fails at once; the bound is for a Firefox
// that accepted the connection and is slow to greet and answer while it
// starts (over 5 s seen on a loaded machine).
const dialTimeout = 15 * time.Second

// conn returns a live connection, dialling (and after a failure redialling)
// as needed. A reconnect starts a new generation and reselects the
// previously selected tab, but only when it is provably the same tab (see
// reselect). The session lock is not held while Firefox is asked anything.
func (s *Session) conn(ctx context.Context) (Connection, error) {
	if c := s.live(); c != nil {
		return c, nil
	}
	select {
	case s.dialing <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.dialing }()
	if c := s.live(); c != nil {
		return c, nil // another call dialled meanwhile
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := s.dialStarting(dctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.log.Debug("rdp dial failed", "error", err)
		ep := s.opts.Endpoint()
		return nil, Errorf(errcode.NotConnected, "cannot reach Firefox's debugger at %s (%s). If Firefox is starting, call again in a few seconds. "+
			"Otherwise Firefox is not running with its debugger server: it opens it only when started with --start-debugger-server %s "+
			"and with devtools.debugger.remote-enabled=true, devtools.chrome.enabled=true and devtools.debugger.prompt-connection=false in its profile "+
			"(the user can run `firefox-rdp-mcp setup` to set them, then `firefox-rdp-mcp doctor`, which names what is missing)",
			ep, shortNetErr(err), debuggerArg(ep))
	}
	inst, ierr := browserInstance(dctx, c)
	if ierr != nil {
		s.log.Info("cannot tell which run of Firefox this is", "error", ierr)
	}
	s.mu.Lock()
	old, reconnect, prev := s.sel, s.dialled, s.instance
	s.mu.Unlock()
	var sel *selection
	lost := ""
	if reconnect && old != nil {
		sel, lost = s.reselect(dctx, c, old.tab, prev, inst)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.client, s.instance, s.dialled = c, inst, true
	if reconnect {
		s.newGenerationLocked()
		if old != nil && s.sel == old {
			s.sel = sel
			if lost != "" {
				s.lost = lost
			}
		} else if sel != nil {
			sel.watch.Close() // a select_tab made meanwhile wins
		}
	}
	return c, nil
}

// dial opens a connection to Firefox's debugger.
func (s *Session) dial(ctx context.Context) (Connection, error) {
	return s.opts.Dial(ctx, s.opts.Endpoint(), rdp.Options{
		RequestTimeout: s.opts.RequestTimeout,
		Logger:         s.log.With("component", "rdp"),
	})
}

// live returns the current connection when it is still up.
func (s *Session) live() Connection {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		return nil
	}
	select {
	case <-s.client.Done():
		s.log.Info("rdp connection ended", "error", s.client.Err())
		s.dropLocked()
		return nil
	default:
		return s.client
	}
}

// browserInstance identifies the run of Firefox c is connected to.
func browserInstance(ctx context.Context, c Connection) (pagejs.BrowserInstanceResult, error) {
	var r pagejs.BrowserInstanceResult
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return r, err
	}
	src, err := pagejs.BrowserInstance.Chrome(struct{}{})
	if err != nil {
		return r, err
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	if err == nil {
		err = pagejs.Decode(res, &r)
	}
	if err == nil && r.PID == 0 && r.Started == 0 {
		err = errors.New("no process id or start time in the answer")
	}
	return r, err
}

// reselect finds the previously selected tab again after a reconnect. Tab
// ids (browserId) start over when Firefox restarts, and getTab finds any
// browser element (an extension's background page too), so the tab is
// taken back only when this is the same run of Firefox and the tab is an
// ordinary tab of its list. Otherwise the selection is cleared and lost
// says why.
func (s *Session) reselect(ctx context.Context, c Connection, old rdp.Tab, prev, now pagejs.BrowserInstanceResult) (sel *selection, lost string) {
	id := TabID(old.BrowserID)
	switch {
	case prev == (pagejs.BrowserInstanceResult{}) || now == (pagejs.BrowserInstanceResult{}):
		return nil, "the connection to Firefox was re-established, but whether Firefox restarted could not be checked, so the selection (" + id + ") was cleared; call list_tabs, then select_tab"
	case prev != now:
		s.log.Info("Firefox restarted; selection cleared", "tab", id)
		return nil, "Firefox restarted since " + id + " was selected; tab ids start over after a restart, so the selection was cleared (refs too). Call list_tabs, then select_tab"
	}
	tabs, err := listTabs(ctx, c)
	if err != nil {
		return nil, "the connection to Firefox was re-established, but its tabs could not be listed, so the selection (" + id + ") was cleared; call list_tabs, then select_tab"
	}
	for _, t := range tabs {
		if t.BrowserID != old.BrowserID {
			continue
		}
		if !ordinaryTab(t.URL) {
			return nil, "after reconnecting, " + id + " no longer shows an ordinary web page, so it was not selected again; call list_tabs, then select_tab"
		}
		t, err := withActor(ctx, c, t)
		var w TabWatch
		if err == nil {
			w, err = c.WatchTab(ctx, t)
		}
		if err != nil {
			s.log.Info("cannot watch the previously selected tab", "error", err)
			return nil, "after reconnecting, " + id + " could not be followed again, so the selection was cleared; call list_tabs, then select_tab"
		}
		return &selection{tab: t, watch: w, navs: w.Navigations()}, ""
	}
	s.log.Info("previously selected tab is gone after reconnect", "tab", id)
	return nil, "the selected tab (" + id + ") was closed while the connection to Firefox was down; call list_tabs, then select_tab"
}

// ordinaryTab reports whether a tab at rawURL shows an ordinary web page
// (or a blank one), as opposed to an extension's page (moz-extension:) or
// one of Firefox's privileged about: pages.
func ordinaryTab(rawURL string) bool {
	if rawURL == "about:blank" {
		return true
	}
	u, err := url.Parse(rawURL)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "file")
}

func (s *Session) newGenerationLocked() {
	s.generation++
	s.refs.reset()
}

// page is what a page tool works with: the connection, the selected tab and
// the generation current when the call started.
type page struct {
	c          Connection
	sel        *selection
	generation uint64
	frame      *frameLoc // the frame document acted in (frames.go); nil: the top one
}

// selected returns the selected tab for a page tool, as selectedTab does,
// and fails with dialog_open while a dialog one of our actions opened is
// still up (page scripts would run underneath it, in a page the user sees
// blocked).
func (s *Session) selected(ctx context.Context) (page, error) {
	pg, err := s.selectedTab(ctx)
	if err != nil {
		return page{}, err
	}
	if err := s.pendingDialog(ctx, pg); err != nil {
		return page{}, err
	}
	return pg, nil
}

// pendingDialog reports dialog_open when an action of ours opened a dialog
// in the tab and it is still open; once it is closed, the mark goes.
func (s *Session) pendingDialog(ctx context.Context, pg page) error {
	s.mu.Lock()
	marked := pg.sel.dialog
	s.mu.Unlock()
	if !marked {
		return nil
	}
	st, err := s.dialog(ctx, pg)
	if err != nil {
		return err
	}
	if st.Open {
		return dialogError(st)
	}
	s.markDialog(pg.sel, false)
	return nil
}

// markDialog notes (or forgets) that an action opened a dialog in sel.
func (s *Session) markDialog(sel *selection, open bool) {
	s.mu.Lock()
	sel.dialog = open
	s.mu.Unlock()
}

// selectedTab returns the selected tab, first noting any navigation the
// watcher saw since the generation was set (which starts a new generation).
func (s *Session) selectedTab(ctx context.Context) (page, error) {
	c, err := s.conn(ctx)
	if err != nil {
		return page{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != nil && s.sel.watch == nil {
		return page{}, Errorf(errcode.ConnectionLost, "the connection to Firefox was lost; the next call reconnects (element refs are invalidated)")
	}
	if s.sel == nil {
		// The tool table selected the active tab (AutoSelect) before the
		// tool ran unless
		// the selection was lost (Firefox restarted, a select_tab failed
		// half-way): that is reported until the agent selects a tab.
		if s.lost != "" {
			return page{}, Errorf(errcode.NoTabSelected, "no tab is selected: %s", s.lost)
		}
		return page{}, Errorf(errcode.NoTabSelected, "no tab is selected; call list_tabs, then select_tab")
	}
	s.syncLocked(s.sel)
	s.kept.keep(s.sel)
	return page{c: c, sel: s.sel, generation: s.generation}, nil
}

// syncLocked reports whether the tab navigated since the generation was
// last checked, and then starts a new generation — unless the current one
// has issued no refs yet. The watcher counts one navigation several times
// (will-navigate, the new target, its URL), often spread over more than one
// call; a generation nothing was issued in has nothing to invalidate, so
// those late counts belong to the navigation that already started it, and
// the generation moves by one per navigation.
func (s *Session) syncLocked(sel *selection) bool {
	n := sel.watch.Navigations()
	if n == sel.navs {
		return false
	}
	sel.navs = n
	if s.refs.issued() {
		s.newGenerationLocked()
	}
	return true
}

// sync is syncLocked for callers that do not hold the lock; it reports
// whether the page navigated.
func (s *Session) sync(sel *selection) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != sel {
		return true
	}
	return s.syncLocked(sel)
}

func TabID(browserID int64) string { return "tab-" + strconv.FormatInt(browserID, 10) }

func ParseTabID(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "tab-"), 10, 64)
	return n, err == nil && strings.HasPrefix(id, "tab-") && n >= 0
}

func shortNetErr(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "connection refused"):
		return "connection refused: nothing listens there"
	case strings.Contains(msg, "timeout"), strings.Contains(msg, "deadline"):
		return "timed out"
	}
	return Truncate(msg, 160)
}

// Truncate cuts s to at most n runes, marking a cut with "…".
func Truncate(s string, n int) string {
	if len(s) <= n { // bytes ≥ runes: nothing to count
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
