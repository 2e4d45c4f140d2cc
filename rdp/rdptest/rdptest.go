// Package rdptest is a fake Firefox for tests: a WebSocket server that
// speaks RDP's framing (one JSON packet per text message) and lets a test
// script play the browser's side, packet by packet. It stands in for
// protocol edge cases a real Firefox cannot produce on demand (a reply that
// never comes, a garbled frame, a connection cut mid-call), on top of the
// tests against a real Firefox, never instead of them. Used by tests only.
//
// It knows no actor, request or reply: the script says what Firefox would
// send. It imports nothing of this module, so rdp's own tests can use it.
//
// Example:
//
//	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
//		p.Send(rdptest.Greeting)
//		p.Expect("root", "listTabs")
//		p.Send(`{"tabs":[],"from":"root"}`)
//		p.Idle(time.Second)
//	})
//	c, err := rdp.Dial(ctx, addr, rdp.Options{})
package rdptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Greeting is a root actor's greeting as Firefox sends it, for the
// connection prefix "server1.conn0.".
const Greeting = `{"from":"root","applicationType":"browser","testConnectionPrefix":"server1.conn0.","traits":{"networkMonitor":true}}`

// recvTimeout bounds Recv's wait for the client's next request.
const recvTimeout = 10 * time.Second

// cleanupWait bounds how long the test's cleanup waits for scripts to
// return before it closes their connections.
const cleanupWait = 10 * time.Second

// Peer is the fake Firefox side of one connection, driven by a test script.
type Peer struct {
	// T is the test the peer reports to.
	T    testing.TB
	conn *websocket.Conn
	wmu  sync.Mutex
	reqs chan map[string]any
}

// Serve starts a fake Firefox on a loopback port and returns its address.
// Each connection a client opens runs script on its own Peer (a client that
// redials gets a second run); the script sends the greeting itself
// (p.Send(Greeting)) unless it tests a bad one. The connection closes when
// the script returns. At the test's end the server closes and the cleanup
// waits for the scripts to return (the client has closed its side by then),
// so that what they report counts for the test; a script still running
// after 10 s has its connection closed.
func Serve(t testing.TB, script func(p *Peer)) netip.AddrPort {
	t.Helper()
	up := websocket.Upgrader{}
	var (
		mu    sync.Mutex
		conns []*websocket.Conn
		runs  sync.WaitGroup
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") != "" {
			t.Errorf("client sent Origin %q", r.Header.Get("Origin"))
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		runs.Add(1)
		defer runs.Done()
		mu.Lock()
		conns = append(conns, conn)
		mu.Unlock()
		defer conn.Close()
		p := &Peer{T: t, conn: conn, reqs: make(chan map[string]any, 100)}
		go p.read()
		script(p)
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		done := make(chan struct{})
		go func() { runs.Wait(); close(done) }()
		select {
		case <-done: // the scripts saw the client go (it closes first)
			return
		case <-time.After(cleanupWait):
		}
		t.Logf("rdptest: a peer script still runs %v after the test; closing its connection", cleanupWait)
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		select {
		case <-done:
		case <-time.After(time.Second):
		}
	})
	return netip.MustParseAddrPort(strings.TrimPrefix(srv.URL, "http://"))
}

// read queues the client's requests until the connection ends, then closes
// the queue.
func (p *Peer) read() {
	defer close(p.reqs)
	for {
		_, data, err := p.conn.ReadMessage()
		if err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			p.T.Errorf("client sent non-JSON %q", data)
			return
		}
		p.reqs <- m
	}
}

// Send sends one packet, formatted as by fmt.Sprintf; a failed write is a
// test error.
func (p *Peer) Send(format string, args ...any) { p.Raw(fmt.Sprintf(format, args...)) }

// Raw sends packet as it is (it need not be JSON); a failed write is a test
// error.
func (p *Peer) Raw(packet string) {
	if err := p.Write(packet); err != nil {
		p.T.Errorf("peer send: %v", err)
	}
}

// Write sends packet as it is and returns the write's error, for scripts
// that may race the client closing the connection.
func (p *Peer) Write(packet string) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return p.conn.WriteMessage(websocket.TextMessage, []byte(packet))
}

// Recv returns the client's next request. A connection closed first, or no
// request within 10 s, is a test error (and an empty request).
func (p *Peer) Recv() map[string]any {
	select {
	case m, ok := <-p.reqs:
		if !ok {
			p.T.Errorf("peer: connection closed while waiting for a request")
			return map[string]any{}
		}
		return m
	case <-time.After(recvTimeout):
		p.T.Errorf("peer: no request within %v", recvTimeout)
		return map[string]any{}
	}
}

// Requests is the queue of the client's requests, closed when the
// connection ends: for scripts that serve requests in a loop.
func (p *Peer) Requests() <-chan map[string]any { return p.reqs }

// Expect returns the next request and checks its to and type.
func (p *Peer) Expect(to, typ string) map[string]any {
	m := p.Recv()
	if m["to"] != to || m["type"] != typ {
		p.T.Errorf("peer: got request %v, want to=%s type=%s", m, to, typ)
	}
	return m
}

// Idle waits until the client sends something or closes the connection, or
// d passes.
func (p *Peer) Idle(d time.Duration) {
	select {
	case <-p.reqs:
	case <-time.After(d):
	}
}

// Close closes the connection at once, as a Firefox that quits or crashes
// does.
func (p *Peer) Close() { p.conn.Close() }
