package browser

import (
	"context"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Connection is what the engine needs of one RDP Connection: exactly the
// methods of *rdp.Client it calls, so a test can put something else in
// between (Options.Dial). Values that come back are rdp's own data types;
// errors are rdp's, matched with errors.Is/As as for *rdp.Client.
//
// An implementation must be comparable with ==: the upload sink is
// remembered per Connection (uploadSink.c).
type Connection interface {
	// Greeting is the root actor's first packet; Describe asks the device
	// actor what Firefox this is (doctor's version check, Probe).
	Greeting() rdp.Greeting
	Describe(ctx context.Context) (rdp.Device, error)
	// Done is closed when the connection has ended; Err then says why.
	Done() <-chan struct{}
	Err() error
	// Close ends the connection; pending and later calls fail with
	// rdp.ErrClosed.
	Close() error

	// Request sends a packet to an actor and decodes its reply into resp;
	// RequestData does so with data attached as the packet's base64 "data".
	Request(ctx context.Context, to string, req, resp any) error
	RequestData(ctx context.Context, to string, req any, data []byte, sent func(), resp any) error

	// EvaluateString evaluates src in a console and returns its string
	// result; EvaluateObject returns the actor of its object result.
	EvaluateString(ctx context.Context, console, src string, opts rdp.EvalOptions) (string, error)
	EvaluateObject(ctx context.Context, console, src string, opts rdp.EvalOptions) (string, error)
	// ParentProcessConsole and ContentProcessConsole name the privileged
	// consoles of the parent process and of one content process.
	ParentProcessConsole(ctx context.Context) (string, error)
	ContentProcessConsole(ctx context.Context, processID int64) (string, error)

	// ListTabs lists the browser's tabs; GetTab finds one by browserId
	// (rdp.ErrTabClosed when it is gone).
	ListTabs(ctx context.Context) ([]rdp.Tab, error)
	GetTab(ctx context.Context, browserID int64) (rdp.Tab, error)
	// WatchTab starts following a tab through its watcher.
	WatchTab(ctx context.Context, tab rdp.Tab) (TabWatch, error)

	// PrepareCapture and Capture take a screenshot of a target.
	PrepareCapture(ctx context.Context, t rdp.Target, fullPage bool) (rdp.CaptureInfo, error)
	Capture(ctx context.Context, req rdp.CaptureRequest) (rdp.Capture, error)
}

// TabWatch is what the engine needs of one watch of a tab (*rdp.TabWatch):
// its current documents, their readiness and navigations, and the console
// and network buffers.
type TabWatch interface {
	// Current waits for the tab's current top-level target (rdp.ErrNoTarget
	// when none comes in time, rdp.ErrTabClosed when the tab is gone);
	// HasTarget tells without waiting whether there is one.
	Current(ctx context.Context) (rdp.Target, error)
	HasTarget() bool
	// WaitReady waits until the top document reached a readyState;
	// ReadyState is the current one. Leaving tells whether Firefox said the
	// top document is being replaced (will-navigate) and no new one is there
	// yet.
	WaitReady(ctx context.Context, state string) (rdp.Target, error)
	ReadyState() string
	Leaving() bool
	// Stayed says that the top document innerWindowID, which Leaving said was
	// being replaced, stays (its load became a download); it reports
	// whether it was leaving.
	Stayed(innerWindowID int64) bool
	// Navigations counts top-level document changes (compare for
	// inequality).
	Navigations() uint64
	// Changed is closed at the watch's next change (a navigation, a
	// target), for waits that must not poll.
	Changed() <-chan struct{}
	// Frames lists the tab's frame targets; Frame finds one by its
	// browsing context id.
	Frames() []rdp.Target
	Frame(id int64) (rdp.Target, bool)

	// Console and Network return the buffered entries and how many older
	// ones were evicted; Request finds one network entry, RequestDetails
	// asks Firefox for its headers and bodies.
	Console() ([]rdp.ConsoleEntry, uint64)
	Network() ([]rdp.NetworkEntry, uint64)
	Request(seq uint64) (rdp.NetworkEntry, bool)
	RequestDetails(ctx context.Context, seq uint64, maxBody int) (rdp.RequestDetails, error)

	// Clone returns another handle on the same watch (its buffers live
	// until every handle is closed); Err is non-nil once the tab or the
	// connection is gone; Close ends this handle.
	Clone() (TabWatch, error)
	Err() error
	Close()
}

// DialRDP is the default Options.Dial: a real RDP connection.
func DialRDP(ctx context.Context, ep rdp.Endpoint, opts rdp.Options) (Connection, error) {
	c, err := rdp.DialEndpoint(ctx, ep, opts)
	if err != nil {
		return nil, err
	}
	return rdpClient{c}, nil
}

// rdpClient is a connection over *rdp.Client; only WatchTab differs, to hand
// out the watch as a tabWatch.
type rdpClient struct{ *rdp.Client }

func (c rdpClient) WatchTab(ctx context.Context, tab rdp.Tab) (TabWatch, error) {
	w, err := c.Client.WatchTab(ctx, tab)
	if err != nil {
		return nil, err // never a typed nil in the interface
	}
	return rdpWatch{w}, nil
}

// rdpWatch is a tabWatch over *rdp.TabWatch; only Clone differs.
type rdpWatch struct{ *rdp.TabWatch }

func (w rdpWatch) Clone() (TabWatch, error) {
	h, err := w.TabWatch.Clone()
	if err != nil {
		return nil, err
	}
	return rdpWatch{h}, nil
}

// The adapters implement the interfaces.
var (
	_ Connection = rdpClient{}
	_ TabWatch   = rdpWatch{}
)
