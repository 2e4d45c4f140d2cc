// Package doctor is the `firefox-rdp-mcp doctor` subcommand: it checks
// everything the server needs — the configuration, Firefox's debugger
// server, page evaluation, trusted input, uploads and the kernel sandbox —
// and names the real cause of each failure with its fix.
//
// It runs as the user, outside the sandbox, and changes nothing. To tell
// "not started", "started without the flag", "the preferences are missing",
// "still starting", "the connection prompt is on" and "another program has
// the port" apart, it reads /proc (this user's Firefox processes, their
// command lines and age, and who listens on the port) and the Firefox
// profile's prefs.js and user.js. What it asks Firefox itself goes through
// the engine (browser.Greet, browser.Probe): doctor speaks no protocol. A
// Firefox that is still starting is waited for, within Options.Wait, with a
// progress line on Options.Progress.
//
// # Limitations
//
// It sees only this user's processes; a Firefox in a flatpak or snap
// sandbox may hide its command line. It checks with the environment of the
// shell it runs in: an MCP client passes the server its own "env" entry.
package doctor

import (
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"io"
	"os"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// Options are what doctor needs from the program around it.
type Options struct {
	Config    config.Config
	ConfigErr error // the configuration could not be loaded
	Out       io.Writer
	Progress  io.Writer // a line per state while waiting for Firefox (stderr)
	// Wait bounds how long a Firefox that is still starting is waited for
	// (0 = DefaultWait).
	Wait      time.Duration
	Home      string // for finding the Firefox profile's preferences
	XDGConfig string
	Sandbox   func() sandbox.Support // sandbox.Probe
	// Window says whether a confirmation window can be shown (confirm.Probe
	// of this environment); nil skips the check.
	Window func() confirm.Availability
}

// DefaultWait is how long doctor waits for a Firefox that is still starting.
const DefaultWait = 30 * time.Second

// check is one doctor line.
type check struct {
	name, detail, fix string
	ok, blocking      bool
}

// Run prints one line per check, with a fix for each failure, and returns
// the exit code: 1 when something blocks use, else 0.
func Run(o Options) int {
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	var checks []check
	if o.ConfigErr != nil {
		checks = append(checks, check{name: "configuration", detail: strings.ReplaceAll(o.ConfigErr.Error(), "\n", "; "),
			fix: "correct the variables named above in the MCP client's \"env\" entry (`firefox-rdp-mcp -h` lists them)", blocking: true})
	} else {
		cfg := o.Config
		detail := "debugger endpoint " + cfg.Endpoint() + " (a Unix socket)"
		if cfg.Socket == "" {
			detail = fmt.Sprintf("debugger endpoint %s (%s is loopback; a ws: endpoint, chosen by FIREFOX_RDP_HOST/FIREFOX_RDP_PORT)", cfg.Endpoint(), cfg.Host)
		}
		checks = append(checks, check{name: "configuration", ok: true, detail: detail})
		checks = append(checks, newProbe(o).run()...)
		checks = append(checks, rootChecks(cfg)...)
		if o.Window != nil {
			checks = append(checks, confirmCheck(cfg.Confirm, o.Window()))
		}
	}
	checks = append(checks, sandboxCheck(o.Sandbox()))
	return report(o.Out, checks)
}

func report(w io.Writer, checks []check) int {
	failed := false
	for _, c := range checks {
		mark := "ok  "
		if !c.ok {
			mark = "FAIL"
			if !c.blocking {
				mark = "warn"
			}
			failed = failed || c.blocking
		}
		fmt.Fprintf(w, "[%s] %-22s %s\n", mark, c.name, c.detail)
		if !c.ok && c.fix != "" {
			fmt.Fprintf(w, "       %-22s fix: %s\n", "", c.fix)
		}
	}
	fmt.Fprintln(w, "\nThese checks use this shell's environment; an MCP client passes the server the variables of its own \"env\" entry.")
	if failed {
		fmt.Fprintln(w, "Something above blocks use.")
		return 1
	}
	fmt.Fprintln(w, "All checks passed.")
	return 0
}

// confirmCheck says who answers the lock on consequential actions (in mode
// elicit: the MCP client when it declares the capability, which doctor
// cannot know, else the window) and whether a window can be shown. Not blocking: without a window such
// actions fail closed (confirmation_unavailable), the rest works.
func confirmCheck(mode build.ConfirmMode, a confirm.Availability) check {
	switch {
	case mode == build.ConfirmOff:
		return check{name: "confirmation", detail: "OFF (FIREFOX_MCP_CONFIRM=off): payments, deletions, secret changes and submissions run without asking you",
			fix: "remove FIREFOX_MCP_CONFIRM from the MCP client's \"env\" entry"}
	case mode == build.ConfirmElicit && a.OK():
		return check{name: "confirmation", ok: true, detail: fmt.Sprintf("elicit: consequential actions wait for your yes in the MCP client when it declares "+
			"elicitation (you declared, by this setting, that it shows those requests to you), else in a %s window (%s)", a.Program, a.Display)}
	case mode == build.ConfirmElicit:
		return check{name: "confirmation", detail: fmt.Sprintf("elicit: consequential actions wait for your yes in the MCP client when it declares elicitation; "+
			"for a client that does not, no window can be shown (%s) and they fail with confirmation_unavailable", a.Problem), fix: confirm.Fix}
	case a.OK():
		return check{name: "confirmation", ok: true, detail: fmt.Sprintf("%s: consequential actions wait for your yes in a %s window (%s)", mode, a.Program, a.Display)}
	}
	return check{name: "confirmation", detail: fmt.Sprintf("%s, but no window can be shown: %s; consequential actions will fail with confirmation_unavailable", mode, a.Problem),
		fix: confirm.Fix}
}

func sandboxCheck(sup sandbox.Support) check {
	c := check{name: "kernel sandbox", ok: len(sup.Missing) == 0,
		detail: fmt.Sprintf("Landlock ABI %d, seccomp %v", sup.LandlockABI, sup.Seccomp), blocking: true}
	if !c.ok {
		c.detail += "; missing: " + strings.Join(sup.Missing, ", ")
		c.fix = "use a kernel with Landlock ABI ≥ 6 (Linux 6.12+) enabled in the lsm= boot list and seccomp"
		if !build.Packaged {
			c.fix += `, or set "FIREFOX_MCP_SANDBOX": "off" in the MCP client's "env" entry, for debugging only`
		}
	}
	return c
}

// envFix is how a fix line names a variable: as the MCP client's env entry
// (what reaches the server), with the shell form for running doctor again.
func envFix(name, value string) string {
	return fmt.Sprintf(`set "%s": "%s" in the MCP client's "env" entry (for doctor in a shell: %s=%s firefox-rdp-mcp doctor)`, name, value, name, value)
}

func rootChecks(cfg config.Config) []check {
	if !cfg.UploadsEnabled {
		return []check{{name: "uploads", detail: "disabled in this packaged build until FIREFOX_MCP_UPLOAD_ROOTS names a directory",
			fix: envFix("FIREFOX_MCP_UPLOAD_ROOTS", "/home/you/Documents") + " (colon-separated)"}}
	}
	if len(cfg.UploadRoots) == 0 {
		return []check{{name: "uploads", ok: true, detail: "enabled for any readable regular file (set FIREFOX_MCP_UPLOAD_ROOTS in the client's env entry to confine them)"}}
	}
	var out []check
	for _, r := range cfg.UploadRoots {
		fi, err := os.Stat(r)
		switch {
		case err != nil:
			out = append(out, check{name: "upload root", detail: r + ": " + err.Error(), blocking: true, fix: "create it or remove it from FIREFOX_MCP_UPLOAD_ROOTS in the client's env entry"})
		case !fi.IsDir():
			out = append(out, check{name: "upload root", detail: r + " is not a directory", blocking: true, fix: "name directories only in FIREFOX_MCP_UPLOAD_ROOTS"})
		default:
			out = append(out, check{name: "upload root", ok: true, detail: r})
		}
	}
	return out
}
