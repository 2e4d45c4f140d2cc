package doctor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// probe is one doctor run against Firefox.
type probe struct {
	o        Options
	port     int    // the ws: endpoint's port (0 with the socket)
	socket   string // the Unix socket ("" with ws:)
	start    time.Time
	deadline time.Time
	said     string // the last progress line, not repeated
}

// startupGrace is how young a Firefox must be for a closed port or a
// missing answer to count as "still starting" rather than a failure.
const startupGrace = 60 * time.Second

func newProbe(o Options) *probe {
	now := time.Now()
	return &probe{o: o, port: int(o.Config.Addr.Port()), socket: o.Config.Socket, start: now, deadline: now.Add(o.Wait)}
}

// verdict is the outcome of one attempt: the checks so far and, when
// Firefox is still starting, why to try again.
type verdict struct {
	checks []check
	retry  string
}

func (v verdict) add(c check) verdict {
	v.checks = append(v.checks, c)
	return v
}

// run attempts the Firefox checks until they no longer say "starting" or
// the wait is over; the checks of the last attempt are the answer.
func (p *probe) run() []check {
	waited := false
	for {
		v := p.attempt()
		if v.retry == "" {
			if waited && blocked(v.checks) {
				p.progress(fmt.Sprintf("stopped waiting after %.1f s", time.Since(p.start).Seconds()))
			} else if waited {
				p.progress(fmt.Sprintf("Firefox ready after %.1f s", time.Since(p.start).Seconds()))
			}
			return v.checks
		}
		if !time.Now().Before(p.deadline) {
			last := &v.checks[len(v.checks)-1]
			last.ok, last.blocking = false, true
			last.detail = fmt.Sprintf("still not ready after waiting %v: %s", p.o.Wait.Round(time.Second), v.retry)
			if last.fix == "" {
				last.fix = "if Firefox is busy, run doctor again; otherwise restart Firefox"
			}
			return v.checks
		}
		p.progress(v.retry + fmt.Sprintf("; waiting (up to %v)…", p.o.Wait.Round(time.Second)))
		waited = true
		time.Sleep(200 * time.Millisecond)
	}
}

func blocked(checks []check) bool {
	for _, c := range checks {
		if !c.ok && c.blocking {
			return true
		}
	}
	return false
}

func (p *probe) progress(msg string) {
	if msg == p.said {
		return
	}
	p.said = msg
	fmt.Fprintf(p.o.Progress, "doctor: %s\n", msg)
}

// arg is what Firefox's --start-debugger-server takes for the endpoint.
func (p *probe) arg() string { return p.o.Config.DebuggerArg() }

func (p *probe) startCmd() string {
	return fmt.Sprintf("run `firefox-rdp-mcp setup --write` (it sets the three preferences%s, and prints the command for your profile), then start Firefox with the command it prints, `firefox-esr --profile YOUR-PROFILE --start-debugger-server %s`, or with its launcher",
		map[bool]string{true: ", creates the socket's directory", false: ""}[p.socket != ""], p.arg())
}

// serves reports whether f was started with the configured endpoint.
func (p *probe) serves(f firefoxProc) bool {
	if p.socket != "" {
		return f.Socket == p.socket
	}
	return f.Port == p.port
}

// attempt runs the checks once.
func (p *probe) attempt() verdict {
	if p.socket != "" {
		return p.attemptSocket()
	}
	addr := p.o.Config.Addr.String()
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return p.refused("connection refused on " + addr)
		}
		return verdict{}.add(check{name: "endpoint reachable", detail: err.Error(), fix: p.startCmd(), blocking: true})
	}
	conn.Close()
	v := verdict{}.add(check{name: "endpoint reachable", ok: true, detail: "TCP " + addr})
	v = v.add(check{name: "ws: endpoint", detail: wsWarning, fix: wsFix})
	if g := p.greeting(); g.retry != "" || !g.checks[0].ok {
		v.checks = append(v.checks, g.checks...)
		v.retry = g.retry
		return v
	}
	return p.session(v)
}

// refused explains a closed port (or a missing or stale socket) from the
// Firefox processes and profiles; what says the connection failure.
func (p *probe) refused(what string) verdict {
	fail := func(detail, fix string) verdict {
		return verdict{}.add(check{name: "endpoint reachable", detail: detail, fix: fix, blocking: true})
	}
	procs := firefoxProcs()
	if !p.hasPort(procs) && time.Since(p.start) < appearGrace {
		// Started a moment ago (firefox & doctor): its process may not
		// have been exec'd yet.
		return verdict{retry: fmt.Sprintf("no Firefox with --start-debugger-server %s is running yet", p.arg())}.
			add(check{name: "endpoint reachable", detail: what, blocking: true})
	}
	if len(procs) == 0 {
		return fail(fmt.Sprintf("%s: Firefox is not running", what), p.startCmd())
	}
	for _, f := range procs {
		if !p.serves(f) || (p.socket == "" && !f.WS) {
			continue
		}
		if why := p.safeMode(f); why != "" {
			return fail(fmt.Sprintf("%s: Firefox (pid %d) runs in safe mode: %s; in safe mode Firefox ignores its arguments and opens no debugger server", what, f.PID, why), safeModeFix)
		}
		if missing, where := p.profileMissing(f); missing != "" {
			return fail(fmt.Sprintf("Firefox (pid %d) was started with --start-debugger-server %s, but %s in %s: Firefox opens no debugger server without devtools.debugger.remote-enabled=true and devtools.chrome.enabled=true", f.PID, f.Server, missing, where),
				"quit Firefox, run `firefox-rdp-mcp setup --write` (it sets devtools.debugger.remote-enabled, devtools.chrome.enabled = true and devtools.debugger.prompt-connection = false), then start Firefox the same way again")
		}
		if f.Age < startupGrace {
			return verdict{retry: fmt.Sprintf("Firefox (pid %d) is starting and has not opened %s yet", f.PID, p.o.Config.Endpoint())}.
				add(check{name: "endpoint reachable", detail: what, blocking: true})
		}
		return fail(fmt.Sprintf("Firefox (pid %d) was started %s ago with --start-debugger-server %s, but %s", f.PID, f.Age.Round(time.Second), f.Server, what),
			"Firefox opens its debugger server only with devtools.debugger.remote-enabled=true and devtools.chrome.enabled=true (and devtools.debugger.prompt-connection=false to connect unattended): quit Firefox, run `firefox-rdp-mcp setup --write`, start it again")
	}
	for _, f := range procs {
		// Restarted in safe mode with its arguments not kept (Firefox keeps
		// them only for its crash reporter, which Debian's build and
		// MOZ_CRASHREPORTER_DISABLE turn off): it cannot be told whether it
		// was started for this endpoint, and in safe mode it opens none.
		if f.Safe != "" && f.Server == "" {
			return fail(fmt.Sprintf("%s: Firefox (pid %d) runs in safe mode: %s; in safe mode Firefox ignores its arguments and opens no debugger server (the arguments it was started with are not known)", what, f.PID, f.Safe), safeModeFix)
		}
	}
	return fail(p.elsewhere(procs, what))
}

// elsewhere explains a failed connection when no Firefox was started for
// the endpoint: one runs without the flag, with another transport, or on
// another endpoint.
func (p *probe) elsewhere(procs []firefoxProc, what string) (detail, fix string) {
	var others []string
	var other *firefoxProc
	for i, f := range procs {
		if f.Socket != "" || (f.Server != "" && f.WS) {
			others = append(others, fmt.Sprintf("Firefox (pid %d) has its debugger server on %s", f.PID, f.Server))
			other = &procs[i]
		}
	}
	also := ""
	if len(others) > 0 {
		also = "; " + strings.Join(others, "; ")
	}
	for _, f := range procs {
		if p.socket == "" && f.Port == p.port && !f.WS && f.Socket == "" {
			return fmt.Sprintf("Firefox (pid %d) was started with --start-debugger-server %s, the plain TCP transport; this server speaks WebSocket", f.PID, f.Server),
				fmt.Sprintf("quit Firefox and start it with --start-debugger-server %s", p.arg())
		}
	}
	var without []string
	comm := "firefox-esr"
	for _, f := range procs {
		if f.Server == "" {
			without = append(without, strconv.Itoa(f.PID))
			comm = f.Comm
		}
	}
	if len(without) > 0 {
		return fmt.Sprintf("%s: Firefox (pid %s) is running without --start-debugger-server%s", what, strings.Join(without, ", pid "), also),
			fmt.Sprintf("quit Firefox (every window), then start it with `%s --profile YOUR-PROFILE --start-debugger-server %s` (`firefox-rdp-mcp setup` prints it with your profile): while it runs, starting it again only opens a window in the running Firefox, without a debugger server", comm, p.arg())
	}
	if other == nil {
		return what + also, p.startCmd()
	}
	if other.Socket != "" {
		return what + also, envFix("FIREFOX_RDP_SOCKET", other.Socket) + fmt.Sprintf(", or restart Firefox with --start-debugger-server %s", p.arg())
	}
	if p.socket != "" {
		return what + also, fmt.Sprintf("restart Firefox with --start-debugger-server %s (a Unix socket no web page can reach; a ws: endpoint is reachable by every web page on a loopback origin)", p.arg())
	}
	return what + also, envFix("FIREFOX_RDP_PORT", strconv.Itoa(other.Port)) + fmt.Sprintf(", or restart Firefox with --start-debugger-server %s", p.arg())
}

// appearGrace is how long doctor looks for a Firefox process started with
// its port before it explains a closed port without one.
const appearGrace = 3 * time.Second

func (p *probe) hasPort(procs []firefoxProc) bool {
	for _, f := range procs {
		if p.serves(f) {
			return true
		}
	}
	return false
}

// greeting checks that the port speaks Firefox's debugger protocol over
// WebSocket and greets, telling the connection prompt (handshake, then
// silence) from another program (no WebSocket at all).
func (p *probe) greeting() verdict {
	g := browser.Greet(context.Background(), p.o.Config.Addr, 3*time.Second)
	if g.Handshake != nil {
		c := p.notFirefox(g)
		if f, ok := p.firefoxOnPort(); ok && f.WS && !g.PlainTCP && p.prompts(f) {
			// With its prompt on, Firefox asks before it completes the
			// handshake.
			return p.silent("Firefox accepted the connection but did not complete the WebSocket handshake within 3 s")
		}
		if f, ok := p.firefoxOnPort(); ok && f.WS && f.Age < startupGrace {
			return verdict{retry: "Firefox has opened the port but does not answer on it yet (still starting)"}.add(c)
		}
		return verdict{}.add(c)
	}
	if g.Greeted {
		return verdict{}.add(check{name: "Firefox greeting", ok: true, detail: "Firefox's debugger server (WebSocket) greeted"})
	}
	return p.silent("the WebSocket opened but Firefox sent no greeting within 3 s")
}

// prompts reports whether f's profile leaves the connection prompt on
// (devtools.debugger.prompt-connection not false; false when the profile
// is unknown).
func (p *probe) prompts(f firefoxProc) bool {
	st, where := p.profilePrefs(f)
	v, set := st["devtools.debugger.prompt-connection"]
	return where != "" && (!set || v != "false")
}

// silent explains a connection Firefox accepted without greeting: its
// connection prompt is on screen, or it is still starting, or it hangs.
func (p *probe) silent(prompt string) verdict {
	if f, ok := p.firefoxOnPort(); ok {
		if _, where := p.profilePrefs(f); p.prompts(f) {
			return verdict{}.add(check{name: "Firefox greeting", blocking: true,
				detail: prompt + ": Firefox is asking on screen whether to allow the connection (devtools.debugger.prompt-connection is not false in " + where + ")",
				fix:    "deny the prompt, quit Firefox, run `firefox-rdp-mcp setup --write` (sets devtools.debugger.prompt-connection=false), start Firefox again"})
		}
		if f.Age < startupGrace {
			return verdict{retry: "Firefox has not greeted yet (still starting)"}.add(check{name: "Firefox greeting", detail: prompt, blocking: true})
		}
	}
	return verdict{}.add(check{name: "Firefox greeting", blocking: true, detail: prompt + ": the connection prompt is probably on, or Firefox is hung",
		fix: "set devtools.debugger.prompt-connection=false (`firefox-rdp-mcp setup --write` with Firefox closed), then restart Firefox"})
}

// notFirefox explains a port that answers but not with Firefox's WebSocket
// debugger server.
func (p *probe) notFirefox(g browser.Greeting) check {
	c := check{name: "Firefox greeting", blocking: true}
	if g.PlainTCP {
		c.detail = "Firefox's debugger server on this port speaks the plain TCP transport, not WebSocket"
		c.fix = fmt.Sprintf("quit Firefox and start it with --start-debugger-server ws:%d (note the ws:)", p.port)
		return c
	}
	owner := portOwner(p.port)
	if owner == "" {
		owner = "an unknown process"
	}
	c.detail = fmt.Sprintf("the port answers but not as Firefox's debugger server (no WebSocket: %v); it is held by %s", shortErr(g.Handshake), owner)
	c.fix = fmt.Sprintf("start Firefox's debugger server on a free port (--start-debugger-server ws:N) and %s", envFix("FIREFOX_RDP_PORT", "N"))
	return c
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// firefoxOnPort finds the Firefox process started with our endpoint.
func (p *probe) firefoxOnPort() (firefoxProc, bool) {
	for _, f := range firefoxProcs() {
		if p.serves(f) {
			return f, true
		}
	}
	return firefoxProc{}, false
}
