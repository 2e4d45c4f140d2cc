package main

import (
	"context"
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"io"
	"net"
	"os"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// check is one doctor line.
type check struct {
	name, detail, fix string
	ok, blocking      bool
}

// doctor checks everything the server needs and prints one line per check,
// with a fix for each failure. It exits non-zero when something blocks use.
func doctor(w io.Writer) int {
	var checks []check
	add := func(c check) { checks = append(checks, c) }

	cfg, err := loadConfig()
	if err != nil {
		add(check{name: "configuration", detail: strings.ReplaceAll(err.Error(), "\n", "; "), fix: "correct the variables named above (`firefox-rdp-mcp -h` lists them)", blocking: true})
	} else {
		add(check{name: "configuration", ok: true, detail: fmt.Sprintf("RDP endpoint %s (%s) is loopback", cfg.Addr, cfg.Host)})
		checks = append(checks, firefoxChecks(cfg)...)
		checks = append(checks, rootChecks(cfg)...)
	}
	sup := sandbox.Probe()
	sbx := check{name: "kernel sandbox", ok: len(sup.Missing) == 0,
		detail: fmt.Sprintf("Landlock ABI %d, seccomp %v", sup.LandlockABI, sup.Seccomp), blocking: true}
	if !sbx.ok {
		sbx.detail += "; missing: " + strings.Join(sup.Missing, ", ")
		sbx.fix = "use a kernel with Landlock ABI ≥ 6 (Linux 6.12+) enabled in the lsm= boot list and seccomp"
		if !build.Packaged {
			sbx.fix += ", or run with FIREFOX_MCP_SANDBOX=off for debugging only"
		}
	}
	add(sbx)

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
	if failed {
		fmt.Fprintln(w, "\nSomething above blocks use.")
		return 1
	}
	fmt.Fprintln(w, "\nAll checks passed.")
	return 0
}

func firefoxChecks(cfg config.Config) []check {
	ctx, cancel := context.WithTimeout(context.Background(), startupDeadline)
	defer cancel()
	startCmd := fmt.Sprintf("start Firefox with `firefox --start-debugger-server ws:%d` (prefs in README)", cfg.Addr.Port())
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", cfg.Addr.String())
	if err != nil {
		return []check{{name: "endpoint reachable", detail: err.Error(), fix: startCmd, blocking: true}}
	}
	conn.Close()
	out := []check{{name: "endpoint reachable", ok: true, detail: "TCP " + cfg.Addr.String()}}

	c, err := rdp.Dial(ctx, cfg.Addr, rdp.Options{RequestTimeout: startupDeadline})
	if err != nil {
		return append(out, check{name: "Firefox greeting", detail: err.Error(), blocking: true,
			fix: "the port answers but not as Firefox's debugger server: check FIREFOX_RDP_PORT, and set devtools.debugger.remote-enabled=true and devtools.debugger.prompt-connection=false"})
	}
	defer c.Close()
	out = append(out, check{name: "Firefox greeting", ok: true, detail: "applicationType " + c.Greeting().ApplicationType})

	var root struct {
		DeviceActor string `json:"deviceActor"`
	}
	var desc struct {
		Value struct {
			Name     string `json:"name"`
			Version  string `json:"version"`
			Platform string `json:"platformversion"`
		} `json:"value"`
	}
	if err := c.Request(ctx, "root", map[string]any{"type": "getRoot"}, &root); err == nil && root.DeviceActor != "" &&
		c.Request(ctx, root.DeviceActor, map[string]any{"type": "getDescription"}, &desc) == nil {
		out = append(out, check{name: "Firefox version", ok: true, detail: strings.TrimSpace(desc.Value.Name + " " + desc.Value.Version)})
	} else {
		out = append(out, check{name: "Firefox version", detail: "could not be read", fix: "a recent Firefox ESR (140 or newer) is expected"})
	}

	tabs, err := c.ListTabs(ctx)
	if err != nil || len(tabs) == 0 {
		return append(out, check{name: "tab evaluation", detail: fmt.Sprintf("no tab to evaluate in (%v)", err), blocking: true, fix: "open at least one tab"})
	}
	w, err := c.WatchTab(ctx, tabs[0])
	if err != nil {
		return append(out, check{name: "tab evaluation", detail: err.Error(), blocking: true, fix: "update Firefox (the watcher actor is needed)"})
	}
	defer w.Close()
	t, err := w.Current(ctx)
	if err == nil {
		var src, res string
		src, err = pagejs.PageInfo.Page(struct{}{})
		if err == nil {
			res, err = c.EvaluateString(ctx, t.ConsoleActor, src, rdp.EvalOptions{Await: true})
		}
		if err == nil {
			var info struct{ ReadyState string }
			err = pagejs.Decode(res, &info)
		}
	}
	if err != nil {
		return append(out, check{name: "tab evaluation", detail: err.Error(), blocking: true, fix: "reload the first tab; if it persists, report a bug with this output"})
	}
	out = append(out, check{name: "tab evaluation", ok: true, detail: "evaluated in the first tab's page"})

	iso := check{name: "trusted input", detail: "isolated realm unavailable: actions fall back to synthetic page events",
		fix: "set devtools.chrome.enabled=true in about:config and restart Firefox"}
	if console, err := c.ContentProcessConsole(ctx, t.ProcessID); err == nil {
		if src, err := pagejs.Probe.Isolated(t.InnerWindowID, struct{}{}); err == nil {
			if res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true}); err == nil {
				var p struct {
					TrustedClick bool `json:"trustedClick"`
					TIP          bool `json:"tip"`
					Files        bool `json:"mozSetFileArray"`
				}
				if pagejs.Decode(res, &p) == nil && p.TrustedClick && p.TIP {
					iso = check{name: "trusted input", ok: true, detail: fmt.Sprintf("isolated realm: trusted clicks and keys, privileged file assignment %v", p.Files)}
				}
			}
		}
	}
	return append(out, iso)
}

func rootChecks(cfg config.Config) []check {
	if !cfg.UploadsEnabled {
		return []check{{name: "uploads", detail: "disabled in this packaged build until FIREFOX_MCP_UPLOAD_ROOTS names a directory",
			fix: "export FIREFOX_MCP_UPLOAD_ROOTS=/home/you/Documents (colon-separated)"}}
	}
	if len(cfg.UploadRoots) == 0 {
		return []check{{name: "uploads", ok: true, detail: "enabled for any readable regular file (set FIREFOX_MCP_UPLOAD_ROOTS to confine them)"}}
	}
	var out []check
	for _, r := range cfg.UploadRoots {
		fi, err := os.Stat(r)
		switch {
		case err != nil:
			out = append(out, check{name: "upload root", detail: r + ": " + err.Error(), blocking: true, fix: "create it or remove it from FIREFOX_MCP_UPLOAD_ROOTS"})
		case !fi.IsDir():
			out = append(out, check{name: "upload root", detail: r + " is not a directory", blocking: true, fix: "name directories only in FIREFOX_MCP_UPLOAD_ROOTS"})
		default:
			out = append(out, check{name: "upload root", ok: true, detail: r})
		}
	}
	return out
}
