package broker

import (
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Config is the broker's trusted configuration, fixed at start.
type Config struct {
	// Roots are the upload roots: clean absolute directories. Empty means
	// every readable regular file may be uploaded (the seed's behaviour).
	Roots []string
	// MaxFileBytes and MaxCallBytes limit one file and one Stat call.
	MaxFileBytes, MaxCallBytes int64
	// AllowHardlinks accepts, beneath Roots, regular files with more than
	// one hard link. By default they are refused: a hard link placed inside
	// a root may name a file outside it, and neither openat2 nor Landlock
	// can tell (a link is the file itself, not a path to it). Without Roots
	// the check is moot and not made.
	AllowHardlinks bool
	// NoFiles: uploads are off; the broker opens no root and reads no
	// file (it runs for the connector alone, connector.go).
	NoFiles bool
	// RDPSocket is Firefox's debugger socket, which the broker connects to
	// for the server (connector.go); "" = the server uses the ws: endpoint.
	RDPSocket string
}

// HardlinkHint says how to allow hard-linked files (the variable is
// internal/config's EnvAllowHardlinks; a test in cmd holds the two equal).
const HardlinkHint = "set FIREFOX_MCP_ALLOW_HARDLINKS=1 in the server's environment to allow them"

// MaxHandles bounds the open files the broker holds at once.
const MaxHandles = 256

// Check validates the configuration itself.
func (c Config) Check() error {
	if c.MaxFileBytes <= 0 || c.MaxCallBytes <= 0 {
		return errors.New("broker: limits must be positive")
	}
	if c.RDPSocket != "" {
		if reason, ok := ValidatePath(c.RDPSocket); !ok {
			return fmt.Errorf("broker: debugger socket %q: %s", c.RDPSocket, reason)
		}
	}
	for _, r := range c.Roots {
		if r != "/" {
			if reason, ok := ValidatePath(r); !ok {
				return fmt.Errorf("broker: upload root %q: %s", r, reason)
			}
		}
	}
	return nil
}

// Broker is the broker role: it holds one O_PATH fd per root, opened before
// the sandbox, and the files it has opened for the server.
type Broker struct {
	cfg     Config
	roots   []string
	rootFDs []int
	resolve uint64
	files   map[uint32]*openFile
	next    uint32
}

type openFile struct {
	fd     int
	root   int
	rel    string
	size   int64
	dev    uint64
	ino    uint64
	nlink  uint64 // hard links at open
	mtime  unix.Timespec
	ctime  unix.Timespec
	handle uint32
}

// Open validates cfg and opens the root directories. Call it before the
// sandbox: afterwards only openat2 beneath these fds is possible.
func Open(cfg Config) (*Broker, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	b := &Broker{cfg: cfg, files: map[uint32]*openFile{}, next: 1}
	if cfg.NoFiles {
		return b, nil
	}
	if len(cfg.Roots) == 0 {
		// No roots: resolve like the kernel would from "/", minus /proc
		// magic links. RESOLVE_IN_ROOT with "/" as the root is ordinary
		// resolution (absolute symlinks still mean "/…").
		b.roots = []string{"/"}
		b.resolve = unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS
	} else {
		// Roots: every component, symlinks included, must stay beneath the
		// root; ".." above it and absolute symlinks fail with EXDEV.
		b.roots = append([]string(nil), cfg.Roots...)
		b.resolve = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS
	}
	for _, r := range b.roots {
		fd, err := unix.Open(r, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("broker: upload root %q: %w", r, err)
		}
		b.rootFDs = append(b.rootFDs, fd)
	}
	return b, nil
}

// Close releases every fd the broker holds.
func (b *Broker) Close() {
	for _, f := range b.files {
		unix.Close(f.fd)
	}
	b.files = map[uint32]*openFile{}
	for _, fd := range b.rootFDs {
		unix.Close(fd)
	}
	b.rootFDs = nil
}

// Serve opens cfg's roots and runs the broker loop on conn; see
// (*Broker).Serve. Use Open + (*Broker).Serve to sandbox in between.
func Serve(conn *net.UnixConn, cfg Config) error {
	b, err := Open(cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	return b.Serve(conn)
}

// Serve answers requests on conn until the server closes it (nil) or sends
// anything malformed (an error; the caller exits). Requests are handled one
// at a time, in order.
func (b *Broker) Serve(conn *net.UnixConn) error {
	buf := make([]byte, MaxMessage)
	oob := make([]byte, 64)
	out := make([]byte, 0, MaxMessage)
	data := make([]byte, MaxData)
	for {
		n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("broker: read: %w", err)
		}
		if n == 0 {
			return nil // peer closed
		}
		if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || oobn != 0 {
			return fmt.Errorf("%w: truncated or carries ancillary data (flags %#x, oob %d)", ErrMalformed, flags, oobn)
		}
		id, msg, err := Decode(buf[:n])
		if err != nil {
			return err
		}
		var reply Message
		switch m := msg.(type) {
		case StatReq:
			reply = b.stat(m.Paths)
		case ReadReq:
			reply = b.read(m, data)
		case ReleaseReq:
			for _, h := range m.Handles {
				b.release(h)
			}
			reply = ReleaseResp{}
		default:
			return fmt.Errorf("%w: unexpected %T from the server", ErrMalformed, msg)
		}
		out, err = Encode(out[:0], id, reply)
		if err != nil {
			return err
		}
		if _, _, err := conn.WriteMsgUnix(out, nil, nil); err != nil {
			return fmt.Errorf("broker: write: %w", err)
		}
	}
}

func errResp(code errcode.Code, idx int, msg string) ErrorResp {
	if len(msg) > MaxMsgText {
		msg = msg[:MaxMsgText]
	}
	return ErrorResp{Code: code, Index: int32(idx), Message: strings.ToValidUTF8(msg, "\uFFFD")}
}

// showName is the basename of a path as it may be shown: valid UTF-8,
// bounded, never a directory.
func showName(p string) string {
	n := strings.ToValidUTF8(filepath.Base(p), "\uFFFD")
	if len(n) > 255 {
		n = n[:255]
		for !utf8.ValidString(n) {
			n = n[:len(n)-1]
		}
	}
	return n
}

// stat validates and opens every path; all or nothing.
func (b *Broker) stat(paths []string) Message {
	if b.cfg.NoFiles {
		return errResp(errcode.UploadFileInvalid, -1, "uploads are off: the broker opens no file")
	}
	var opened []*openFile
	fail := func(r ErrorResp) Message {
		for _, f := range opened {
			unix.Close(f.fd)
		}
		return r
	}
	if len(b.files)+len(paths) > MaxHandles {
		return fail(errResp(errcode.UploadTooLarge, -1, fmt.Sprintf("the broker already holds %d open files (limit %d); release some first", len(b.files), MaxHandles)))
	}
	var total int64
	var files []WireFile
	for i, p := range paths {
		if reason, ok := ValidatePath(p); !ok {
			return fail(errResp(errcode.UploadFileInvalid, i, reason))
		}
		name := showName(p)
		root, rel, ok := RootFor(b.roots, p)
		if !ok && slices.Contains(b.roots, p) {
			return fail(errResp(errcode.UploadFileInvalid, i, fmt.Sprintf("%q is a directory (an upload root itself): only regular files can be uploaded", name)))
		}
		if !ok {
			return fail(errResp(errcode.UploadFileInvalid, i, fmt.Sprintf("%q is not beneath an upload root", name)))
		}
		f, err := b.openAt(root, rel)
		if err != nil {
			return fail(errResp(errcode.UploadFileInvalid, i, fmt.Sprintf("%q: %s", name, err)))
		}
		opened = append(opened, f)
		if f.nlink > 1 && len(b.cfg.Roots) > 0 && !b.cfg.AllowHardlinks {
			return fail(errResp(errcode.UploadFileInvalid, i, fmt.Sprintf(
				"%q has %d hard links: another link may be a file outside the upload roots, which this check cannot see, so files with more than one link are refused (%s)",
				name, f.nlink, HardlinkHint)))
		}
		if f.size > b.cfg.MaxFileBytes {
			return fail(errResp(errcode.UploadTooLarge, i, fmt.Sprintf("%q is %d bytes; the limit per file is %d", name, f.size, b.cfg.MaxFileBytes)))
		}
		total += f.size
		if total > b.cfg.MaxCallBytes {
			return fail(errResp(errcode.UploadTooLarge, i, fmt.Sprintf("the files add up to more than %d bytes, the limit per call", b.cfg.MaxCallBytes)))
		}
		head := make([]byte, min(int64(SniffLen), f.size))
		if len(head) > 0 {
			n, err := unix.Pread(f.fd, head, 0)
			if err != nil {
				return fail(errResp(errcode.UploadFileInvalid, i, fmt.Sprintf("%q cannot be read: %s", name, errnoText(err))))
			}
			head = head[:n]
		}
		files = append(files, WireFile{
			Size:      f.size,
			ModTimeNS: f.mtime.Nano(),
			Name:      name,
			MIME:      mimeType(name, head),
		})
	}
	for i, f := range opened {
		for b.files[b.next] != nil || b.next == 0 {
			b.next++
		}
		f.handle = b.next
		b.next++
		b.files[f.handle] = f
		files[i].Handle = f.handle
	}
	return StatResp{Files: files}
}

// openAt opens rel beneath root in two steps: an O_PATH open that cannot
// trigger a device's open side effects, fstat (regular file only), then the
// read-only open, whose identity must equal the first one.
func (b *Broker) openAt(root int, rel string) (*openFile, error) {
	pfd, err := unix.Openat2(b.rootFDs[root], rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: b.resolve,
	})
	if err != nil {
		return nil, errors.New(errnoText(err))
	}
	defer unix.Close(pfd)
	var pst unix.Stat_t
	if err := unix.Fstat(pfd, &pst); err != nil {
		return nil, errors.New(errnoText(err))
	}
	if err := regular(pst.Mode); err != nil {
		return nil, err
	}
	fd, err := unix.Openat2(b.rootFDs[root], rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK,
		Resolve: b.resolve,
	})
	if err != nil {
		return nil, errors.New(errnoText(err))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, errors.New(errnoText(err))
	}
	if err := regular(st.Mode); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if st.Dev != pst.Dev || st.Ino != pst.Ino {
		unix.Close(fd)
		return nil, errors.New("was replaced while it was being opened")
	}
	return &openFile{fd: fd, root: root, rel: rel, size: st.Size, dev: st.Dev, ino: st.Ino, nlink: uint64(st.Nlink), mtime: st.Mtim, ctime: st.Ctim}, nil
}

func regular(mode uint32) error {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return nil
	case unix.S_IFDIR:
		return errors.New("is a directory")
	case unix.S_IFIFO:
		return errors.New("is a FIFO, not a regular file")
	case unix.S_IFSOCK:
		return errors.New("is a socket, not a regular file")
	case unix.S_IFCHR, unix.S_IFBLK:
		return errors.New("is a device, not a regular file")
	}
	return errors.New("is not a regular file")
}

// errnoText turns an open/read failure into words that reveal no path.
func errnoText(err error) string {
	var e unix.Errno
	if !errors.As(err, &e) {
		return "cannot be opened"
	}
	switch e {
	case unix.ENOENT:
		return "does not exist"
	case unix.EACCES, unix.EPERM:
		return "permission denied"
	case unix.EXDEV:
		return "resolves outside its upload root (\"..\" or a symlink leading out; absolute symlinks are refused beneath a root)"
	case unix.ELOOP:
		return "has too many levels of symlinks or goes through a /proc magic link"
	case unix.ENOTDIR:
		return "a component of the path is not a directory"
	case unix.ENAMETOOLONG:
		return "name too long"
	case unix.EISDIR:
		return "is a directory"
	case unix.ENXIO, unix.ENODEV:
		return "is not a regular file"
	}
	return "cannot be opened (" + e.Error() + ")"
}

// read returns the piece of a handle at req.Offset. Every piece re-checks
// the fd's identity; the last one also proves the file did not grow and
// that its path still names the same file.
func (b *Broker) read(req ReadReq, buf []byte) Message {
	f := b.files[req.Handle]
	if f == nil {
		return errResp(errcode.BrokerProtocol, -1, "unknown handle")
	}
	if req.Offset > f.size {
		return errResp(errcode.BrokerProtocol, -1, "offset beyond the end of the file")
	}
	if err := f.unchanged(); err != nil {
		return errResp(errcode.UploadFileInvalid, -1, err.Error())
	}
	want := min(int64(len(buf)), f.size-req.Offset)
	got := 0
	for int64(got) < want {
		n, err := unix.Pread(f.fd, buf[got:want], req.Offset+int64(got))
		if err != nil {
			if err == unix.EINTR {
				continue
			}
			return errResp(errcode.UploadFileInvalid, -1, "the file cannot be read: "+errnoText(err))
		}
		if n == 0 {
			return errResp(errcode.UploadFileInvalid, -1, "the file shrank while it was being uploaded")
		}
		got += n
	}
	last := req.Offset+want == f.size
	if last {
		var one [1]byte
		n, err := unix.Pread(f.fd, one[:], f.size)
		if err != nil {
			return errResp(errcode.UploadFileInvalid, -1, "the file cannot be read: "+errnoText(err))
		}
		if n != 0 {
			return errResp(errcode.UploadFileInvalid, -1, "the file grew while it was being uploaded")
		}
		if err := f.unchanged(); err != nil {
			return errResp(errcode.UploadFileInvalid, -1, err.Error())
		}
		if err := b.samePath(f); err != nil {
			return errResp(errcode.UploadFileInvalid, -1, err.Error())
		}
	}
	return ReadResp{Last: last, Data: buf[:want]}
}

// unchanged compares the fd's current fstat with the one taken at open.
func (f *openFile) unchanged() error {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return errors.New("the file cannot be checked: " + errnoText(err))
	}
	switch {
	case st.Dev != f.dev || st.Ino != f.ino:
		return errors.New("the file changed identity while it was being uploaded")
	case st.Size < f.size:
		return errors.New("the file shrank while it was being uploaded")
	case st.Size > f.size:
		return errors.New("the file grew while it was being uploaded")
	case st.Nlink == 0:
		return errors.New("the file was removed or replaced while it was being uploaded")
	case st.Mtim != f.mtime || st.Ctim != f.ctime:
		return errors.New("the file was modified while it was being uploaded")
	}
	return nil
}

// samePath re-resolves the path and requires it to name the opened file,
// so a file replaced by rename during the upload is an error, not a
// silently stale upload.
func (b *Broker) samePath(f *openFile) error {
	pfd, err := unix.Openat2(b.rootFDs[f.root], f.rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: b.resolve,
	})
	if err != nil {
		return errors.New("the file was removed or replaced while it was being uploaded")
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil || st.Dev != f.dev || st.Ino != f.ino {
		return errors.New("the file was removed or replaced while it was being uploaded")
	}
	return nil
}

func (b *Broker) release(h uint32) {
	if f := b.files[h]; f != nil {
		unix.Close(f.fd)
		delete(b.files, h)
	}
}

// SendHello tells the server the broker is ready (and how it is confined).
// The broker role sends it once, after its sandbox and before Serve.
func SendHello(conn *net.UnixConn, h Hello) error {
	b, err := Encode(nil, 0, h)
	if err != nil {
		return err
	}
	_, _, err = conn.WriteMsgUnix(b, nil, nil)
	return err
}
