package browser

// The engine's state, opened to the behaviour tests (package browser_test,
// which drive the engine through the tool table) where a test checks what
// the engine did, not only what a tool said. Test builds only.

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Timeouts the tests bound their waits by.
const (
	AckTimeout   = ackTimeout
	TargetWait   = targetWait
	WatchTimeout = watchTimeout
)

// Marker prefixes of an untrusted block, and the characters escape writes
// as \u{…}, for tests that parse answers.
const (
	MarkerOpen = markerOpen
	MarkerEnd  = markerEnd
)

var RawSpecials = rawSpecials

// BrowserInstance reads which run of Firefox c reaches.
func BrowserInstance(ctx context.Context, c Connection) (pagejs.BrowserInstanceResult, error) {
	return browserInstance(ctx, c)
}

// Installs is how many residents the session installed so far.
func (s *Session) Installs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.installs
}

// WholeSent is how many times the isolated-realm script name ("": any)
// was sent whole so far.
func (s *Session) WholeSent(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != "" {
		return s.wholeSent[name]
	}
	n := 0
	for _, k := range s.wholeSent {
		n += k
	}
	return n
}

// BindingReadied reports whether an isolated realm keeps the node binding's
// script (prepareRealm readied it, or a read sent it).
func (s *Session) BindingReadied() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.realms {
		if r.ok && r.kept[pagejs.BindRefs.Name()] {
			return true
		}
	}
	return false
}

// ForgetKeptCopy makes the isolated realm believe its console keeps a copy
// of script that it was never sent; false when there is no isolated realm,
// or the copy is kept already.
func (s *Session) ForgetKeptCopy(script pagejs.Script) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.realms {
		if r.ok && !r.kept[script.Name()] {
			r.kept[script.Name()] = true
			return true
		}
	}
	return false
}

// WarmKept is how many warm walks' results the session kept so far.
func (s *Session) WarmKept() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warmKept
}

// WarmAnswers is how many warm walks the session waited for to their end
// (their answer handled, kept or not, or the wait given up).
func (s *Session) WarmAnswers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warmAnswers
}

// WarmSettled tells whether no installation is pending in the selected tab
// and every warm walk the session waits for has ended.
func (s *Session) WarmSettled() bool {
	if s.InstallPending() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warmAnswers == s.warmAsked
}

// SameAnswers is how many snapshot reads a resident answered "same".
func (s *Session) SameAnswers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sameAnswers
}

// KeptSeq is the number of the selected document's kept snapshot result
// (0: none yet).
func (s *Session) KeptSeq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.kept.seq
}

// HeldBinding identifies the node binding held for the kept result (nil:
// none), which a {same} answer is given without waiting.
func (s *Session) HeldBinding() any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.kept.bound
}

// SpoilHeldBinding replaces the held binding with one whose ids the
// isolated realm never gave, as if it had lost its ids behind the session's
// back, and reports whether there was one.
func (s *Session) SpoilHeldBinding() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := &s.sel.kept
	if k.bound == nil {
		return false
	}
	b := *k.bound
	b.ids = make([]int, len(k.bound.ids))
	for i, id := range k.bound.ids {
		b.ids[i] = id + 1<<20
	}
	k.bound, k.lines = &b, nil
	return true
}

// InstallPending reports whether a resident of the selected tab's document
// is being installed.
func (s *Session) InstallPending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.sel.residents {
		if r.state == residentPending {
			return true
		}
	}
	return false
}

// PriorLines is how many lines renderings took from the one before so far.
func (s *Session) PriorLines() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.priorLines
}

// RenderKeptAfresh renders the selected tab's kept result again, every line
// made anew (none taken from an earlier rendering), with the generation and
// node binding its last rendering had.
func (s *Session) RenderKeptAfresh() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := &s.sel.kept
	c := k.lines
	if c == nil {
		return nil
	}
	d := &docSnap{t: rdp.Target{InnerWindowID: c.window}, r: k.res, b: binding{ids: c.ids}}
	w := s.docInfoLocked(s.sel, d)
	pg := page{sel: s.sel}
	var lines []string
	for i := range d.r.Elements {
		lines = append(lines, "["+s.refFor(pg, c.gen, d, w, i)+"] "+w.body(i, &d.r.Elements[i]))
	}
	return lines
}

// KeptRendering identifies the rendering of the kept result (nil: none).
func (s *Session) KeptRendering() any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.kept.lines
}

// TouchRefs changes the ref table's epoch, as replacing a locator does.
func (s *Session) TouchRefs() {
	s.mu.Lock()
	s.refs.epoch++
	s.mu.Unlock()
}

// Watch is the selected tab's watch.
func (s *Session) Watch() TabWatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.watch
}

// Selected is the selected tab and the run of Firefox the session saw.
func (s *Session) Selected() (rdp.Tab, pagejs.BrowserInstanceResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.tab, s.instance
}

// Conn is the session's connection, dialled if needed.
func (s *Session) Conn(ctx context.Context) (Connection, error) { return s.conn(ctx) }

// KeepTabs bounds the kept watches (default maxKeptTabs).
func (s *Session) KeepTabs(n int) {
	s.mu.Lock()
	s.kept.max = n
	s.mu.Unlock()
}

// UsedSink reports whether the parent process's upload sink was set up.
func (s *Session) UsedSink() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sink.actor != ""
}

// Chrome runs a chrome script in Firefox's parent process.
func (s *Session) Chrome(ctx context.Context, script pagejs.Script, args, out any) error {
	pg, err := s.selectedTab(ctx)
	if err != nil {
		return err
	}
	return s.chrome(ctx, pg, script, args, out)
}

// SelectedBrowserID is the selected tab's browserId.
func (s *Session) SelectedBrowserID() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.tab.BrowserID
}

// SnapshotResident is the actor of the selected document's snapshot
// resident ("" for none) and the connection it lives on.
func (s *Session) SnapshotResident() (string, Connection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel.residents[pagejs.Snapshot.Name()].actor, s.client
}

// FailInstall installs the snapshot resident on a console that does not
// exist, as a failing installation does, and returns the state it left
// (the selection's residents are restored after).
func (s *Session) FailInstall() string {
	s.mu.Lock()
	sel, c := s.sel, s.client
	saved, savedConsole := sel.residents, sel.residentConsole
	ready := make(chan struct{})
	sel.residentConsole, sel.residents = "server1.conn99.nosuchconsole", map[string]resident{pagejs.Snapshot.Name(): {state: residentPending, ready: ready, since: time.Now()}}
	s.mu.Unlock()
	s.install(c, residentSlot{&sel.residentConsole, &sel.residents, &sel.kept}, "server1.conn99.nosuchconsole", pagejs.Snapshot, ready)
	s.mu.Lock()
	defer s.mu.Unlock()
	got := sel.residents[pagejs.Snapshot.Name()].state
	sel.residents, sel.residentConsole = saved, savedConsole
	return got.String()
}

// ResidentFailed is how a failed installation's state reads.
var ResidentFailed = residentFailed.String()

// CallResidentCancelled makes the first resident call of the selected
// document with a context cancelled before it reaches Firefox, and returns
// whether a mark was left for the resident (and which), and its error.
func (s *Session) CallResidentCancelled(ctx context.Context) (mark string, marked bool, err error) {
	pg, err := s.selected(ctx)
	if err != nil {
		return "", false, err
	}
	tg, err := pg.sel.watch.Current(ctx)
	if err != nil {
		return "", false, err
	}
	s.mu.Lock()
	pg.sel.residentConsole, pg.sel.residents = "", nil
	s.mu.Unlock()
	cancelled, stop := context.WithCancel(ctx)
	stop()
	_, err = s.callResident(cancelled, pg, tg, tg.ConsoleActor, pagejs.Snapshot, pagejs.SnapshotArgs{})
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := pg.sel.residents[pagejs.Snapshot.Name()]
	return m.state.String(), ok, err
}

// Unquote inverts Quote (without truncation).
var Unquote = unquote

// DropConnection drops the connection as a broken one is dropped.
func (s *Session) DropConnection() { s.dropBroken() }

// Reselect decides, as a reconnect does, whether tab stays selected when
// the session saw the run prev of Firefox and now reaches the run now; it
// returns whether it did and why not.
func (s *Session) Reselect(ctx context.Context, c Connection, tab rdp.Tab, prev, now pagejs.BrowserInstanceResult) (kept bool, why string) {
	sel, why := s.reselect(ctx, c, tab, prev, now)
	if sel != nil {
		sel.watch.Close()
	}
	return sel != nil, why
}

// SetElicitTimeout shortens the wait for the MCP client's answer to a
// confirmation; the returned function restores it.
func SetElicitTimeout(d time.Duration) func() {
	old := elicitTimeout
	elicitTimeout = d
	return func() { elicitTimeout = old }
}
