package setup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// startFirefox runs a real headless Firefox on dir (no debugger server: a
// user's ordinary Firefox) and returns its process once it holds the
// profile's lock. The process group is killed at cleanup.
func startFirefox(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	bin, err := headless.Find()
	headless.SkipOrFail(t, err)
	cmd := exec.Command(bin, "--headless", "--no-remote", "--profile", dir, "about:blank")
	cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1", "MOZ_CRASHREPORTER_DISABLE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if running, _ := Running(dir); running {
			return cmd
		}
		select {
		case <-done:
			t.Fatal("Firefox exited before it locked the profile")
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("Firefox did not lock the profile within 60 s")
		}
	}
}

// TestRefusesARunningProfile: a profile a real Firefox has open is never
// written; once that Firefox is gone (its stale lock symlink left behind),
// it is.
func TestRefusesARunningProfile(t *testing.T) {
	home, dirs := fakeHome(t)
	dir := dirs["default-esr"]
	userJS := filepath.Join(dir, "user.js")
	os.WriteFile(userJS, []byte("user_pref(\"browser.shell.checkDefaultBrowser\", false);\n"), 0o600)
	cmd := startFirefox(t, dir)
	before := treeHash(t, filepath.Dir(userJS)+"/user.js")
	out, code := runSetup(t, testEnv(home), "--write")
	pid := strconv.Itoa(cmd.Process.Pid)
	if code != 1 || !strings.Contains(out, "in use by a running Firefox (pid "+pid+")") || !strings.Contains(out, "quit Firefox") {
		t.Errorf("--write on a running profile: exit %d\n%s", code, out)
	}
	if treeHash(t, userJS) != before {
		t.Error("user.js changed while Firefox ran")
	}
	if matches, _ := filepath.Glob(userJS + ".*.bak"); len(matches) != 0 {
		t.Errorf("a backup was made for a write that was refused: %v", matches)
	}
	// The dry run says so too.
	if out, _ := runSetup(t, testEnv(home)); !strings.Contains(out, "in use by a running Firefox (pid "+pid+")") {
		t.Errorf("dry run does not mention the running Firefox:\n%s", out)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if running, _ := Running(dir); !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the profile still counts as in use 10 s after Firefox was killed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Readlink(filepath.Join(dir, "lock")); err != nil {
		t.Logf("no stale lock symlink left (%v)", err)
	}
	if out, code := runSetup(t, testEnv(home), "--write"); code != 0 || !strings.Contains(out, "Wrote the three preferences") {
		t.Errorf("--write after Firefox exited: exit %d\n%s", code, out)
	}
}

// TestFirstRunCreatesTheProfile: for a user Firefox never ran for, --write
// has a real Firefox create its default profile, then sets it up; the
// prefs written are the ones the next start of that Firefox reads.
func TestFirstRunCreatesTheProfile(t *testing.T) {
	bin, err := headless.Find()
	headless.SkipOrFail(t, err)
	home := t.TempDir()
	env := testEnv(home)
	env.LookPath = func(p string) string {
		if p == filepath.Base(bin) {
			return bin
		}
		return ""
	}
	dry, code := runSetup(t, env)
	if code != 0 || !strings.Contains(dry, "No Firefox profile found") || !strings.Contains(dry, "--headless --screenshot") {
		t.Errorf("dry run without a profile: exit %d\n%s", code, dry)
	}
	env.CreateProfile = func(argv []string) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "MOZ_HEADLESS=1", "MOZ_CRASHREPORTER_DISABLE=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("firefox: %s", out)
		}
		return err
	}
	out, code := runSetup(t, env, "--write")
	if code != 0 || !strings.Contains(out, "Wrote the three preferences") {
		t.Fatalf("first-run --write: exit %d\n%s", code, out)
	}
	ps, err := FindProfiles(Locations(home, ""))
	if err != nil || len(ps) == 0 {
		t.Fatalf("profiles after first run: %v %v", ps, err)
	}
	p, _, ok := Choose(ps, "")
	if !ok {
		t.Fatalf("no profile to pick among %+v", ps)
	}
	st, err := ReadPrefs(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Prefs {
		if !st[pr.Name].OK(pr) {
			t.Errorf("%s = %+v in %s", pr.Name, st[pr.Name], p.Dir)
		}
	}
}

// desktopExec splits a .desktop file's Exec value into arguments as a
// desktop does (Desktop Entry Specification: the string escapes, then
// double quotes with \", \`, \$ and \\ inside), with %u replaced by url.
func desktopExec(t *testing.T, content, url string) []string {
	t.Helper()
	var value string
	for _, line := range strings.Split(content, "\n") {
		if v, ok := strings.CutPrefix(line, "Exec="); ok {
			value = v
		}
	}
	value = strings.NewReplacer(`\\`, `\`, `\s`, " ", `\n`, "\n", `\t`, "\t").Replace(value)
	var args []string
	var cur strings.Builder
	inQuote, have := false, false
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case inQuote && c == '\\' && i+1 < len(value):
			i++
			cur.WriteByte(value[i])
		case c == '"':
			inQuote, have = !inQuote, true
		case c == ' ' && !inQuote:
			if have || cur.Len() > 0 {
				args = append(args, cur.String())
			}
			cur.Reset()
			have = false
		default:
			cur.WriteByte(c)
		}
	}
	if have || cur.Len() > 0 {
		args = append(args, cur.String())
	}
	for i, a := range args {
		if a == "%u" {
			args[i] = url
		}
	}
	return args
}

// TestLauncherStartsFirefoxOnTheSocket: the launcher --write installs,
// run as a desktop runs it, creates the socket's directory (mode 0700) and
// starts a real Firefox on the prepared profile, whose debugger server
// greets on the socket.
func TestLauncherStartsFirefoxOnTheSocket(t *testing.T) {
	_, err := headless.Find()
	headless.SkipOrFail(t, err)
	home, dirs := fakeHome(t)
	env := testEnv(home)
	if out, code := runSetup(t, env, "--write"); code != 0 {
		t.Fatalf("--write: exit %d\n%s", code, out)
	}
	content, err := os.ReadFile(filepath.Join(home, ".local/share/applications", DesktopFileName))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Dir(env.Socket)) // the launcher makes it when it is gone
	argv := desktopExec(t, string(content), "about:blank")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1", "MOZ_NO_REMOTE=1", "MOZ_CRASHREPORTER_DISABLE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-done })
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		greeted, _ := rdp.KnockSocket(ctx, env.Socket, 2*time.Second)
		cancel()
		if greeted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no greeting on %s within 60 s (argv %q)", env.Socket, argv)
		}
		time.Sleep(200 * time.Millisecond)
	}
	fi, err := os.Stat(filepath.Dir(env.Socket))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket directory after the launcher: %v %v", fi, err)
	}
	if running, _ := Running(dirs["default-esr"]); !running {
		t.Errorf("the launcher's Firefox does not run on the prepared profile %s", dirs["default-esr"])
	}
}
