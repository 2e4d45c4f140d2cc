package securitytests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// realBroker starts the binary's broker role exactly as the server does
// (socketpair on fd 3, empty environment, /dev/null stdio), sandboxed.
type realBroker struct {
	cmd    *exec.Cmd
	conn   *net.UnixConn
	c      *broker.Client
	exited chan struct{} // closed when the process has exited
	code   int
}

func startRealBroker(t *testing.T, maxFile, maxCall int64, roots ...string) *realBroker {
	t.Helper()
	return startRealBrokerFlags(t, nil, maxFile, maxCall, roots...)
}

// startRealBrokerFlags is startRealBroker with extra role flags.
func startRealBrokerFlags(t *testing.T, flags []string, maxFile, maxCall int64, roots ...string) *realBroker {
	t.Helper()
	requireSandbox(t)
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
	args := append([]string{roleBroker, "-sandbox=enforce",
		"-max-file-bytes=" + strconv.FormatInt(maxFile, 10), "-max-call-bytes=" + strconv.FormatInt(maxCall, 10)}, flags...)
	args = append(args, "--")
	cmd := exec.Command(binary, append(args, roots...)...)
	cmd.Env = []string{}
	cmd.ExtraFiles = []*os.File{theirs}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		t.Fatal(err)
	}
	b := &realBroker{cmd: cmd, conn: fc.(*net.UnixConn), exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		b.code = cmd.ProcessState.ExitCode()
		close(b.exited)
	}()
	h, err := broker.ReadHello(b.conn, 10*time.Second)
	if err != nil || !h.Sandboxed {
		t.Fatalf("broker hello: %+v %v; stderr:\n%s", h, err, stderr.String())
	}
	t.Cleanup(func() {
		b.conn.Close()
		select {
		case <-b.exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("broker stderr:\n%s", stderr.String())
		}
	})
	return b
}

func (b *realBroker) client() *broker.Client {
	if b.c == nil {
		b.c = broker.NewClient(b.conn)
	}
	return b.c
}

func (b *realBroker) waitExit(d time.Duration) (int, bool) {
	select {
	case <-b.exited:
		return b.code, true
	case <-time.After(d):
		return 0, false
	}
}

func outcome(err error) string {
	if err == nil {
		return "accepted"
	}
	var e *broker.Error
	if errors.As(err, &e) {
		return string(e.Code)
	}
	return "error " + err.Error()
}

func TestRealBrokerPaths(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mk := func(p string, n int) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, bytes.Repeat([]byte("a"), n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(root, "ok.txt"), 10)
	mk(filepath.Join(root, "big.bin"), 2048)
	mk(filepath.Join(dir, "rootx", "sibling.txt"), 10)
	mk(filepath.Join(dir, "outside.txt"), 10)
	os.Symlink("../outside.txt", filepath.Join(root, "escape-relative"))
	os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(root, "escape-absolute"))
	os.Symlink("ok.txt", filepath.Join(root, "inside-link"))
	os.Symlink("/proc/self/root/etc/passwd", filepath.Join(root, "proc-escape"))
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	unix.Mkfifo(filepath.Join(root, "fifo"), 0o644)
	unix.Mknod(filepath.Join(root, "devnull"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3)))
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	b := startRealBroker(t, 1024, 1500, root)
	c := b.client()
	cases := []struct{ name, path, want string }{
		{"regular file beneath the root", root + "/ok.txt", "accepted"},
		{"symlink staying inside the root", root + "/inside-link", "accepted"},
		{"relative path", "ok.txt", string(errcode.UploadFileInvalid)},
		{"empty path", "", string(errcode.UploadFileInvalid)},
		{"'..' traversal", root + "/../outside.txt", string(errcode.UploadFileInvalid)},
		{"'/./' component", root + "/./ok.txt", string(errcode.UploadFileInvalid)},
		{"trailing '/'", root + "/ok.txt/", string(errcode.UploadFileInvalid)},
		{"'//' component", root + "//ok.txt", string(errcode.UploadFileInvalid)},
		{"NUL byte", root + "/ok.txt\x00.pdf", string(errcode.UploadFileInvalid)},
		{"over 4096 bytes", root + "/" + strings.Repeat("a", 4100), string(errcode.UploadFileInvalid)},
		{"prefix-substring root (/root vs /rootx)", dir + "/rootx/sibling.txt", string(errcode.UploadFileInvalid)},
		{"the root itself", root, string(errcode.UploadFileInvalid)},
		{"file outside the roots", dir + "/outside.txt", string(errcode.UploadFileInvalid)},
		{"system file", "/etc/passwd", string(errcode.UploadFileInvalid)},
		{"symlink escape (relative)", root + "/escape-relative", string(errcode.UploadFileInvalid)},
		{"symlink escape (absolute)", root + "/escape-absolute", string(errcode.UploadFileInvalid)},
		{"symlink escape via /proc", root + "/proc-escape", string(errcode.UploadFileInvalid)},
		{"directory", root + "/dir", string(errcode.UploadFileInvalid)},
		{"FIFO (must not hang)", root + "/fifo", string(errcode.UploadFileInvalid)},
		{"character device", root + "/devnull", string(errcode.UploadFileInvalid)},
		{"unix socket", root + "/sock", string(errcode.UploadFileInvalid)},
		{"missing file", root + "/missing", string(errcode.UploadFileInvalid)},
		{"file over the per-file limit", root + "/big.bin", string(errcode.UploadTooLarge)},
	}
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		files, err := c.Stat(ctx, []string{tc.path})
		cancel()
		record(t, "broker paths", tc.name, tc.want, outcome(err))
		var e *broker.Error
		if errors.As(err, &e) && strings.Contains(e.Message, dir) {
			t.Errorf("%s: message shows a directory: %q", tc.name, e.Message)
		}
		if err == nil {
			c.Release(context.Background(), []uint32{files[0].Handle})
		}
	}
	// Per-call total: 1000 + 1000 > 1500.
	mk(filepath.Join(root, "k1"), 1000)
	mk(filepath.Join(root, "k2"), 1000)
	_, err = c.Stat(context.Background(), []string{root + "/k1", root + "/k2"})
	record(t, "broker paths", "files over the per-call limit", string(errcode.UploadTooLarge), outcome(err))
	_, err = c.Stat(context.Background(), []string{root + "/ok.txt", root + "/dir"})
	var e *broker.Error
	idx := -1
	if errors.As(err, &e) {
		idx = e.Index
	}
	record(t, "broker paths", "the error names the offending path's index", "1", strconv.Itoa(idx))
}

// TestRealBrokerHardlinks: a hard link placed beneath an upload root to a
// file outside it is the outside file itself; openat2 and Landlock cannot
// tell. The broker refuses files with more than one link beneath roots,
// unless started with -allow-hardlinks (FIREFOX_MCP_ALLOW_HARDLINKS=1).
func TestRealBrokerHardlinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.Mkdir(root, 0o755)
	secret := []byte("outside the root: must not be uploaded")
	os.WriteFile(filepath.Join(dir, "secret"), secret, 0o600)
	if err := os.Link(filepath.Join(dir, "secret"), filepath.Join(root, "innocent.pdf")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "plain.txt"), []byte("one link"), 0o644)
	os.WriteFile(filepath.Join(root, "a"), []byte("two links, both inside"), 0o644)
	os.Link(filepath.Join(root, "a"), filepath.Join(root, "b"))

	c := startRealBroker(t, 1024, 1024, root).client()
	for _, tc := range []struct{ name, path, want string }{
		{"hard link to a file outside the root", root + "/innocent.pdf", string(errcode.UploadFileInvalid)},
		{"file with two links, both inside (cannot be told apart)", root + "/a", string(errcode.UploadFileInvalid)},
		{"control: file with one link", root + "/plain.txt", "accepted"},
	} {
		files, err := c.Stat(context.Background(), []string{tc.path})
		record(t, "broker hard links", tc.name, tc.want, outcome(err))
		var e *broker.Error
		if errors.As(err, &e) && (!strings.Contains(e.Message, "2 hard links") || !strings.Contains(e.Message, "FIREFOX_MCP_ALLOW_HARDLINKS=1")) {
			t.Errorf("%s: the message does not say why and how to allow it: %q", tc.name, e.Message)
		}
		if err == nil {
			c.Release(context.Background(), []uint32{files[0].Handle})
		}
	}

	allow := startRealBrokerFlags(t, []string{"-allow-hardlinks=true"}, 1024, 1024, root).client()
	files, err := allow.Stat(context.Background(), []string{root + "/innocent.pdf"})
	record(t, "broker hard links", "-allow-hardlinks: the linked file is accepted", "accepted", outcome(err))
	if err == nil {
		var got bytes.Buffer
		err = allow.Stream(context.Background(), files[0].Handle, func(b []byte) error { got.Write(b); return nil })
		if err != nil || !bytes.Equal(got.Bytes(), secret) {
			t.Errorf("allowed hard link streamed %q, %v", got.Bytes(), err)
		}
	}
}

func TestRealBrokerMidStream(t *testing.T) {
	dir := t.TempDir()
	size := 3*broker.MaxData + 7
	cases := []struct {
		name   string
		change func(p string)
	}{
		{"file shrinks mid-stream", func(p string) { os.Truncate(p, 100) }},
		{"file grows mid-stream", func(p string) {
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte("more"))
			f.Close()
		}},
		{"file replaced (rename) mid-stream", func(p string) {
			os.WriteFile(p+".new", make([]byte, size), 0o644)
			os.Rename(p+".new", p)
		}},
		{"file rewritten in place mid-stream", func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("zz"), int64(size-2))
			f.Close()
			later := time.Now().Add(time.Minute)
			os.Chtimes(p, later, later)
		}},
	}
	b := startRealBroker(t, 1<<20, 1<<20, dir)
	c := b.client()
	for i, tc := range cases {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		os.WriteFile(p, make([]byte, size), 0o644)
		files, err := c.Stat(context.Background(), []string{p})
		if err != nil {
			t.Fatal(err)
		}
		total, pieces := 0, 0
		err = c.Stream(context.Background(), files[0].Handle, func(b []byte) error {
			pieces++
			total += len(b)
			if pieces == 1 {
				tc.change(p)
			}
			return nil
		})
		record(t, "broker streaming", tc.name, string(errcode.UploadFileInvalid), outcome(err))
		c.Release(context.Background(), []uint32{files[0].Handle})
	}
	// Control: an unchanged file streams completely and exactly.
	p := filepath.Join(dir, "stable")
	want := bytes.Repeat([]byte("0123456789"), size/10)
	os.WriteFile(p, want, 0o644)
	files, err := c.Stat(context.Background(), []string{p})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	err = c.Stream(context.Background(), files[0].Handle, func(b []byte) error { got.Write(b); return nil })
	record(t, "broker streaming", "control: unchanged file streams exactly", "true", strconv.FormatBool(err == nil && bytes.Equal(got.Bytes(), want)))
}

func TestRealBrokerDeath(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	b := startRealBroker(t, 1024, 1024, dir)
	c := b.client()
	if _, err := c.Stat(context.Background(), []string{dir + "/f"}); err != nil {
		t.Fatal(err)
	}
	b.cmd.Process.Signal(syscall.SIGKILL)
	b.waitExit(5 * time.Second)
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
	}
	_, err := c.Stat(context.Background(), []string{dir + "/f"})
	record(t, "broker lifecycle", "broker killed: client gets a typed error", string(errcode.BrokerUnavailable), outcome(err))
	record(t, "broker lifecycle", "errors.Is(err, broker.ErrUnavailable)", "true", strconv.FormatBool(errors.Is(err, broker.ErrUnavailable)))
}

func TestRealBrokerExits(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		do   func(conn *net.UnixConn)
		want string
	}{
		{"malformed message", func(conn *net.UnixConn) { conn.Write([]byte("not a broker message")) }, "exit 3"},
		{"oversized message (MSG_TRUNC)", func(conn *net.UnixConn) { conn.Write(make([]byte, broker.MaxMessage+1)) }, "exit 3"},
		{"message carrying an fd", func(conn *net.UnixConn) {
			msg, _ := broker.Encode(nil, 1, broker.ReleaseReq{})
			conn.WriteMsgUnix(msg, unix.UnixRights(0), nil)
		}, "exit 3"},
		{"server closes the channel (EOF)", func(conn *net.UnixConn) { conn.Close() }, "exit 0"},
	}
	for _, tc := range cases {
		b := startRealBroker(t, 1024, 1024, dir)
		tc.do(b.conn)
		code, ok := b.waitExit(5 * time.Second)
		got := "still running"
		if ok {
			got = "exit " + strconv.Itoa(code)
		}
		record(t, "broker lifecycle", "broker exits on "+tc.name, tc.want, got)
	}
}
