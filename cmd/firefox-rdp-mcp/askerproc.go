package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
)

// askerFD is where the window helper finds its end of the socketpair.
const askerFD = 3

// startAsker starts the confirmation window helper (package confirm): a
// socketpair (SOCK_SEQPACKET, close-on-exec), then /proc/self/exe
// re-executed with the hidden helper role before the server enters its
// sandbox, which forbids starting programs. The helper gets its end of the
// pair as fd 3, only the variables a window needs (confirm.WindowEnv),
// /dev/null as stdin and stdout and our stderr; it exits on EOF. A
// goroutine reaps it.
func startAsker() (*confirm.Client, *os.Process, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("window helper socketpair: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "asker-socket")
	theirs := os.NewFile(uintptr(fds[1]), "asker-socket-child")
	cmd := &exec.Cmd{
		Path:       "/proc/self/exe",
		Args:       []string{"firefox-rdp-mcp", roleAsker},
		Env:        confirm.FilterEnv(os.Environ()),
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{theirs},
	}
	err = cmd.Start()
	theirs.Close() // only then does the helper's death reach us as EOF
	if err != nil {
		ours.Close()
		return nil, nil, fmt.Errorf("start window helper: %w", err)
	}
	conn, err := unixConn(ours)
	var c *confirm.Client
	if err == nil {
		if c, err = confirm.ReadHello(conn, brokerStartTimeout); err != nil {
			conn.Close()
		}
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, nil, fmt.Errorf("start window helper: %w", err)
	}
	go cmd.Wait()
	return c, cmd.Process, nil
}

// runAsker is the window helper role: it answers the server's questions
// with zenity or kdialog windows until the server closes the channel.
// Exit codes: 0 on EOF, 1 on a start-up failure, 3 on a malformed message.
func runAsker() int {
	conn, err := unixConn(os.NewFile(askerFD, "asker-socket"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "firefox-rdp-mcp window helper: %v\n", err)
		return 1
	}
	h := &confirm.Helper{Env: confirm.FilterEnv(os.Environ()), Run: runWindow}
	if err := h.Serve(conn); err != nil {
		fmt.Fprintf(os.Stderr, "firefox-rdp-mcp window helper: stopping: %v\n", err)
		return 3
	}
	return 0
}

// runWindow is confirm.Runner: the program started without a shell, with
// exactly env, in its own process group, killed with it when ctx ends;
// the first 4 KiB of its stderr are kept (Interpret reads them).
func runWindow(ctx context.Context, path string, argv, env []string) (int, string, error) {
	cmd := exec.CommandContext(ctx, path)
	cmd.Args, cmd.Env = argv, env
	cmd.SysProcAttr = &unix.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return unix.Kill(-cmd.Process.Pid, unix.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &capped{b: &stderr, n: 4096}
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String(), nil
	}
	return 0, stderr.String(), err
}

type capped struct {
	b *bytes.Buffer
	n int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.n - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
