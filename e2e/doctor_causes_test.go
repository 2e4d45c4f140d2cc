package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// rawFirefox is a headless Firefox started the way a user might have
// started theirs: any preferences, any flags, and not waited for.
type rawFirefox struct {
	port int
	sock string // the socket "SOCK" in its arguments stood for
	pid  int
	dir  string
	env  []string // what points doctor at its endpoint
}

// quietPrefs keep a throwaway profile from first-run pages and network
// chatter; they say nothing about the debugger.
var quietPrefs = map[string]any{
	"browser.shell.checkDefaultBrowser":                 false,
	"browser.startup.homepage_override.mstone":          "ignore",
	"startup.homepage_welcome_url":                      "about:blank",
	"browser.aboutwelcome.enabled":                      false,
	"datareporting.policy.dataSubmissionEnabled":        false,
	"toolkit.telemetry.enabled":                         false,
	"app.update.disabledForTesting":                     true,
	"browser.sessionstore.resume_from_crash":            false,
	"toolkit.startup.max_resumed_crashes":               -1,
	"termsofuse.bypassNotification":                     true,
	"browser.newtabpage.enabled":                        false,
	"app.normandy.enabled":                              false,
	"network.captive-portal-service.enabled":            false,
	"datareporting.healthreport.uploadEnabled":          false,
	"browser.safebrowsing.update.enabled":               false,
	"extensions.update.enabled":                         false,
	"browser.region.update.enabled":                     false,
	"services.settings.server":                          "data:,#remote-settings-dummy/v1",
	"network.connectivity-service.enabled":              false,
	"browser.newtabpage.activity-stream.feeds.snippets": false,
}

// startRaw starts Firefox with prefs (on top of quietPrefs) and args, and
// returns at once. In args, PORT stands for a free port and SOCK for a
// socket in a new 0700 directory. It is killed, with its process group, at
// cleanup.
func startRaw(t *testing.T, prefs map[string]any, url string, args ...string) rawFirefox {
	t.Helper()
	return startRawEnv(t, prefs, []string{"MOZ_DISABLE_AUTO_SAFE_MODE=1"}, nil, url, args...)
}

// startRawEnv is startRaw with env added to Firefox's environment and
// prepare run on the profile directory before Firefox starts.
func startRawEnv(t *testing.T, prefs map[string]any, env []string, prepare func(dir string), url string, args ...string) rawFirefox {
	t.Helper()
	return startRawAt(t, filepath.Join(privateDir(t), "rdp.sock"), prefs, env, prepare, url, args...)
}

// startRawAt is startRawEnv with SOCK standing for sock.
func startRawAt(t *testing.T, sock string, prefs map[string]any, env []string, prepare func(dir string), url string, args ...string) rawFirefox {
	t.Helper()
	bin, err := headless.Find()
	headless.SkipOrFail(t, err)
	dir := t.TempDir()
	var js strings.Builder
	for _, m := range []map[string]any{quietPrefs, prefs} {
		for k, v := range m {
			fmt.Fprintf(&js, "user_pref(%q, %#v);\n", k, v)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "user.js"), []byte(js.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(dir)
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	raw := rawFirefox{port: port, dir: dir, env: []string{"FIREFOX_RDP_PORT=" + strconv.Itoa(port)}}
	argv := append([]string{"--headless", "--no-remote", "--profile", dir}, args...)
	for i, a := range argv {
		if strings.Contains(a, "SOCK") {
			raw.sock, raw.env = sock, []string{"FIREFOX_RDP_SOCKET=" + sock}
		}
		argv[i] = strings.ReplaceAll(strings.ReplaceAll(a, "PORT", strconv.Itoa(port)), "SOCK", sock)
	}
	cmd := exec.Command(bin, append(argv, url)...)
	cmd.Env = append(append(os.Environ(), "MOZ_HEADLESS=1", "MOZ_CRASHREPORTER_DISABLE=1"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	raw.pid = cmd.Process.Pid
	return raw
}

var goodPrefs = map[string]any{
	"devtools.debugger.remote-enabled":    true,
	"devtools.chrome.enabled":             true,
	"devtools.debugger.prompt-connection": false,
}

// runDoctor runs doctor against ff's endpoint (its env) with env added.
func runDoctor(t *testing.T, ff rawFirefox, env ...string) (stdout, stderr string, code int, took time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, "doctor")
	cmd.Env = append(append([]string{"HOME=" + t.TempDir()}, ff.env...), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, took
}

// TestDoctorJustAfterStart: doctor run right after Firefox was started
// waits for it (saying so on stderr) and then passes, with no FAIL line;
// run 0.5 s after (the figure; Firefox may or may not be up by
// then) it passes too.
func TestDoctorJustAfterStart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after time.Duration
		arg   string
	}{{"at once", 0, "SOCK"}, {"after 0.5 s", 500 * time.Millisecond, "SOCK"}, {"ws: at once", 0, "ws:PORT"}} {
		t.Run(tc.name, func(t *testing.T) {
			ff := startRaw(t, goodPrefs, fx.URL+"/", "--start-debugger-server", tc.arg)
			time.Sleep(tc.after)
			out, progress, code, took := runDoctor(t, ff)
			t.Logf("doctor %v after Firefox started: exit %d after %v\nstderr:\n%s", tc.after, code, took.Round(10*time.Millisecond), progress)
			ws := strings.HasPrefix(tc.arg, "ws:")
			if code != 0 || strings.Contains(out, "FAIL") || (strings.Contains(out, "[warn] ws: endpoint") != ws) {
				t.Errorf("doctor exit %d:\n%s\nstderr:\n%s", code, out, progress)
			}
			// At once, Firefox cannot have opened its port yet: doctor waits.
			if tc.after == 0 && !strings.Contains(progress, "doctor: ") {
				t.Errorf("no progress line on stderr while Firefox was starting:\n%s", progress)
			}
			want := []string{"[ok  ] Firefox greeting", "[ok  ] Firefox version", "[ok  ] tab evaluation", "[ok  ] trusted input", "All checks passed."}
			if ws {
				want = append(want, "[warn] ws: endpoint", "reachable by every web page you open on a loopback origin")
			} else {
				want = append(want, "[ok  ] endpoint reachable     Unix socket "+ff.sock)
			}
			for _, want := range want {
				if !strings.Contains(out, want) {
					t.Errorf("doctor output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestDoctorNamesTheCause: each way a user's Firefox can be wrong gets its
// own verdict, naming the preference or flag at fault.
func TestDoctorNamesTheCause(t *testing.T) {
	noChrome := map[string]any{"devtools.debugger.remote-enabled": true, "devtools.chrome.enabled": false, "devtools.debugger.prompt-connection": false}
	prompt := map[string]any{"devtools.debugger.remote-enabled": true, "devtools.chrome.enabled": true, "devtools.debugger.prompt-connection": true}
	cases := []struct {
		name  string
		prefs map[string]any
		url   string
		args  []string
		want  []string
		code  int
	}{
		{"chrome.enabled off", noChrome, "about:blank", []string{"--start-debugger-server", "SOCK"},
			[]string{"[FAIL] endpoint reachable", "devtools.chrome.enabled is false", "devtools.debugger.remote-enabled=true and devtools.chrome.enabled=true", "setup --write"}, 1},
		{"connection prompt on", prompt, "about:blank", []string{"--start-debugger-server", "SOCK"},
			[]string{"[ok  ] endpoint reachable", "[FAIL] Firefox greeting", "accepted the connection but sent no greeting", "asking on screen whether to allow the connection", "devtools.debugger.prompt-connection"}, 1},
		{"connection prompt on (ws:)", prompt, "about:blank", []string{"--start-debugger-server", "ws:PORT"},
			[]string{"[ok  ] endpoint reachable", "[warn] ws: endpoint", "[FAIL] Firefox greeting", "asking on screen whether to allow the connection", "devtools.debugger.prompt-connection"}, 1},
		{"plain TCP transport", goodPrefs, "about:blank", []string{"--start-debugger-server", "PORT"},
			[]string{"[FAIL] ", "plain TCP transport", "--start-debugger-server ws:"}, 1},
		{"privileged first tab", goodPrefs, "about:sessionrestore", []string{"--start-debugger-server", "SOCK"},
			[]string{"[ok  ] Firefox greeting", "tab evaluation", "about:sessionrestore", "All checks passed."}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ff := startRaw(t, c.prefs, c.url, c.args...)
			time.Sleep(500 * time.Millisecond)
			out, progress, code, took := runDoctor(t, ff)
			t.Logf("exit %d after %v", code, took.Round(10*time.Millisecond))
			if code != c.code {
				t.Errorf("exit %d, want %d:\n%s\nstderr:\n%s", code, c.code, out, progress)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s\nstderr:\n%s", w, out, progress)
				}
			}
			if c.code == 0 && strings.Contains(out, "[FAIL]") {
				t.Errorf("a FAIL line in a passing run:\n%s", out)
			}
			if c.name == "privileged first tab" && (strings.Contains(out, "devtools.chrome.enabled is off") ||
				!(strings.Contains(out, "[ok  ] trusted input") || strings.Contains(out, "devtools.chrome.enabled works"))) {
				t.Errorf("a privileged first tab is blamed on the preferences:\n%s", out)
			}
			if strings.Contains(out, "set devtools.chrome.enabled=true in about:config") {
				t.Errorf("blames devtools.chrome.enabled:\n%s", out)
			}
		})
	}
}

// TestDoctorFirefoxWithoutTheFlag: a Firefox started without
// --start-debugger-server is named, with why starting it again is not enough.
func TestDoctorFirefoxWithoutTheFlag(t *testing.T) {
	ff := startRaw(t, goodPrefs, "about:blank")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Lstat(filepath.Join(ff.dir, "lock")); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	ff.env = []string{"FIREFOX_RDP_SOCKET=" + filepath.Join(privateDir(t), "rdp.sock")}
	out, _, code, _ := runDoctor(t, ff)
	// Other Firefoxes on this machine may be listed too; ours is among them.
	mine := regexp.MustCompile(fmt.Sprintf(`Firefox \(pid (\d+, pid )*%d(, pid \d+)*\) is running without --start-debugger-server`, ff.pid))
	if code != 1 || !mine.MatchString(out) || !strings.Contains(out, "only opens a window in the running Firefox") {
		t.Errorf("exit %d, want the running Firefox (pid %d) named:\n%s", code, ff.pid, out)
	}
}
