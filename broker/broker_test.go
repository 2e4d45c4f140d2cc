package broker

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

func pair(t *testing.T) (server, brokerEnd *net.UnixConn) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	conv := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "pair")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		return c.(*net.UnixConn)
	}
	return conv(fds[0]), conv(fds[1])
}

type harness struct {
	c    *Client
	done chan error // Serve's result
	b    *Broker
	end  *net.UnixConn
}

// start runs an in-process broker (no sandbox: the file logic is what is
// tested here; security-tests run the real, sandboxed process).
func start(t *testing.T, cfg Config) *harness {
	t.Helper()
	s, bEnd := pair(t)
	b, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{c: NewClient(s), done: make(chan error, 1), b: b, end: bEnd}
	go func() { h.done <- b.Serve(bEnd); bEnd.Close() }()
	t.Cleanup(func() {
		h.c.Close()
		select {
		case <-h.done:
		case <-time.After(5 * time.Second):
			t.Error("broker did not exit after the client closed")
		}
		b.Close()
	})
	return h
}

func limits(roots ...string) Config {
	return Config{Roots: roots, MaxFileBytes: 1 << 20, MaxCallBytes: 3 << 19}
}

func write(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, c *Client, h uint32) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	err := c.Stream(context.Background(), h, func(p []byte) error {
		if len(p) > MaxData {
			t.Errorf("piece of %d bytes", len(p))
		}
		buf.Write(p)
		return nil
	})
	return buf.Bytes(), err
}

func wantCode(t *testing.T, err error, code errcode.Code, idx int) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error %s", err, err, code)
	}
	if e.Code != code || (idx != -2 && e.Index != idx) {
		t.Fatalf("err = %+v, want code %s index %d", e, code, idx)
	}
	return e
}

func TestStatAndStream(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320000 bytes: several pieces
	write(t, filepath.Join(root, "sub", "cv.pdf"), data)
	write(t, filepath.Join(root, "empty.txt"), nil)
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	os.Chtimes(filepath.Join(root, "sub", "cv.pdf"), mtime, mtime)
	h := start(t, limits(root))
	before := fdCount(t)
	files, err := h.c.Stat(context.Background(), []string{filepath.Join(root, "sub", "cv.pdf"), filepath.Join(root, "empty.txt")})
	if err != nil {
		t.Fatal(err)
	}
	f := files[0]
	if f.Name != "cv.pdf" || f.Size != int64(len(data)) || f.MIME != "application/pdf" || !f.ModTime.Equal(mtime) {
		t.Fatalf("metadata %+v", f)
	}
	if files[1].Size != 0 || files[1].Name != "empty.txt" {
		t.Fatalf("empty %+v", files[1])
	}
	got, err := readAll(t, h.c, f.Handle)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stream: %v, %d bytes", err, len(got))
	}
	// A handle can be streamed again (a retried transfer).
	if got, err = readAll(t, h.c, f.Handle); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("second stream: %v", err)
	}
	if got, err = readAll(t, h.c, files[1].Handle); err != nil || len(got) != 0 {
		t.Fatalf("empty stream: %v %d", err, len(got))
	}
	if err := h.c.Release(context.Background(), []uint32{f.Handle, files[1].Handle, 9999}); err != nil {
		t.Fatal(err)
	}
	if after := fdCount(t); after != before {
		t.Fatalf("fds %d → %d after Release", before, after)
	}
	_, err = readAll(t, h.c, f.Handle)
	wantCode(t, err, errcode.UploadFileInvalid, -1)
}

func TestPathChecks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	write(t, filepath.Join(root, "ok.txt"), []byte("ok"))
	write(t, filepath.Join(dir, "rootx", "sib.txt"), []byte("sibling"))
	write(t, filepath.Join(dir, "outside.txt"), []byte("secret"))
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("../outside.txt", filepath.Join(root, "escape-rel")))
	must(os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(root, "escape-abs")))
	must(os.Symlink("ok.txt", filepath.Join(root, "inside-link")))
	must(os.Symlink(filepath.Join(root, "ok.txt"), filepath.Join(root, "inside-abs-link")))
	must(os.Mkdir(filepath.Join(root, "adir"), 0o755))
	must(os.Symlink("..", filepath.Join(root, "adir", "up")))
	must(unix.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	must(unix.Mknod(filepath.Join(root, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	must(err)
	defer l.Close()
	h := start(t, limits(root))

	cases := []struct {
		path string
		want string // substring of the message; "" = must succeed
	}{
		{filepath.Join(root, "ok.txt"), ""},
		{filepath.Join(root, "inside-link"), ""},
		{filepath.Join(root, "adir", "up", "ok.txt"), ""}, // a symlink to .. that stays inside
		{"relative/ok.txt", "not absolute"},
		{root + "/../outside.txt", "not clean"},
		{root + "/./ok.txt", "not clean"},
		{root + "/ok.txt/", "names a directory"},
		{root + "/adir/", "names a directory"},
		{root + "//ok.txt", "not clean"},
		{root + "/ok\x00.txt", "NUL"},
		{filepath.Join(dir, "rootx", "sib.txt"), "not beneath an upload root"},
		{filepath.Join(dir, "outside.txt"), "not beneath an upload root"},
		{root, "is a directory (an upload root itself)"},
		{filepath.Join(root, "escape-rel"), "outside its upload root"},
		{filepath.Join(root, "escape-abs"), "outside its upload root"},
		{filepath.Join(root, "inside-abs-link"), "outside its upload root"}, // documented limitation
		{filepath.Join(root, "adir"), "directory"},
		{filepath.Join(root, "fifo"), "FIFO"},
		{filepath.Join(root, "null"), "device"},
		{filepath.Join(root, "sock"), "socket"},
		{filepath.Join(root, "missing"), "does not exist"},
		{filepath.Join(root, "ok.txt", "below"), "not a directory"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		files, err := h.c.Stat(ctx, []string{c.path})
		cancel()
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.path, err)
				continue
			}
			h.c.Release(context.Background(), []uint32{files[0].Handle})
			continue
		}
		if err == nil {
			t.Errorf("%q accepted", c.path)
			continue
		}
		e := wantCode(t, err, errcode.UploadFileInvalid, 0)
		if !strings.Contains(e.Message, c.want) {
			t.Errorf("%q: message %q lacks %q", c.path, e.Message, c.want)
		}
		if strings.Contains(e.Message, dir) {
			t.Errorf("%q: message reveals the directory: %q", c.path, e.Message)
		}
	}
}

func TestNoRootsFollowsSymlinksButNotMagicLinks(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "real.txt"), []byte("real"))
	if err := os.Symlink(filepath.Join(dir, "real.txt"), filepath.Join(dir, "abs-link")); err != nil {
		t.Fatal(err)
	}
	h := start(t, limits())
	files, err := h.c.Stat(context.Background(), []string{filepath.Join(dir, "abs-link")})
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Name != "abs-link" || files[0].Size != 4 {
		t.Fatalf("%+v", files[0])
	}
	f, err := os.Open(filepath.Join(dir, "real.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = h.c.Stat(context.Background(), []string{"/proc/self/fd/" + strconv.Itoa(int(f.Fd()))})
	e := wantCode(t, err, errcode.UploadFileInvalid, 0)
	if !strings.Contains(e.Message, "magic link") {
		t.Errorf("message %q", e.Message)
	}
	_, err = h.c.Stat(context.Background(), []string{"/dev/null"})
	wantCode(t, err, errcode.UploadFileInvalid, 0)
}

func fdCount(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func TestLimitsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a"), make([]byte, 1<<20))
	write(t, filepath.Join(dir, "b"), make([]byte, 1<<20))
	write(t, filepath.Join(dir, "big"), make([]byte, 1<<20+1))
	h := start(t, limits(dir))
	before := fdCount(t)
	_, err := h.c.Stat(context.Background(), []string{filepath.Join(dir, "a"), filepath.Join(dir, "big")})
	e := wantCode(t, err, errcode.UploadTooLarge, 1)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(e.Message, "per file") {
		t.Fatalf("%v", err)
	}
	_, err = h.c.Stat(context.Background(), []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")})
	e = wantCode(t, err, errcode.UploadTooLarge, 1)
	if !strings.Contains(e.Message, "per call") {
		t.Fatalf("%v", err)
	}
	_, err = h.c.Stat(context.Background(), []string{filepath.Join(dir, "a"), filepath.Join(dir, "missing")})
	wantCode(t, err, errcode.UploadFileInvalid, 1)
	if after := fdCount(t); after != before {
		t.Fatalf("fds %d → %d: a failed Stat leaked", before, after)
	}
	// Client-side checks need no round trip and keep the index.
	_, err = h.c.Stat(context.Background(), []string{filepath.Join(dir, "a"), "rel"})
	wantCode(t, err, errcode.UploadFileInvalid, 1)
	_, err = h.c.Stat(context.Background(), make([]string, MaxPaths+1))
	wantCode(t, err, errcode.UploadTooLarge, -1)
	_, err = h.c.Stat(context.Background(), nil)
	wantCode(t, err, errcode.UploadFileInvalid, -1)
}

func TestHandleCap(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), []byte("x"))
	h := start(t, limits(dir))
	var paths []string
	for i := 0; i < MaxPaths; i++ {
		paths = append(paths, filepath.Join(dir, "f"))
	}
	for i := 0; i < MaxHandles/MaxPaths; i++ {
		if _, err := h.c.Stat(context.Background(), paths); err != nil {
			t.Fatal(err)
		}
	}
	_, err := h.c.Stat(context.Background(), paths[:1])
	wantCode(t, err, errcode.UploadTooLarge, -1)
}

// Files that change between Stat and the end of Stream are errors.
func TestChangesMidStream(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("x"), 3*MaxData+10)
	cases := []struct {
		name   string
		change func(p string)
		want   string
	}{
		{"shrink", func(p string) { os.Truncate(p, int64(MaxData)) }, "shrank"},
		{"grow", func(p string) {
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte("more"))
			f.Close()
		}, "grew"},
		{"modify in place", func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("y"), int64(2*MaxData))
			f.Close()
			later := time.Now().Add(time.Hour)
			os.Chtimes(p, later, later)
		}, "modified"},
		{"replace by rename", func(p string) {
			write(t, p+".new", data)
			os.Rename(p+".new", p)
		}, "removed or replaced"},
		{"delete", func(p string) { os.Remove(p) }, "removed or replaced"},
		{"replace the parent directory", func(p string) {
			// The old inode is untouched (same ctime): only the final
			// re-resolution of the path can tell.
			d := filepath.Dir(p)
			os.Rename(d, d+".old")
			write(t, p, data)
		}, "removed or replaced"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"), "f")
			write(t, p, data)
			h := start(t, limits(dir))
			files, err := h.c.Stat(context.Background(), []string{p})
			if err != nil {
				t.Fatal(err)
			}
			var got int
			pieces := 0
			err = h.c.Stream(context.Background(), files[0].Handle, func(b []byte) error {
				pieces++
				got += len(b)
				if pieces == 1 {
					c.change(p)
				}
				return nil
			})
			e := wantCode(t, err, errcode.UploadFileInvalid, -1)
			if !strings.Contains(e.Message, c.want) {
				t.Fatalf("message %q lacks %q", e.Message, c.want)
			}
			if got >= len(data) && c.name != "grow" {
				t.Fatalf("all %d bytes delivered despite the change", got)
			}
		})
	}
}

func TestStreamCancelAndCallbackError(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), make([]byte, 5*MaxData))
	h := start(t, limits(dir))
	files, err := h.c.Stat(context.Background(), []string{filepath.Join(dir, "f")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err = h.c.Stream(ctx, files[0].Handle, func(p []byte) error { n++; cancel(); return nil })
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Fatalf("err %v after %d pieces", err, n)
	}
	boom := errors.New("boom")
	err = h.c.Stream(context.Background(), files[0].Handle, func(p []byte) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	// The channel is still usable.
	if _, err := readAll(t, h.c, files[0].Handle); err != nil {
		t.Fatal(err)
	}
}

func TestBrokerDeathIsTyped(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), []byte("x"))
	h := start(t, limits(dir))
	if _, err := h.c.Stat(context.Background(), []string{filepath.Join(dir, "f")}); err != nil {
		t.Fatal(err)
	}
	h.end.Close() // the broker's end disappears, as when the process dies
	select {
	case <-h.c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("client did not notice")
	}
	_, err := h.c.Stat(context.Background(), []string{filepath.Join(dir, "f")})
	wantCode(t, err, errcode.BrokerUnavailable, -1)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatal("errors.Is by code")
	}
}

// rawClient sends arbitrary datagrams to a broker.
func rawBroker(t *testing.T, cfg Config) (*net.UnixConn, chan error) {
	t.Helper()
	s, bEnd := pair(t)
	done := make(chan error, 1)
	go func() { done <- Serve(bEnd, cfg); bEnd.Close() }()
	t.Cleanup(func() { s.Close() })
	return s, done
}

func waitExit(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("broker still running")
		return nil
	}
}

func TestBrokerExitsOnMalformed(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]func(c *net.UnixConn) error{
		"garbage": func(c *net.UnixConn) error { _, err := c.Write([]byte("hello broker")); return err },
		"oversize (MSG_TRUNC)": func(c *net.UnixConn) error {
			_, err := c.Write(make([]byte, MaxMessage+100))
			return err
		},
		"reply type from the server": func(c *net.UnixConn) error {
			b, _ := Encode(nil, 1, ReleaseResp{})
			_, err := c.Write(b)
			return err
		},
		"ancillary fd": func(c *net.UnixConn) error {
			b, _ := Encode(nil, 1, ReleaseReq{})
			_, _, err := c.WriteMsgUnix(b, unix.UnixRights(0), nil)
			return err
		},
		"empty datagram": func(c *net.UnixConn) error { _, err := c.Write(nil); return err },
	}
	for name, send := range cases {
		t.Run(name, func(t *testing.T) {
			c, done := rawBroker(t, limits(dir))
			if err := send(c); err != nil {
				t.Fatal(err)
			}
			err := waitExit(t, done)
			if name == "empty datagram" {
				if err != nil {
					t.Fatalf("empty datagram: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Serve returned %v, want ErrMalformed", err)
			}
		})
	}
}

func TestBrokerExitsOnEOF(t *testing.T) {
	c, done := rawBroker(t, limits(t.TempDir()))
	c.Close()
	if err := waitExit(t, done); err != nil {
		t.Fatalf("EOF: %v", err)
	}
}

func TestBrokerUnknownHandle(t *testing.T) {
	c, done := rawBroker(t, limits(t.TempDir()))
	b, _ := Encode(nil, 1, ReadReq{Handle: 77})
	if _, err := c.Write(b); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, MaxMessage)
	n, err := c.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := Decode(buf[:n])
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := m.(ErrorResp); !ok || e.Code != errcode.BrokerProtocol {
		t.Fatalf("%#v", m)
	}
	c.Close()
	waitExit(t, done)
}

func TestConfigCheck(t *testing.T) {
	bad := []Config{
		{MaxFileBytes: 0, MaxCallBytes: 1},
		{MaxFileBytes: 1, MaxCallBytes: -1},
		{Roots: []string{"rel"}, MaxFileBytes: 1, MaxCallBytes: 1},
		{Roots: []string{"/a/"}, MaxFileBytes: 1, MaxCallBytes: 1},
	}
	for _, c := range bad {
		if c.Check() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := Open(Config{Roots: []string{"/nonexistent-root-dir"}, MaxFileBytes: 1, MaxCallBytes: 1}); err == nil {
		t.Error("missing root accepted")
	}
}

// TestHardlinks: beneath roots, a file with more than one link is refused
// (another link may be outside the roots) unless AllowHardlinks; without
// roots every readable file is allowed anyway, so links are too.
func TestHardlinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	write(t, filepath.Join(dir, "outside.txt"), []byte("secret"))
	write(t, filepath.Join(root, "single.txt"), []byte("one link"))
	if err := os.Link(filepath.Join(dir, "outside.txt"), filepath.Join(root, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(root, "linked.txt")

	h := start(t, limits(root))
	_, err := h.c.Stat(context.Background(), []string{filepath.Join(root, "single.txt"), linked})
	e := wantCode(t, err, errcode.UploadFileInvalid, 1)
	for _, want := range []string{`"linked.txt" has 2 hard links`, "outside the upload roots", "FIREFOX_MCP_ALLOW_HARDLINKS=1"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q lacks %q", e.Message, want)
		}
	}
	if strings.Contains(e.Message, dir) {
		t.Errorf("message shows a directory: %q", e.Message)
	}

	cfg := limits(root)
	cfg.AllowHardlinks = true
	for name, cfg := range map[string]Config{"AllowHardlinks": cfg, "no roots": limits()} {
		h := start(t, cfg)
		files, err := h.c.Stat(context.Background(), []string{linked})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := readAll(t, h.c, files[0].Handle)
		if err != nil || string(got) != "secret" {
			t.Errorf("%s: read %q, %v", name, got, err)
		}
	}
}
