package rdp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
)

// Endpoint names where Firefox's debugger server listens: a Unix socket
// (`--start-debugger-server /absolute/path`, the default) or, for Firefox
// builds that need it, a loopback WebSocket (`ws:PORT`).
//
// Why the socket: Firefox checks no Origin on its ws: endpoint, so any web
// page the user opens on a loopback origin can connect to it and run code
// with the browser's full privileges. A Unix socket in a directory only the
// user can enter is reachable by the user's own processes alone.
type Endpoint struct {
	// Socket is the Unix socket's absolute path; when set, Addr is unused.
	Socket string
	// Addr is the ws: endpoint's loopback address (an IP literal).
	Addr netip.AddrPort
	// Open connects to Socket on the caller's behalf: the sandboxed server
	// cannot connect to a path itself, so its broker connects and passes
	// the descriptor. nil = connect directly.
	Open func(ctx context.Context) (Stream, error)
}

// String names the endpoint for messages: "unix:/path" or "ws://ip:port/".
func (e Endpoint) String() string {
	if e.Socket != "" {
		return "unix:" + e.Socket
	}
	return "ws://" + e.Addr.String() + "/"
}

// WebSocket reports whether the endpoint is a ws: one, which every web page
// on a loopback origin can reach.
func (e Endpoint) WebSocket() bool { return e.Socket == "" }

// Stream is a connected byte stream to the debugger's Unix socket: a
// net.Conn, or an *os.File made from a descriptor the broker passed.
type Stream interface {
	io.ReadWriteCloser
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

// transport moves whole RDP packets. WebSocket frames carry one packet
// each; the Unix socket speaks RDP's stream framing, "length:{json}".
type transport interface {
	ReadPacket() ([]byte, error)
	WritePacket(body []byte, deadline time.Time) error
	SetReadDeadline(time.Time) error
	// Goodbye tells the peer the client is leaving where the transport
	// has a way to (a WebSocket close frame); Close closes the connection.
	Goodbye()
	Close() error
}

// wsTransport is the ws: endpoint.
type wsTransport struct{ c *websocket.Conn }

func (t wsTransport) ReadPacket() ([]byte, error) {
	mt, data, err := t.c.ReadMessage()
	if err != nil {
		return nil, err
	}
	if mt != websocket.TextMessage {
		return nil, protocolError("binary frame")
	}
	return data, nil
}

func (t wsTransport) WritePacket(body []byte, deadline time.Time) error {
	t.c.SetWriteDeadline(deadline)
	return t.c.WriteMessage(websocket.TextMessage, body)
}

func (t wsTransport) SetReadDeadline(d time.Time) error { return t.c.SetReadDeadline(d) }

func (t wsTransport) Goodbye() {
	t.c.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""),
		time.Now().Add(time.Second))
}

func (t wsTransport) Close() error { return t.c.Close() }

func dialWebSocket(ctx context.Context, addr netip.AddrPort, opts Options) (transport, error) {
	if !addr.IsValid() {
		return nil, fmt.Errorf("rdp: dial: invalid address %v", addr)
	}
	d := websocket.Dialer{
		NetDialContext:  dialQuickAck,
		Proxy:           nil, // never a proxy: the peer is the local browser
		ReadBufferSize:  64 << 10,
		WriteBufferSize: 1 << 20, // upload chunks go out as one frame; Firefox is slower with many fragments (measured)
	}
	url := "ws://" + addr.String() + "/"
	conn, resp, err := d.DialContext(ctx, url, http.Header{})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("rdp: dial %s: %w", url, err)
	}
	conn.SetReadLimit(opts.ReadLimit)
	return wsTransport{conn}, nil
}

// maxLengthDigits bounds the length prefix of a stream packet: 20 digits
// hold any int64, and the read limit is checked on the value.
const maxLengthDigits = 20

// streamTransport is RDP's stream framing over a Unix socket: each packet
// is its length in bytes in decimal, a colon, and that many bytes of JSON.
// Firefox also defines bulk packets ("bulk actor type length:data"); it
// sends them only for requests this client never makes, so one ends the
// connection as a protocol error.
type streamTransport struct {
	s     Stream
	r     *bufio.Reader
	limit int64
}

func newStreamTransport(s Stream, limit int64) *streamTransport {
	return &streamTransport{s: s, r: bufio.NewReaderSize(s, 64<<10), limit: limit}
}

// ErrReadLimit reports a packet longer than Options.ReadLimit.
var ErrReadLimit = errors.New("rdp: packet exceeds the read limit")

func (t *streamTransport) ReadPacket() ([]byte, error) {
	var n int64
	for digits := 0; ; digits++ {
		b, err := t.r.ReadByte()
		if err != nil {
			return nil, err
		}
		if b == ':' && digits > 0 {
			break
		}
		if b < '0' || b > '9' || digits == maxLengthDigits {
			return nil, protocolError("stream packet does not start with a length (byte %q)", b)
		}
		n = n*10 + int64(b-'0')
		if n > t.limit {
			return nil, fmt.Errorf("%w (%d bytes)", ErrReadLimit, t.limit)
		}
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(t.r, data); err != nil {
		return nil, err
	}
	return data, nil
}

func (t *streamTransport) WritePacket(body []byte, deadline time.Time) error {
	t.s.SetWriteDeadline(deadline)
	// One write per packet: the prefix and the body are one buffer.
	buf := make([]byte, 0, len(body)+maxLengthDigits+1)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, ':')
	buf = append(buf, body...)
	_, err := t.s.Write(buf)
	return err
}

func (t *streamTransport) SetReadDeadline(d time.Time) error { return t.s.SetReadDeadline(d) }

func (t *streamTransport) Goodbye() {}

func (t *streamTransport) Close() error { return t.s.Close() }

// DialSocket connects to a Unix socket directly (for programs that are not
// sandboxed: doctor, setup, tests). The sandboxed server's broker does the
// same and passes the descriptor.
func DialSocket(ctx context.Context, path string) (Stream, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	return c.(*net.UnixConn), nil
}

func dialStream(ctx context.Context, ep Endpoint, opts Options) (transport, error) {
	open := ep.Open
	if open == nil {
		open = func(ctx context.Context) (Stream, error) { return DialSocket(ctx, ep.Socket) }
	}
	s, err := open(ctx)
	if err != nil {
		return nil, fmt.Errorf("rdp: dial unix:%s: %w", ep.Socket, err)
	}
	return newStreamTransport(s, opts.ReadLimit), nil
}
