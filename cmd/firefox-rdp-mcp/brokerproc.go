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

// brokerFD is where the broker finds its end of the file socketpair;
// connectorFD its end of the connector's (broker/connector.go), when it
// connects to Firefox's debugger socket for the server.
const (
	brokerFD    = 3
	connectorFD = 4
)

// brokerStartTimeout bounds the wait for the broker's hello.
const brokerStartTimeout = 10 * time.Second

// startBroker starts the file broker: a socketpair (SOCK_SEQPACKET,
// close-on-exec), then /proc/self/exe re-executed with the hidden broker
// role, its end of the pair as fd 3, an empty environment, /dev/null as
// stdin and stdout (the MCP pipes never reach it) and our stderr. The
// broker's configuration travels in argv. A goroutine reaps the broker;
// callers must not Wait on the returned process. The broker exits when the
// client is closed or this process dies (socketpair EOF).
//
// With cfg.RDPSocket set the broker also connects to Firefox's debugger
// socket for the server: a second socketpair (fd 4 in the broker) carries
// those requests and the descriptors back; conn is then non-nil.
func startBroker(cfg broker.Config, sandboxMode sandbox.Mode) (*broker.Client, *broker.Connector, *os.Process, error) {
	if err := cfg.Check(); err != nil {
		return nil, nil, nil, err
	}
	if err := sandboxMode.Check(); err != nil {
		return nil, nil, nil, err
	}
	ours, theirs, err := seqpacketPair("broker-socket")
	if err != nil {
		return nil, nil, nil, err
	}
	extra := []*os.File{theirs}
	var connOurs *os.File
	if cfg.RDPSocket != "" {
		var connTheirs *os.File
		if connOurs, connTheirs, err = seqpacketPair("connector-socket"); err != nil {
			ours.Close()
			theirs.Close()
			return nil, nil, nil, err
		}
		extra = append(extra, connTheirs)
	}

	cmd := &exec.Cmd{
		Path:       "/proc/self/exe",
		Args:       brokerArgs(cfg, sandboxMode),
		Env:        []string{},
		Stdin:      nil,
		Stdout:     nil,
		Stderr:     os.Stderr,
		ExtraFiles: extra,
	}
	err = cmd.Start()
	// Close our copy of the child's ends now: only then does the broker's
	// death (or a failed start) reach us as EOF.
	for _, f := range extra {
		f.Close()
	}
	if err != nil {
		ours.Close()
		if connOurs != nil {
			connOurs.Close()
		}
		return nil, nil, nil, fmt.Errorf("start broker: %w", err)
	}
	var connector *broker.Connector
	if connOurs != nil {
		cc, cerr := unixConn(connOurs)
		if cerr != nil {
			ours.Close()
			cmd.Process.Kill()
			cmd.Wait()
			return nil, nil, nil, fmt.Errorf("start broker: %w", cerr)
		}
		connector = broker.NewConnector(cc)
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
		if connector != nil {
			connector.Close()
		}
		cmd.Process.Kill()
		cmd.Wait()
		return nil, nil, nil, fmt.Errorf("start broker: %w", err)
	}
	go cmd.Wait() // reap; the client sees the broker's death as EOF
	return broker.NewClient(conn), connector, cmd.Process, nil
}

// seqpacketPair makes a close-on-exec SOCK_SEQPACKET socketpair.
func seqpacketPair(name string) (ours, theirs *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%s pair: %w", name, err)
	}
	return os.NewFile(uintptr(fds[0]), name), os.NewFile(uintptr(fds[1]), name+"-child"), nil
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
		"-no-files=" + strconv.FormatBool(cfg.NoFiles),
		"-rdp-socket=" + cfg.RDPSocket,
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
	fs.BoolVar(&cfg.NoFiles, "no-files", false, "uploads are off: open no root, read no file")
	fs.StringVar(&cfg.RDPSocket, "rdp-socket", "", "connect to Firefox's debugger socket at this path for the server (fd 4)")
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
	var connector *net.UnixConn
	if cfg.RDPSocket != "" {
		if connector, err = unixConn(os.NewFile(connectorFD, "connector-socket")); err != nil {
			logf("%v", err)
			return 1
		}
	}
	uid := os.Getuid() // before the sandbox
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
		rep, err := sandbox.ApplyBroker(cfg.Roots, !cfg.NoFiles, cfg.RDPSocket)
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
	if connector != nil {
		// The connector runs beside the file loop; either one's end ends
		// the broker (the server closed both, or sent something malformed).
		go func() {
			if err := broker.ServeConnector(connector, cfg.RDPSocket, uid); err != nil {
				logf("stopping: %v", err)
				os.Exit(3)
			}
			os.Exit(0)
		}()
	}
	if err := b.Serve(conn); err != nil {
		logf("stopping: %v", err)
		return 3
	}
	return 0
}
