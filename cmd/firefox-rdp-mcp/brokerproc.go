package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// brokerFD is where the broker finds its end of the socketpair.
const brokerFD = 3

// brokerStartTimeout bounds the wait for the broker's hello.
const brokerStartTimeout = 10 * time.Second

// startBroker starts the file broker: a socketpair (SOCK_SEQPACKET,
// close-on-exec), then /proc/self/exe re-executed with the hidden broker
// role, its end of the pair as fd 3, an empty environment, /dev/null as
// stdin and stdout (the MCP pipes never reach it) and our stderr. The
// broker's configuration travels in argv. A goroutine reaps the broker;
// callers must not Wait on the returned process. The broker exits when the
// client is closed or this process dies (socketpair EOF).
func startBroker(cfg broker.Config, sandboxMode sandbox.Mode) (*broker.Client, *os.Process, error) {
	if err := cfg.Check(); err != nil {
		return nil, nil, err
	}
	if err := sandboxMode.Check(); err != nil {
		return nil, nil, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("broker socketpair: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "broker-socket")
	theirs := os.NewFile(uintptr(fds[1]), "broker-socket-child")

	cmd := &exec.Cmd{
		Path:       "/proc/self/exe",
		Args:       brokerArgs(cfg, sandboxMode),
		Env:        []string{},
		Stdin:      nil,
		Stdout:     nil,
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{theirs},
	}
	err = cmd.Start()
	// Close our copy of the child's end now: only then does the broker's
	// death (or a failed start) reach us as EOF.
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, nil, fmt.Errorf("start broker: %w", err)
	}
	conn, err := unixConn(ours)
	if err == nil {
		// The broker says hello once it is confined: a broker that cannot
		// sandbox itself stops the server's start-up, not the first upload.
		var h broker.Hello
		h, err = broker.ReadHello(conn, brokerStartTimeout)
		if err == nil && sandboxMode != build.SandboxOff && !h.Sandboxed {
			err = errors.New("the broker reports it is not sandboxed")
		}
		if err != nil {
			conn.Close()
		}
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, nil, fmt.Errorf("start broker: %w", err)
	}
	go cmd.Wait() // reap; the client sees the broker's death as EOF
	return broker.NewClient(conn), cmd.Process, nil
}

// unixConn turns a socketpair end into a *net.UnixConn and closes f.
func unixConn(f *os.File) (*net.UnixConn, error) {
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("broker socket: %w", err)
	}
	uc, ok := c.(*net.UnixConn)
	if !ok || uc.LocalAddr().Network() != "unixpacket" {
		c.Close()
		return nil, errors.New("broker socket: not a SOCK_SEQPACKET unix socket")
	}
	return uc, nil
}

func brokerArgs(cfg broker.Config, mode sandbox.Mode) []string {
	if mode == "" {
		mode = build.SandboxEnforce
	}
	args := []string{"firefox-rdp-mcp", roleBroker,
		"-sandbox=" + string(mode),
		"-max-file-bytes=" + strconv.FormatInt(cfg.MaxFileBytes, 10),
		"-max-call-bytes=" + strconv.FormatInt(cfg.MaxCallBytes, 10),
		"-allow-hardlinks=" + strconv.FormatBool(cfg.AllowHardlinks),
		"--"}
	return append(args, cfg.Roots...)
}

// brokerFlags parses the broker role's argv (after the role name).
func brokerFlags(args []string, stderr io.Writer) (broker.Config, sandbox.Mode, error) {
	fs := flag.NewFlagSet("broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mode := fs.String("sandbox", "enforce", "enforce or off")
	var cfg broker.Config
	fs.Int64Var(&cfg.MaxFileBytes, "max-file-bytes", 0, "per-file limit")
	fs.Int64Var(&cfg.MaxCallBytes, "max-call-bytes", 0, "per-call limit")
	fs.BoolVar(&cfg.AllowHardlinks, "allow-hardlinks", false, "accept files with more than one hard link beneath the roots")
	if err := fs.Parse(args); err != nil {
		return cfg, "", err
	}
	if fs.NArg() > 0 {
		cfg.Roots = fs.Args()
	}
	m, err := build.ParseSandboxMode(*mode)
	if err != nil {
		return cfg, "", err
	}
	return cfg, m, cfg.Check()
}

// runBroker is the broker role: open the roots and the inherited socket,
// sandbox itself, then serve until EOF. Exit codes: 0 on EOF, 1 on a
// start-up failure, 3 on a malformed message or channel error.
func runBroker(args []string) int {
	logf := func(format string, a ...any) {
		fmt.Fprintf(os.Stderr, "firefox-rdp-mcp broker: "+format+"\n", a...)
	}
	cfg, mode, err := brokerFlags(args, os.Stderr)
	if err != nil {
		logf("bad arguments: %v", err)
		return 1
	}
	conn, err := unixConn(os.NewFile(brokerFD, "broker-socket"))
	if err != nil {
		logf("%v", err)
		return 1
	}
	b, err := broker.Open(cfg)
	if err != nil {
		logf("%v", err)
		return 1
	}
	defer b.Close()
	var hello broker.Hello
	if mode == build.SandboxOff {
		logf("WARNING: sandbox disabled (FIREFOX_MCP_SANDBOX=off)")
	} else {
		sandbox.PrepareRuntime()
		rep, err := sandbox.ApplyBroker(cfg.Roots)
		if err != nil {
			logf("cannot enter the sandbox: %v", explainSandboxError(err))
			return 1
		}
		hello = broker.Hello{Sandboxed: true, LandlockABI: uint16(rep.LandlockABI), Syscalls: uint16(rep.Syscalls)}
	}
	if err := broker.SendHello(conn, hello); err != nil {
		logf("hello: %v", err)
		return 3
	}
	if err := b.Serve(conn); err != nil {
		logf("stopping: %v", err)
		return 3
	}
	return 0
}
