// Package xwin is test infrastructure for the confirmation window: it
// starts a throwaway Xvfb display, runs the window programs the way the
// server's helper does (confirm.Runner, without a shell), and answers their
// windows with xdotool as a person would, by keyboard. It is never part of
// the server.
//
// # Limitations
//
// Xvfb runs with no window manager: a window gets the keyboard focus from
// xdotool windowfocus, not from activation. zenity's default button (with
// --default-cancel) is Refuse, so Return refuses and Tab, Return allows;
// kdialog's default button is its Yes.
//
// Example:
//
//	d := xwin.Start(t) // skips, or fails with FIREFOX_MCP_REQUIRE_FIREFOX=1, without Xvfb
//	h := &confirm.Helper{Env: d.Env(os.Getenv("PATH")), Run: xwin.Run}
//	go func() { d.Answer(t, "firefox-rdp-mcp", xwin.Allow) }()
//	a := h.Ask(&req)
package xwin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
)

// Display is a running Xvfb.
type Display struct {
	Name string // ":N"
	cmd  *exec.Cmd
}

// requireEnv turns a missing tool into a failure (as for Firefox).
const requireEnv = "FIREFOX_MCP_REQUIRE_FIREFOX"

// Need skips (or fails) the test when a program is not installed.
func Need(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			msg := fmt.Sprintf("%s is not installed (scripts/test installs it: apt install xvfb zenity xdotool kdialog)", p)
			if os.Getenv(requireEnv) == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// Start starts Xvfb on a free display; it is killed when the test ends.
func Start(t testing.TB) *Display {
	t.Helper()
	Need(t, "Xvfb", "xdotool")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -noreset: by default Xvfb resets when its last client leaves, and a
	// window program connecting during the reset is refused ("cannot open
	// display"): CI saw the second of two windows in a row fail so.
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	d := &Display{cmd: cmd}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	num := make(chan string, 1)
	go func() {
		// Xvfb writes the number and the newline apart; closing the pipe
		// before the newline would make its second write fail, fatally.
		line, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		num <- strings.TrimSpace(line)
	}()
	select {
	case n := <-num:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb did not say its display: %q", n)
		}
		d.Name = ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not start in 20 s")
	}
	return d
}

// Env is a window environment on this display with the given PATH.
func (d *Display) Env(path string) []string {
	return []string{"DISPLAY=" + d.Name, "PATH=" + path, "HOME=" + os.TempDir(), "XDG_RUNTIME_DIR=" + os.TempDir()}
}

// Keys a person presses in the window.
var (
	Allow  = []string{"Tab", "Return"} // zenity: from the default Refuse to Allow, then press it
	Refuse = []string{"Return"}        // zenity: the default button
	Escape = []string{"Escape"}
	Enter  = []string{"Return"}
)

// WaitWindow waits (up to 30 s) for a visible window whose title
// contains title and returns its id and when it was found.
func (d *Display) WaitWindow(t testing.TB, title string) (string, time.Time) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		out, _ := d.xdotool(ctx, "search", "--onlyvisible", "--name", title)
		if id := strings.Fields(string(out)); len(id) > 0 {
			return id[0], time.Now()
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("no window titled %q appeared in 30 s", title)
	return "", time.Time{}
}

// Windows counts the windows whose title contains title.
func (d *Display) Windows(title string) int {
	out, _ := d.xdotool(context.Background(), "search", "--onlyvisible", "--name", title)
	return len(strings.Fields(string(out)))
}

// Press focuses window id and presses keys; it returns when they were sent.
func (d *Display) Press(t testing.TB, id string, keys []string) time.Time {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// A window just mapped may not take the focus yet: retry briefly.
	var err error
	for range 50 {
		var out []byte
		if out, err = d.xdotool(ctx, "windowfocus", "--sync", id); err == nil {
			break
		} else {
			err = fmt.Errorf("%v: %s", err, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Errorf("xdotool windowfocus: %v", err)
	}
	time.Sleep(150 * time.Millisecond) // the toolkit's first focus-in
	if out, err := d.xdotool(ctx, append([]string{"key", "--delay", "60"}, keys...)...); err != nil {
		t.Errorf("xdotool key: %v: %s", err, out)
	}
	return time.Now()
}

// Answer waits for the window titled title, presses keys in it and waits
// for it to go (X reuses window ids: a window still closing must not be
// taken for the next one).
func (d *Display) Answer(t testing.TB, title string, keys []string) (shown, answered time.Time) {
	t.Helper()
	id, shown := d.WaitWindow(t, title)
	if id == "" {
		return shown, time.Time{}
	}
	answered = d.Press(t, id, keys)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if d.Windows(title) == 0 {
			return shown, answered
		}
	}
	t.Errorf("the window titled %q stayed after %v", title, keys)
	return shown, answered
}

func (d *Display) xdotool(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = []string{"DISPLAY=" + d.Name, "PATH=" + os.Getenv("PATH")}
	return cmd.CombinedOutput()
}

// Run is a confirm.Runner: the program started without a shell, with
// exactly env, killed when ctx ends; stderr's first 4 KiB are returned.
func Run(ctx context.Context, path string, argv, env []string) (int, string, error) {
	cmd := exec.CommandContext(ctx, path)
	cmd.Args, cmd.Env = argv, env
	var stderr bytes.Buffer
	cmd.Stderr = &limited{b: &stderr, n: 4096}
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String(), nil
	}
	return 0, stderr.String(), err
}

type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Pair starts h on one end of a socketpair (in this process: cmd starts it
// as a process of its own) and returns the server's client; both end with
// the test.
func Pair(t testing.TB, h *confirm.Helper) *confirm.Client {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "pair")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c.(*net.UnixConn)
	}
	ours, theirs := conn(fds[0]), conn(fds[1])
	done := make(chan error, 1)
	go func() { done <- h.Serve(theirs) }()
	c, err := confirm.ReadHello(ours, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		if err := <-done; err != nil {
			t.Errorf("helper: %v", err)
		}
		theirs.Close()
	})
	return c
}
