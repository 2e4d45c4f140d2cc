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
	if code != 1 || !strings.Contains(dry, "No Firefox profile found") || !strings.Contains(dry, "--headless --screenshot") {
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
