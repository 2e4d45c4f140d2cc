package browser

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// A call that meets a Firefox that is still starting waits for it, within
// these bounds, instead of failing:
//   - refusedWait: its debugger socket exists but refuses connections
//     (Firefox has bound it and listens a moment later; a socket left by a
//     Firefox that exited refuses too, so the wait is short);
//   - startupWait: it answers but has no browser window yet, or its window
//     has not finished starting, so the active tab still shows the initial
//     about:blank in place of what the window will load (the user's pages,
//     or about:sessionrestore after a crash). Measured on a loaded 2-core
//     machine: the first window finished up to 8 s after the socket
//     appeared.
const (
	refusedWait  = time.Second
	startupWait  = 30 * time.Second
	startupPoll  = 150 * time.Millisecond
	startupTotal = 100 // the progress scale while waiting
)

// refused tells whether a dial failed because nothing listens yet, directly
// or as the broker reports it (its reason is text).
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "connection refused")
}

// dialStarting dials, retrying for up to refusedWait while the endpoint
// refuses connections.
func (s *Session) dialStarting(ctx context.Context) (Connection, error) {
	start := time.Now()
	for {
		c, err := s.dial(ctx)
		if err == nil || !refused(err) || time.Since(start) > refusedWait {
			return c, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// windowStarted reports whether Firefox's most recent browser window has
// finished starting. A Firefox whose parent-process console is refused
// (devtools.chrome.enabled off) cannot tell: it counts as started.
func (s *Session) windowStarted(ctx context.Context, c Connection) bool {
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return true
	}
	src, err := pagejs.BrowserStartup.Chrome(struct{}{})
	if err != nil {
		return true
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	var r pagejs.BrowserStartupResult
	if err == nil {
		err = pagejs.Decode(res, &r)
	}
	return err != nil || (r.Window && r.Ready)
}

// startedTabs lists the tabs once Firefox has a browser window that has
// finished starting and marks an active tab, waiting for that up to
// startupWait with progress on p. starting says it had to wait; timedOut
// that the wait ran out (the tabs are then as they are).
func (s *Session) startedTabs(ctx context.Context, p Progress) (tabs []rdp.Tab, starting, timedOut bool, err error) {
	start := time.Now()
	for {
		tabs, err = s.tabs(ctx)
		if err != nil {
			return nil, starting, false, err
		}
		if activeTab(tabs) >= 0 {
			c, err := s.conn(ctx)
			if err != nil {
				return nil, starting, false, err
			}
			if s.windowStarted(ctx, c) {
				return tabs, starting, false, nil
			}
		}
		starting = true
		took := time.Since(start)
		if took > startupWait {
			return tabs, true, true, nil
		}
		p.Report(float64(took*startupTotal/startupWait), startupTotal, "Firefox is still starting (its first window is not ready); waiting")
		select {
		case <-ctx.Done():
			return nil, true, false, ctx.Err()
		case <-time.After(startupPoll):
		}
	}
}

// useStarting is use for a tab of a Firefox that was seen starting: while
// its content process is still busy starting, attaching can time out
// (page_unresponsive) or meet the first document being replaced; that is
// retried until startupWait has passed since start.
func (s *Session) useStarting(ctx context.Context, tab rdp.Tab, starting bool, start time.Time, p Progress) (rdp.Target, error, uint64, error) {
	for {
		t, terr, gen, err := s.use(ctx, tab)
		e, ok := AsError(s.Classify(ctx, err))
		if err == nil || !starting || !ok || time.Since(start) > startupWait || ctx.Err() != nil ||
			(e.Code != errcode.PageUnresponsive && e.Code != errcode.TargetReplaced && e.Code != errcode.RDPTimeout) {
			return t, terr, gen, err
		}
		p.Report(float64(time.Since(start)*startupTotal/startupWait), startupTotal, "Firefox's first page is still loading; waiting")
		time.Sleep(startupPoll)
	}
}

// stillStarting is the error when Firefox's window did not finish starting
// within startupWait: a later call can succeed.
func stillStarting() *Error {
	e := Errorf(errcode.NoTabSelected, "Firefox has no browser window that finished starting after %v, so no tab was chosen; call again when Firefox shows its window (or call list_tabs, then select_tab)", startupWait)
	e.Transient = true
	return e
}

// young reports whether the Firefox the session is connected to started
// less than twice startupWait ago (its parent process's start time, from
// BrowserInstance): its first page may still be slow to answer even when
// its window had finished starting by the time the tabs were listed.
func (s *Session) young() bool {
	s.mu.Lock()
	started := s.instance.Started
	s.mu.Unlock()
	return started > 0 && time.Since(time.UnixMilli(int64(started))) < 2*startupWait
}
