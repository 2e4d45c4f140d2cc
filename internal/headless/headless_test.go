package headless

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestUserJS(t *testing.T) {
	js, err := userJS("/tmp/profile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`user_pref("devtools.debugger.remote-enabled", true);`,
		`user_pref("devtools.chrome.enabled", true);`,
		`user_pref("devtools.debugger.prompt-connection", false);`,
		`user_pref("browser.startup.homepage_override.mstone", "ignore");`,
		`user_pref("browser.download.dir", "/tmp/profile/downloads");`,
		`user_pref("browser.download.folderList", 2);`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("user.js lacks %s", want)
		}
	}
	seen := map[string]bool{}
	for _, p := range append(prefs, downloadPrefs("/tmp/profile")...) {
		if seen[p.name] {
			t.Errorf("pref %s listed twice", p.name)
		}
		seen[p.name] = true
		if p.reason == "" {
			t.Errorf("pref %s has no reason", p.name)
		}
	}
}

func TestRing(t *testing.T) {
	r := newRing(8)
	r.Write([]byte("hello "))
	r.Write([]byte("world"))
	if got := r.tail(100); got != "o world" && got != "lo world" {
		t.Fatalf("tail = %q", got)
	}
	if got := r.tail(3); got != "rld" {
		t.Fatalf("tail(3) = %q", got)
	}
}

func TestStartFailsClearly(t *testing.T) {
	// A "browser" that exits at once: Start must fail quickly, not wait 60 s.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Start(ctx, Options{Binary: "/bin/false"})
	if err == nil || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("Start(/bin/false) = %v, want an error saying it exited", err)
	}
	_, err = Start(ctx, Options{Binary: "/nonexistent/firefox"})
	if err == nil {
		t.Fatal("Start with a missing binary succeeded")
	}
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestStartRestartStop(t *testing.T) {
	_, err := Available()
	SkipOrFail(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 3*StartTimeout)
	defer cancel()
	ff, err := Start(ctx, Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer ff.Stop()
	if ff.Addr.IsValid() || !filepath.IsAbs(ff.Socket) {
		t.Fatalf("Addr = %v, Socket = %q: want the Unix socket only", ff.Addr, ff.Socket)
	}
	if fi, err := os.Stat(filepath.Dir(ff.Socket)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v, %v; want mode 0700", fi.Mode(), err)
	}
	if err := trySocketGreeting(ctx, ff.Socket); err != nil {
		t.Fatalf("greeting: %v", err)
	}
	if _, err := os.Stat(ff.ProfileDir + "/user.js"); err != nil {
		t.Fatal(err)
	}
	pid1 := ff.PID
	if err := ff.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if ff.PID == pid1 {
		t.Fatalf("Restart kept pid %d", pid1)
	}
	if alive(pid1) {
		t.Errorf("old pid %d still alive after Restart", pid1)
	}
	if err := trySocketGreeting(ctx, ff.Socket); err != nil {
		t.Fatalf("greeting after restart: %v", err)
	}
	pid2 := ff.PID
	if err := ff.Stop(); err != nil {
		t.Fatal(err)
	}
	if alive(pid2) {
		t.Errorf("pid %d alive after Stop", pid2)
	}
	if syscall.Kill(-pid2, 0) == nil {
		t.Errorf("process group %d alive after Stop", pid2)
	}
	if _, err := os.Stat(ff.ProfileDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile %s still there: %v", ff.ProfileDir, err)
	}
	if err := ff.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}
