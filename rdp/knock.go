package rdp

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"time"

	"github.com/gorilla/websocket"
)

// Knock is what the port at an address says to a debugger client before
// any request: enough to tell Firefox's WebSocket debugger server from its
// plain TCP transport, from a Firefox that opened the WebSocket but does
// not greet (its connection prompt is on screen, or it is still starting),
// and from another program.
type Knock struct {
	// Handshake is why the WebSocket handshake failed; nil when it worked.
	Handshake error
	// PlainTCP: the handshake failed and the port speaks RDP's plain TCP
	// transport ("length:{json}") instead.
	PlainTCP bool
	// Greeted: the handshake worked and the root actor's greeting came.
	Greeted bool
}

// plainRDP is how the plain TCP transport frames its first packet.
var plainRDP = regexp.MustCompile(`^[0-9]+:\{`)

// KnockAt opens a WebSocket to addr and waits up to wait for the greeting
// (and up to wait for the handshake before it); when there is no WebSocket,
// it reads up to a second of what a plain TCP connection sends. It sends
// nothing but the handshake, and closes what it opened.
func KnockAt(ctx context.Context, addr netip.AddrPort, wait time.Duration) Knock {
	hctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	d := websocket.Dialer{Proxy: nil, HandshakeTimeout: wait}
	conn, resp, err := d.DialContext(hctx, "ws://"+addr.String()+"/", http.Header{})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return Knock{Handshake: err, PlainTCP: plainTCP(addr)}
	}
	defer conn.Close()
	gctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	_, err = readGreeting(gctx, wsTransport{conn})
	return Knock{Greeted: err == nil}
}

// plainTCP reports whether addr sends a plain-TCP RDP packet within a
// second of connecting.
func plainTCP(addr netip.AddrPort) bool {
	conn, err := net.DialTimeout("tcp", addr.String(), time.Second)
	if err != nil {
		return false
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 64)
	n, _ := conn.Read(buf)
	return plainRDP.Match(buf[:n])
}

// KnockSocket connects to the Unix socket at path and waits up to wait for
// the root actor's greeting, sending nothing; Greeted reports whether it
// came (a Firefox asking on screen whether to allow the connection, or one
// still starting, accepts and stays silent). err is why the connection
// failed (a *net.OpError wrapping the errno: ENOENT, ECONNREFUSED, EACCES);
// it is nil when the connection was made, greeting or not.
func KnockSocket(ctx context.Context, path string, wait time.Duration) (greeted bool, err error) {
	dctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	s, err := DialSocket(dctx, path)
	if err != nil {
		return false, err
	}
	t := newStreamTransport(s, 1<<20)
	defer t.Close()
	_, gerr := readGreeting(dctx, t)
	return gerr == nil, nil
}
