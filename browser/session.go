package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// SandboxInfo is what browser_status reports about the process sandbox.
type SandboxInfo struct {
	Mode        string `json:"mode"`
	LandlockABI int    `json:"landlock_abi"`
	Seccomp     bool   `json:"seccomp"`
}

// Options configure a Session.
type Options struct {
	Config  config.Config
	Logger  *slog.Logger
	Files   Files // the broker client; nil = uploads unavailable
	Sandbox SandboxInfo
	Version string
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
}

// Session is the server's view of one Firefox: the RDP connection (dialled
// lazily, redialled after a failure), the selected tab, the element-reference
// generation and the refs of the latest snapshots. Tool calls may arrive
// concurrently; calls that touch the page run one at a time, in arrival
// order, because RDP replies are ordered and side effects must be too.
type Session struct {
	opts  Options
	log   *slog.Logger
	tools []toolDef
	byKey map[string]*toolDef

	op chan struct{} // one page operation at a time; waiting is cancellable

	mu         sync.Mutex // guards everything below
	client     *rdp.Client
	dialled    bool // a connection existed before: the next dial is a reconnect
	sel        *selection
	generation uint64
	refs       refTable
	realms     map[int64]*realm // isolated-realm probe per content process
	installs   int              // residents installed so far (for tests)
	sink       uploadSink       // the parent process's upload sink on client
}

// selection is the selected tab.
type selection struct {
	tab   rdp.Tab
	watch *rdp.TabWatch
	navs  uint64 // watch.Navigations() when the generation was last set
	// Residents (pagejs.Script.PageResident) of the current document's page
	// realm: their object actors by script name, valid while the document's
	// console is residentConsole. Guarded by Session.mu.
	residentConsole string
	residents       map[string]string
	// Residents of frame documents, by frame (frames.go residentSlotOf).
	frameResidents map[int64]*frameResidents
}

// New makes a session. It does not connect: tools/list and browser_status
// work without Firefox.
func New(opts Options) *Session {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Session{
		opts:   opts,
		log:    opts.Logger,
		op:     make(chan struct{}, 1),
		realms: map[int64]*realm{},
	}
	s.refs.reset()
	s.tools = toolTable()
	s.byKey = map[string]*toolDef{}
	c := opts.Config
	for i := range s.tools {
		t := &s.tools[i]
		if p := t.schema.Properties["max_elements"]; p != nil {
			m := float64(c.MaxElements)
			p.Maximum = &m
		}
		if p := t.schema.Properties["max_text_chars"]; p != nil {
			m := float64(c.MaxTextChars)
			p.Maximum = &m
		}
		b, err := json.Marshal(t.schema)
		if err != nil {
			panic(err) // the schema was parsed from JSON at start-up
		}
		t.InputSchema = b
		s.byKey[t.Name] = t
	}
	return s
}

// Tools lists the tools, with the configured limits in their schemas.
func (s *Session) Tools() []Tool {
	out := make([]Tool, len(s.tools))
	for i, t := range s.tools {
		out[i] = t.Tool
	}
	return out
}

// Call runs one tool. An unknown name is reported as ok == false, so the
// caller can answer with a protocol error; every other failure is an *Error.
func (s *Session) Call(ctx context.Context, name string, args json.RawMessage, p Progress) (res Result, err error, ok bool) {
	t := s.byKey[name]
	if t == nil {
		return Result{}, nil, false
	}
	if p == nil {
		p = noProgress{}
	}
	start := time.Now()
	res, err = t.run(ctx, s, args, p)
	err = s.classify(ctx, err)
	if e, isErr := AsError(err); isErr {
		s.log.Debug("tool failed", "tool", name, "code", e.Code, "ms", time.Since(start).Milliseconds())
	} else {
		s.log.Debug("tool done", "tool", name, "ms", time.Since(start).Milliseconds())
	}
	return res, err, true
}

type noProgress struct{}

func (noProgress) Report(float64, float64, string) {}

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

// classify turns any error into an *Error that is safe to show. Errors
// that are not ours are logged and replaced by a generic message.
func (s *Session) classify(ctx context.Context, err error) error {
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
		return errorf(CodeCancelled, "the call was cancelled")
	case errors.Is(err, rdp.ErrTimeout):
		s.dropBroken()
		return errorf(CodeRDPTimeout, "Firefox did not answer in time; the connection was reset and element refs invalidated (take a new snapshot)")
	case errors.Is(err, context.DeadlineExceeded):
		return errorf(CodeRDPTimeout, "the operation did not finish in time")
	case errors.Is(err, rdp.ErrTargetGone):
		return errorf(CodeTargetReplaced, "the page navigated or its document was replaced during the call; take a new snapshot")
	case errors.Is(err, rdp.ErrTabClosed):
		return errorf(CodeTabNotFound, "the selected tab was closed; use list_tabs and select_tab")
	case errors.Is(err, rdp.ErrClosed):
		s.dropBroken()
		return errorf(CodeConnectionLost, "the connection to Firefox was lost; the next call reconnects (element refs are invalidated)")
	case errors.As(err, &ae) && ae.Code == "noSuchActor":
		return errorf(CodeTargetReplaced, "the page's target went away (navigation or tab change); take a new snapshot")
	case errors.As(err, &ee):
		s.log.Debug("page script exception", "error", ee.Message)
		return errorf(CodePageScriptFailed, "a page script threw: %s", truncate(ee.Message, 300))
	case errors.Is(err, rdp.ErrProtocol), errors.As(err, &ae):
		s.log.Warn("rdp protocol error", "error", err)
		return errorf(CodeRDPProtocol, "Firefox sent an unexpected reply")
	}
	s.log.Error("internal error", "error", err)
	return errorf(CodeInternal, "internal error (details in the server's log)")
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
}

// dialTimeout bounds one connection attempt.
const dialTimeout = 5 * time.Second

// conn returns a live connection, dialling (and after a failure redialling)
// as needed. A reconnect starts a new generation and reselects the
// previously selected tab by its browserId, when it still exists.
func (s *Session) conn(ctx context.Context) (*rdp.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != nil {
		select {
		case <-s.client.Done():
			s.log.Info("rdp connection ended", "error", s.client.Err())
			s.dropLocked()
		default:
			return s.client, nil
		}
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := rdp.Dial(dctx, s.opts.Config.Addr, rdp.Options{
		RequestTimeout: s.opts.Config.RequestTimeout,
		Logger:         s.log.With("component", "rdp"),
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.log.Debug("rdp dial failed", "error", err)
		return nil, errorf(CodeNotConnected, "cannot reach Firefox's debugger at %s (%s). Start Firefox with --start-debugger-server ws:%d and devtools.debugger.remote-enabled=true (see README), or run `firefox-rdp-mcp doctor`",
			s.opts.Config.Addr, shortNetErr(err), s.opts.Config.Addr.Port())
	}
	s.client = c
	if s.dialled {
		s.newGenerationLocked()
		if s.sel != nil {
			s.reselectLocked(ctx, c)
		}
	}
	s.dialled = true
	return c, nil
}

// reselectLocked finds the previously selected tab again after a reconnect.
func (s *Session) reselectLocked(ctx context.Context, c *rdp.Client) {
	old := s.sel
	s.sel = nil
	tab, err := c.GetTab(ctx, old.tab.BrowserID)
	if err != nil {
		s.log.Info("previously selected tab is gone after reconnect", "tab", tabID(old.tab.BrowserID))
		return
	}
	w, err := c.WatchTab(ctx, tab)
	if err != nil {
		s.log.Info("cannot watch the previously selected tab", "error", err)
		return
	}
	s.sel = &selection{tab: tab, watch: w, navs: w.Navigations()}
}

func (s *Session) newGenerationLocked() {
	s.generation++
	s.refs.reset()
}

// page is what a page tool works with: the connection, the selected tab and
// the generation current when the call started.
type page struct {
	c          *rdp.Client
	sel        *selection
	generation uint64
	frame      *frameLoc // the frame document acted in (frames.go); nil: the top one
}

// selected returns the selected tab, first noting any navigation the
// watcher saw since the generation was set (which starts a new generation).
func (s *Session) selected(ctx context.Context) (page, error) {
	c, err := s.conn(ctx)
	if err != nil {
		return page{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == nil {
		return page{}, errorf(CodeNoTabSelected, "no tab is selected; call list_tabs, then select_tab")
	}
	s.syncLocked(s.sel)
	return page{c: c, sel: s.sel, generation: s.generation}, nil
}

// syncLocked starts a new generation when the tab navigated.
func (s *Session) syncLocked(sel *selection) bool {
	if n := sel.watch.Navigations(); n != sel.navs {
		sel.navs = n
		s.newGenerationLocked()
		return true
	}
	return false
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

func tabID(browserID int64) string { return "tab-" + strconv.FormatInt(browserID, 10) }

func parseTabID(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "tab-"), 10, 64)
	return n, err == nil && strings.HasPrefix(id, "tab-") && n >= 0
}

func shortNetErr(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "connection refused"):
		return "connection refused: nothing listens on that port"
	case strings.Contains(msg, "timeout"), strings.Contains(msg, "deadline"):
		return "timed out"
	}
	return truncate(msg, 160)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
