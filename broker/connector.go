package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The RDP connector. Firefox's debugger listens on a Unix socket in a
// directory only the user can enter; the sandboxed server cannot connect to
// a path (its seccomp allows no AF_UNIX socket, and Landlock before ABI 9
// cannot confine a pathname connect to one socket). So the broker, which
// already runs outside the server's sandbox, connects on its behalf and
// passes the connected descriptor back with SCM_RIGHTS, over a socketpair
// of its own (the file channel never carries ancillary data).
//
// The protocol is one datagram each way: the server sends two bytes,
// connectorMagic and a sequence number; the broker answers with the same
// two bytes, a status and, on success, exactly one descriptor; on failure a
// message of at most MaxMsgText bytes. The request names no path: the
// socket is fixed when the broker starts, so a compromised server cannot
// point the broker anywhere else. The broker refuses a listener that runs
// as another user (SO_PEERCRED), which is what a socket planted by someone
// else (in a shared /tmp, say) would be.

const (
	connectorMagic = 'C'
	connectOK      = 0
	connectFailed  = 1
	// connectTimeout bounds the server's wait for an answer when its
	// context has no deadline.
	connectTimeout = 5 * time.Second
)

// ErrConnect is why the broker could not connect to the debugger socket.
var ErrConnect = errors.New("broker: cannot connect to Firefox's debugger socket")

// ServeConnector answers connect requests on conn, for the socket at path
// whose listener must run as uid, until the server closes conn (nil) or
// sends anything malformed (an error).
func ServeConnector(conn *net.UnixConn, path string, uid int) error {
	buf := make([]byte, 16)
	oob := make([]byte, 64)
	for {
		n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("broker: connector read: %w", err)
		}
		if n == 0 {
			return nil
		}
		if n != 2 || buf[0] != connectorMagic || oobn != 0 || flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 {
			return fmt.Errorf("%w: connector request of %d bytes, oob %d", ErrMalformed, n, oobn)
		}
		if err := connectFor(conn, buf[1], path, uid); err != nil {
			return err
		}
	}
}

// connectFor connects once and answers request seq.
func connectFor(conn *net.UnixConn, seq byte, path string, uid int) error {
	fd, err := dialDebugger(path, uid)
	if err != nil {
		msg := strings.ToValidUTF8(err.Error(), "\uFFFD")
		if len(msg) > MaxMsgText {
			msg = msg[:MaxMsgText]
		}
		_, _, werr := conn.WriteMsgUnix(append([]byte{connectorMagic, seq, connectFailed}, msg...), nil, nil)
		return werr
	}
	defer unix.Close(fd) // the server holds its own copy once sent
	_, _, err = conn.WriteMsgUnix([]byte{connectorMagic, seq, connectOK}, unix.UnixRights(fd), nil)
	return err
}

// dialDebugger connects to path with plain system calls (no poller, no
// name lookup) and checks that the listener is uid's. The socket is
// non-blocking, so the server's deadlines work on it; a Unix stream connect
// completes at once or fails (EAGAIN: the listener's backlog is full).
func dialDebugger(path string, uid int) (int, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EAGAIN) {
			return -1, errors.New("connect: Firefox's debugger is not accepting connections (its backlog is full)")
		}
		return -1, fmt.Errorf("connect: %w", err)
	}
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	switch {
	case err != nil:
		unix.Close(fd)
		return -1, fmt.Errorf("reading the listener's credentials: %w", err)
	case int(cred.Uid) != uid:
		unix.Close(fd)
		return -1, fmt.Errorf("the socket's listener runs as uid %d, not as this user (uid %d): refused", cred.Uid, uid)
	}
	return fd, nil
}

// Connector is the server's side of the connector channel; safe for
// concurrent use (requests go one at a time).
type Connector struct {
	mu   sync.Mutex
	conn *net.UnixConn
	seq  byte
}

// NewConnector wraps the server's end of the connector socketpair.
func NewConnector(conn *net.UnixConn) *Connector { return &Connector{conn: conn} }

// Close closes the channel; the broker then stops.
func (c *Connector) Close() error { return c.conn.Close() }

// Open asks the broker for a new connection to the debugger socket and
// returns it as a file (non-blocking, so its deadlines work). Errors wrap
// ErrConnect with the broker's reason.
func (c *Connector) Open(ctx context.Context) (*os.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(2 * connectTimeout)
	}
	c.conn.SetDeadline(deadline)
	defer c.conn.SetDeadline(time.Time{})
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Now()) })
	defer stop()
	c.seq++
	if _, _, err := c.conn.WriteMsgUnix([]byte{connectorMagic, c.seq}, nil, nil); err != nil {
		return nil, fmt.Errorf("%w: the broker is not answering: %v", ErrConnect, err)
	}
	buf := make([]byte, 3+MaxMsgText)
	oob := make([]byte, unix.CmsgSpace(4*4))
	for {
		n, oobn, flags, _, err := c.conn.ReadMsgUnix(buf, oob)
		if err != nil || n == 0 {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%w: the broker is not answering: %v", ErrConnect, err)
		}
		fds := receivedFDs(oob[:oobn])
		if n < 3 || buf[0] != connectorMagic || buf[1] != c.seq || flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 {
			closeAll(fds) // a late answer to a request given up on
			continue
		}
		if buf[2] != connectOK || len(fds) != 1 {
			closeAll(fds)
			return nil, fmt.Errorf("%w: %s", ErrConnect, strings.ToValidUTF8(string(buf[3:n]), "\uFFFD"))
		}
		return os.NewFile(uintptr(fds[0]), "firefox-debugger-socket"), nil
	}
}

func receivedFDs(oob []byte) []int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for i := range msgs {
		if f, err := unix.ParseUnixRights(&msgs[i]); err == nil {
			fds = append(fds, f...)
		}
	}
	return fds
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}
