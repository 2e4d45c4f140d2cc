// Package headless starts a throwaway headless Firefox with its DevTools
// server listening on a Unix socket in a private directory (or, when asked,
// on a loopback WebSocket port), for tests and the demo.
//
// It is test and demo infrastructure, not part of the server: the server
// itself never starts a browser, it connects to the user's own Firefox. The
// launched Firefox gets a fresh temporary profile whose user.js enables the
// remote debugger without a connection prompt and silences first-run pages,
// updates, telemetry, Safe Browsing and other background network traffic
// (the test machines have no internet access).
//
// # Limitations
//
//   - Linux-only in practice: the process is put in its own process group and
//     the whole group is killed with SIGKILL on Stop. Firefox never gets a
//     chance to shut down cleanly; the profile is deleted afterwards.
//   - With Options.WebSocket, the debugger port is found by binding
//     127.0.0.1:0 and closing it before Firefox starts, so another process
//     could in principle take it in between; Start then fails with a clear
//     error. Such a ws: endpoint is reachable by every web page on a loopback
//     origin (Firefox checks no Origin): only tests of that case ask for it.
//   - The DevTools server accepts any connection to its socket with full
//     chrome privileges. Never point it at a real profile.
//
// Example (one Firefox per test package):
//
//	var firefox headless.Shared
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		firefox.Stop()
//		os.Exit(code)
//	}
//
//	func TestSomething(t *testing.T) {
//		ff := firefox.Get(t) // skips (or fails, with FIREFOX_MCP_REQUIRE_FIREFOX=1) when Firefox is missing
//		client, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
//		…
//	}
package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// RequireEnv is the environment variable that turns "Firefox not found" from a
// skipped test into a failed one (CI sets it to 1).
const RequireEnv = "FIREFOX_MCP_REQUIRE_FIREFOX"

// StartTimeout bounds how long Start waits for the debugger greeting when the
// context has no earlier deadline.
const StartTimeout = 60 * time.Second

// ErrNotFound reports that no Firefox binary could be found.
var ErrNotFound = errors.New("headless: no firefox-esr or firefox binary found in PATH")

// Options configures Start.
type Options struct {
	Binary string               // "" = find firefox-esr or firefox in PATH
	URL    string               // first tab; "" = about:blank
	Logf   func(string, ...any) // progress messages; nil = silent
	// WebSocket starts the debugger server on a loopback ws: port instead of
	// a Unix socket, for tests of that legacy endpoint.
	WebSocket bool
}

// Firefox is one running headless Firefox.
type Firefox struct {
	// Socket is the debugger server's Unix socket, in a 0700 directory of
	// its own; "" with Options.WebSocket.
	Socket string
	// Addr is 127.0.0.1:port of the ws: debugger server with
	// Options.WebSocket; the zero value otherwise.
	Addr       netip.AddrPort
	PID        int
	ProfileDir string
	socketDir  string

	opts   Options
	binary string

	mu     sync.Mutex // guards cmd, exited, stderr
	cmd    *exec.Cmd
	exited chan struct{} // closed when the current process has been reaped
	stderr *ring
}

// pref is one user.js preference and why the test profile sets it.
type pref struct {
	name   string
	value  any
	reason string
}

// prefs are written to user.js. Each entry carries its reason.
var prefs = []pref{
	{"devtools.debugger.remote-enabled", true, "allow --start-debugger-server"},
	{"devtools.chrome.enabled", true, "allow the parent-process (chrome) console"},
	{"devtools.debugger.prompt-connection", false, "no modal prompt per debugger connection"},
	{"browser.shell.checkDefaultBrowser", false, "no default-browser dialog"},
	{"browser.startup.homepage_override.mstone", "ignore", "no what's-new page"},
	{"startup.homepage_welcome_url", "about:blank", "no first-run page"},
	{"startup.homepage_welcome_url.additional", "", "no second first-run page"},
	{"browser.aboutwelcome.enabled", false, "no onboarding page"},
	{"trailhead.firstrun.didSeeAboutWelcome", true, "no onboarding page"},
	{"termsofuse.bypassNotification", true, "no terms-of-use notification"},
	{"browser.sessionstore.resume_from_crash", false, "a killed Firefox restarts clean"},
	{"browser.startup.couldRestoreSession.count", -1, "no restore-session offer"},
	{"toolkit.startup.max_resumed_crashes", -1, "no safe-mode prompt after kills"},
	{"browser.tabs.warnOnClose", false, "closing tabs never prompts"},
	{"browser.tabs.warnOnCloseOtherTabs", false, "closing tabs never prompts"},
	{"browser.warnOnQuit", false, "quitting never prompts"},
	{"browser.tabs.unloadOnLowMemory", false, "tabs stay loaded under test"},
	{"app.update.disabledForTesting", true, "no update checks"},
	{"app.update.auto", false, "no update downloads"},
	{"app.normandy.enabled", false, "no studies"},
	{"app.normandy.api_url", "", "no studies"},
	{"app.shield.optoutstudies.enabled", false, "no studies"},
	{"datareporting.policy.dataSubmissionEnabled", false, "no telemetry"},
	{"datareporting.policy.dataSubmissionPolicyBypassNotification", true, "no telemetry notice"},
	{"datareporting.healthreport.uploadEnabled", false, "no telemetry"},
	{"datareporting.usage.uploadEnabled", false, "no telemetry"},
	{"toolkit.telemetry.enabled", false, "no telemetry"},
	{"toolkit.telemetry.unified", false, "no telemetry"},
	{"toolkit.telemetry.archive.enabled", false, "no telemetry"},
	{"toolkit.telemetry.server", "", "no telemetry"},
	{"browser.ping-centre.telemetry", false, "no telemetry"},
	{"browser.safebrowsing.malware.enabled", false, "no Safe Browsing downloads"},
	{"browser.safebrowsing.phishing.enabled", false, "no Safe Browsing downloads"},
	{"browser.safebrowsing.downloads.enabled", false, "no Safe Browsing downloads"},
	{"browser.safebrowsing.blockedURIs.enabled", false, "no Safe Browsing downloads"},
	{"browser.safebrowsing.update.enabled", false, "no Safe Browsing downloads"},
	{"services.settings.server", "data:,#remote-settings-dummy/v1", "no remote-settings sync"},
	{"extensions.update.enabled", false, "no add-on updates"},
	{"extensions.getAddons.cache.enabled", false, "no add-on metadata fetches"},
	{"extensions.systemAddon.update.enabled", false, "no system add-on updates"},
	{"extensions.blocklist.enabled", false, "no blocklist fetches"},
	{"browser.search.update", false, "no search-engine updates"},
	{"browser.region.network.url", "", "no region lookup"},
	{"browser.region.update.enabled", false, "no region lookup"},
	{"geo.provider.network.url", "", "no geolocation lookups"},
	{"network.captive-portal-service.enabled", false, "no captive-portal probes"},
	{"network.connectivity-service.enabled", false, "no connectivity probes"},
	{"network.dns.disablePrefetch", true, "no speculative DNS"},
	{"network.prefetch-next", false, "no speculative fetches"},
	{"network.predictor.enabled", false, "no speculative connections"},
	{"network.http.speculative-parallel-limit", 0, "no speculative connections"},
	{"browser.newtabpage.enabled", false, "blank new tabs"},
	{"browser.newtab.preload", false, "no preloaded new-tab page"},
	{"browser.newtabpage.activity-stream.feeds.system.topstories", false, "no Pocket fetches"},
	{"browser.newtabpage.activity-stream.feeds.section.topstories", false, "no Pocket fetches"},
	{"browser.newtabpage.activity-stream.feeds.snippets", false, "no snippet fetches"},
	{"browser.newtabpage.activity-stream.showSponsoredTopSites", false, "no sponsored tiles"},
	{"browser.topsites.contile.enabled", false, "no sponsored tiles"},
	{"browser.discovery.enabled", false, "no recommendations"},
	{"browser.urlbar.suggest.searches", false, "no search suggestions"},
	{"browser.urlbar.merino.endpointURL", "", "no suggestion server"},
	{"browser.translations.enable", false, "no translation models"},
	{"browser.ml.enable", false, "no ML model downloads"},
	{"browser.backup.enabled", false, "no profile backups"},
	{"browser.pagethumbnails.capturing_disabled", true, "no thumbnail work"},
	{"browser.uitour.enabled", false, "no UI tour"},
	{"identity.fxaccounts.enabled", false, "no Firefox Account"},
	{"dom.push.connection.enabled", false, "no push server connection"},
	{"media.gmp-manager.url", "", "no media plugin downloads"},
	{"media.gmp-gmpopenh264.enabled", false, "no media plugin downloads"},
	{"captivedetect.canonicalURL", "", "no captive-portal probe URL"},
	{"security.certerrors.mitm.priming.enabled", false, "no MITM-detection fetch"},
	{"security.remote_settings.intermediates.enabled", false, "no certificate fetches"},
	{"signon.rememberSignons", false, "no password prompts"},
	{"dom.ipc.reportProcessHangs", false, "no hang reports"},
	{"datareporting.healthreport.service.enabled", false, "no telemetry"},
}

// DownloadDir is where the Firefox of a profile made by Start saves
// downloads: the folder "downloads" inside the profile.
func DownloadDir(profileDir string) string { return filepath.Join(profileDir, "downloads") }

// downloadPrefs make Firefox save every download into the profile's own
// folder (DownloadDir) without asking, as a user's Firefox set to "save
// files to" a folder does.
func downloadPrefs(profileDir string) []pref {
	return []pref{
		{"browser.download.dir", DownloadDir(profileDir), "downloads stay inside the throwaway profile"},
		{"browser.download.folderList", 2, "save into browser.download.dir"},
		{"browser.download.useDownloadDir", true, "save without a file picker"},
		{"browser.download.always_ask_before_handling_new_types", false, "no dialog for a new file type"},
		{"browser.download.alwaysOpenPanel", false, "no downloads panel opening"},
		{"browser.download.start_downloads_in_tmp_dir", false, "the file is saved where browser.download.dir says"},
	}
}

// userJS renders prefs (and the download prefs of the profile in
// profileDir) as user.js text.
func userJS(profileDir string) (string, error) {
	var b strings.Builder
	b.WriteString("// written by internal/headless for a throwaway test profile\n")
	for _, p := range append(prefs[:len(prefs):len(prefs)], downloadPrefs(profileDir)...) {
		name, err := json.Marshal(p.name)
		if err != nil {
			return "", err
		}
		val, err := json.Marshal(p.value)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "user_pref(%s, %s); // %s\n", name, val, p.reason)
	}
	return b.String(), nil
}

// Find returns the path of firefox-esr or, failing that, firefox in PATH.
func Find() (string, error) {
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// TB is the part of testing.TB that SkipOrFail needs. An interface, so
// that this package, which the demo binary links, never imports testing.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Available reports the Firefox binary tests would use, or ErrNotFound.
func Available() (string, error) { return Find() }

// SkipOrFail does nothing when err is nil. When err says no Firefox was found
// it skips the test, unless FIREFOX_MCP_REQUIRE_FIREFOX=1, then it fails it.
// Any other error (Firefox found but would not start) fails the test.
func SkipOrFail(t TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, ErrNotFound) && os.Getenv(RequireEnv) != "1" {
		t.Skipf("skipping browser test: %v (set %s=1 to fail instead)", err, RequireEnv)
	}
	t.Fatalf("firefox: %v", err)
}

// Start launches a headless Firefox with a fresh profile and a free debugger
// port, and returns once the DevTools server has sent its root greeting and
// lists the first tab.
func Start(ctx context.Context, opts Options) (*Firefox, error) {
	bin := opts.Binary
	if bin == "" {
		var err error
		if bin, err = Find(); err != nil {
			return nil, err
		}
	}
	dir, err := os.MkdirTemp("", "firefox-rdp-mcp-profile-")
	if err != nil {
		return nil, fmt.Errorf("headless: profile: %w", err)
	}
	js, err := userJS(dir)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "user.js"), []byte(js), 0o600)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("headless: user.js: %w", err)
	}
	f := &Firefox{ProfileDir: dir, opts: opts, binary: bin}
	if err := f.endpoint(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := f.launch(ctx); err != nil {
		f.removeFiles()
		return nil, err
	}
	return f, nil
}

// endpoint chooses where the debugger server listens: a free loopback port,
// or a socket in a new 0700 directory (os.MkdirTemp makes it so).
func (f *Firefox) endpoint() error {
	if f.opts.WebSocket {
		port, err := freePort()
		if err != nil {
			return fmt.Errorf("headless: free port: %w", err)
		}
		f.Addr = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
		return nil
	}
	dir, err := os.MkdirTemp("", "firefox-rdp-mcp-rdp-")
	if err != nil {
		return fmt.Errorf("headless: socket directory: %w", err)
	}
	f.socketDir, f.Socket = dir, filepath.Join(dir, "rdp.sock")
	return nil
}

// DebuggerArg is the --start-debugger-server argument Firefox was started with.
func (f *Firefox) DebuggerArg() string {
	if f.Socket != "" {
		return f.Socket
	}
	return "ws:" + strconv.Itoa(int(f.Addr.Port()))
}

// Endpoint names the debugger server for messages.
func (f *Firefox) Endpoint() string {
	if f.Socket != "" {
		return "unix:" + f.Socket
	}
	return "ws://" + f.Addr.String() + "/"
}

func (f *Firefox) removeFiles() error {
	if f.socketDir != "" {
		os.RemoveAll(f.socketDir)
	}
	return os.RemoveAll(f.ProfileDir)
}

func (f *Firefox) logf(format string, args ...any) {
	if f.opts.Logf != nil {
		f.opts.Logf(format, args...)
	}
}

func freePort() (uint16, error) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return uint16(l.Addr().(*net.TCPAddr).Port), nil
}

// launch starts the process and waits for the greeting. On error the process
// (if any) has been killed and reaped; the profile is left to the caller.
func (f *Firefox) launch(ctx context.Context) error {
	url := f.opts.URL
	if url == "" {
		url = "about:blank"
	}
	cmd := exec.Command(f.binary,
		"--headless", "--no-remote",
		"--profile", f.ProfileDir,
		"--start-debugger-server", f.DebuggerArg(),
		url)
	cmd.Env = append(os.Environ(),
		"MOZ_HEADLESS=1",
		"MOZ_CRASHREPORTER_DISABLE=1",
		"MOZ_CRASHREPORTER_SHUTDOWN=1",
		"MOZ_DISABLE_AUTO_SAFE_MODE=1",
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:   true,            // own process group: Stop kills content processes too
		Pdeathsig: syscall.SIGKILL, // do not outlive a crashed test binary
	}
	stderr := newRing(64 << 10)
	cmd.Stdout = stderr // Firefox's stdout is diagnostics too; never ours
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("headless: start %s: %w", f.binary, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait() //nolint:errcheck // exit status of a killed browser is uninteresting
		close(exited)
	}()
	f.mu.Lock()
	f.cmd, f.exited, f.stderr, f.PID = cmd, exited, stderr, cmd.Process.Pid
	f.mu.Unlock()

	wctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	if err := waitGreeting(wctx, f, exited); err != nil {
		f.kill()
		return fmt.Errorf("headless: firefox (pid %d) did not start its debugger server on %s after %v: %w\nstderr tail:\n%s",
			cmd.Process.Pid, f.Endpoint(), time.Since(start).Round(time.Millisecond), err, stderr.tail(4<<10))
	}
	f.logf("headless: firefox pid %d ready on %s in %v", cmd.Process.Pid, f.Endpoint(), time.Since(start).Round(time.Millisecond))
	return nil
}

// waitGreeting polls until the debugger server delivers a packet from "root".
func waitGreeting(ctx context.Context, f *Firefox, exited <-chan struct{}) error {
	var last error
	for {
		select {
		case <-exited:
			return errors.New("firefox exited")
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("%w (last attempt: %v)", ctx.Err(), last)
			}
			return ctx.Err()
		default:
		}
		if f.Socket != "" {
			last = trySocketGreeting(ctx, f.Socket)
		} else {
			last = tryGreeting(ctx, f.Addr)
		}
		if last == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("firefox exited")
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func tryGreeting(ctx context.Context, addr netip.AddrPort) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d := websocket.Dialer{
		NetDialContext:   (&net.Dialer{}).DialContext,
		HandshakeTimeout: 5 * time.Second,
	}
	conn, resp, err := d.DialContext(ctx, "ws://"+addr.String()+"/", nil)
	if err != nil {
		return err
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	conn.SetReadDeadline(deadline)
	conn.SetReadLimit(1 << 20)
	return greetAndList(conn.ReadJSON, func(v any) error { return conn.WriteJSON(v) })
}

// greetAndList reads the root greeting, then lists the tabs until the first
// one is there: the debugger server greets before the first browser window
// exists, and tests use the first tab at once.
func greetAndList(read func(v any) error, write func(v any) error) error {
	var g struct {
		From string `json:"from"`
	}
	if err := read(&g); err != nil {
		return fmt.Errorf("reading greeting: %w", err)
	}
	if g.From != "root" {
		return fmt.Errorf("greeting from %q, want root", g.From)
	}
	if err := write(map[string]string{"to": "root", "type": "listTabs"}); err != nil {
		return fmt.Errorf("listTabs: %w", err)
	}
	for {
		var reply struct {
			From string            `json:"from"`
			Type string            `json:"type"`
			Tabs []json.RawMessage `json:"tabs"`
		}
		if err := read(&reply); err != nil {
			return fmt.Errorf("reading listTabs reply: %w", err)
		}
		if reply.From != "root" || reply.Type != "" {
			continue // an event
		}
		if len(reply.Tabs) == 0 {
			return errors.New("no tab yet")
		}
		return nil
	}
}

// kill SIGKILLs the process group and waits until the main process is reaped.
func (f *Firefox) kill() {
	f.mu.Lock()
	cmd, exited := f.cmd, f.exited
	f.mu.Unlock()
	if cmd == nil {
		return
	}
	pid := cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGKILL) // the group: content processes too
	cmd.Process.Kill()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		f.logf("headless: firefox pid %d not reaped 30s after SIGKILL", pid)
	}
	// Content processes (same group, reparented to init once the parent is
	// gone) may linger for a moment: wait, bounded, until the group is empty
	// so that no process still writes into the profile we are about to remove.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := syscall.Kill(-pid, 0); errors.Is(err, syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			f.logf("headless: process group %d not empty 10s after SIGKILL", pid)
			break
		}
		syscall.Kill(-pid, syscall.SIGKILL)
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills Firefox's process group, waits for it and removes the profile.
// It is safe to call more than once.
func (f *Firefox) Stop() error {
	if f == nil {
		return nil
	}
	f.kill()
	f.mu.Lock()
	f.cmd = nil
	f.mu.Unlock()
	if f.ProfileDir == "" {
		return nil
	}
	err := f.removeFiles()
	if err != nil {
		return fmt.Errorf("headless: remove profile: %w", err)
	}
	return nil
}

// Restart kills Firefox and starts it again on the same profile and port
// (e.g. to test what clients do when the browser disappears). It returns
// once the new DevTools server has greeted.
func (f *Firefox) Restart(ctx context.Context) error {
	f.kill()
	var err error
	// The port is normally free at once (the listener is gone with the
	// process); retry briefly in case the kernel still holds it.
	for attempt := 0; attempt < 3; attempt++ {
		if err = f.launch(ctx); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return err
}

// StderrTail returns up to n bytes of Firefox's most recent stderr/stdout.
func (f *Firefox) StderrTail(n int) string {
	f.mu.Lock()
	r := f.stderr
	f.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.tail(n)
}

// ring keeps the last max bytes written to it.
type ring struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newRing(max int) *ring { return &ring{max: max} }

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	return len(p), nil
}

func (r *ring) tail(n int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.buf
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// Shared is one Firefox started lazily for a whole test package: the first
// Get starts it, later calls return the same one, TestMain calls Stop.
type Shared struct {
	Options Options

	mu  sync.Mutex
	ff  *Firefox
	err error
	ran bool
}

// Get returns the package's Firefox, starting it on first use. When none can
// be started it calls SkipOrFail (and so does not return).
func (s *Shared) Get(t TB) *Firefox {
	t.Helper()
	s.mu.Lock()
	if !s.ran {
		s.ran = true
		ctx, cancel := context.WithTimeout(context.Background(), StartTimeout+10*time.Second)
		s.ff, s.err = Start(ctx, s.Options)
		cancel()
	}
	ff, err := s.ff, s.err
	s.mu.Unlock()
	SkipOrFail(t, err)
	return ff
}

// Stop stops the shared Firefox if one was started.
func (s *Shared) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ff != nil {
		s.ff.Stop()
	}
}
