package main

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
)

// fakeGreeting is what the listeners below say to every connection: RDP's
// stream framing of a root greeting.
const fakeGreeting = `41:{"from":"root","applicationType":"browser"}`

// serveGreeting accepts connections on l and greets each.
func serveGreeting(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Write([]byte(fakeGreeting))
		c.Close()
	}
}

// listenUnixChild is the test binary re-executed as another user: it
// listens on path, says "ready" and greets until killed.
func listenUnixChild(path string) int {
	l, err := net.Listen("unix", path)
	if err != nil {
		os.Stderr.WriteString(err.Error())
		return 1
	}
	os.Stdout.WriteString("ready\n")
	serveGreeting(l)
	return 0
}

// The sandboxed broker connects to the debugger's socket for the server and
// passes the descriptor back: the server reads Firefox's greeting from it.
// The broker has uploads off here (NoFiles), as in a packaged build without
// upload roots.
func TestStartBrokerConnector(t *testing.T) {
	dir := t.TempDir() // 0700
	sock := filepath.Join(dir, "rdp.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go serveGreeting(l)
	files, conn, _, err := startBroker(broker.Config{MaxFileBytes: 1, MaxCallBytes: 1, NoFiles: true, RDPSocket: sock}, build.SandboxEnforce)
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	defer conn.Close()
	for i := range 3 { // one connection per request
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		f, err := conn.Open(ctx)
		cancel()
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		f.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := bufio.NewReader(f).ReadString('}')
		f.Close()
		if err != nil || got != fakeGreeting[:len(fakeGreeting)-1]+"}" {
			t.Fatalf("read %q, %v", got, err)
		}
	}
	if _, err := files.Stat(context.Background(), []string{"/etc/passwd"}); !errors.Is(err, broker.ErrFileInvalid) {
		t.Fatalf("a broker with uploads off opened a file: %v", err)
	}
	// Firefox not running: the socket is gone.
	l.Close()
	os.Remove(sock)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := conn.Open(ctx); !errors.Is(err, broker.ErrConnect) || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("no socket: %v", err)
	}
}

// A socket whose listener runs as another user (planted in a shared
// directory, say) is refused: the broker checks SO_PEERCRED.
func TestConnectorRefusesOtherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a listener as another user")
	}
	dir, err := os.MkdirTemp("", "connector-other-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	sock := filepath.Join(dir, "rdp.sock")
	exe, _ := os.Executable()
	bin, err := os.ReadFile(exe) // a copy other users can run: go test's own directory is 0700
	if err != nil {
		t.Fatal(err)
	}
	listener := filepath.Join(dir, "listener")
	if err := os.WriteFile(listener, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(listener)
	cmd.Env = append(os.Environ(), "ROLES_TEST_LISTEN_UNIX="+sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Skipf("the listener as uid 65534 did not start (%q, %v): the test binary's directory may not be reachable", line, err)
	}
	files, conn, _, err := startBroker(broker.Config{MaxFileBytes: 1, MaxCallBytes: 1, NoFiles: true, RDPSocket: sock}, build.SandboxEnforce)
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f, err := conn.Open(ctx)
	if err == nil {
		f.Close()
		t.Fatal("connected to another user's socket")
	}
	if !errors.Is(err, broker.ErrConnect) || !strings.Contains(err.Error(), "uid 65534") {
		t.Fatalf("err = %v", err)
	}
}
