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
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{})
	var r pagejs.BrowserStartupResult
	if err == nil {
		err = pagejs.Decode(res, &r)
	}
	return err != nil || (r.Window && r.Ready)
}

// startedTabs lists the tabs once Firefox has a browser window that has
// finished starting and marks an active tab, waiting for that up to
// startupWait with progress on p. After the wait it returns the tabs as
// they are, and waited true.
func (s *Session) startedTabs(ctx context.Context, p Progress) (tabs []rdp.Tab, waited bool, err error) {
	start := time.Now()
	for {
		tabs, err = s.tabs(ctx)
		if err != nil {
			return nil, false, err
		}
		if activeTab(tabs) >= 0 {
			c, err := s.conn(ctx)
			if err != nil {
				return nil, false, err
			}
			if s.windowStarted(ctx, c) {
				return tabs, false, nil
			}
		}
		took := time.Since(start)
		if took > startupWait {
			return tabs, true, nil
		}
		p.Report(float64(took*startupTotal/startupWait), startupTotal, "Firefox is still starting (its first window is not ready); waiting")
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-time.After(startupPoll):
		}
	}
}

// stillStarting is the error when Firefox's window did not finish starting
// within startupWait: a later call can succeed.
func stillStarting() *Error {
	e := Errorf(errcode.NoTabSelected, "Firefox has no browser window that finished starting after %v, so no tab was chosen; call again when Firefox shows its window (or call list_tabs, then select_tab)", startupWait)
	e.Transient = true
	return e
}
