package rdp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Defaults for Options.
const (
	DefaultReadLimit      = 64 << 20
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxStringUnits = 64 << 20
)

// diagRingSize is how many unhandled packet summaries Diagnostics keeps.
const diagRingSize = 100

// maxEarlyResults bounds evaluation results kept while their acknowledgement
// is still on its way, and resultIDs of abandoned evaluations.
const maxEarlyResults = 256

// maxSeenIDs bounds the evaluation ids remembered to recognise a packet that
// Firefox delivered twice (see Client.dispatch).
const maxSeenIDs = 1024

// stuckAfter is how long a request must have waited before a deadline that
// retires it marks its actor unresponsive (see ErrUnresponsive).
const stuckAfter = 2 * time.Second

// Options configures Dial. The zero value is usable.
type Options struct {
	ReadLimit      int64         // websocket read limit in bytes; default 64 MiB
	RequestTimeout time.Duration // deadline for a request when ctx has none earlier; default 30s
	MaxStringUnits int           // cap for a joined long string, in UTF-16 units; default 64<<20
	// Logger receives debug records naming to/type/from/error of packets,
	// never their payloads (scripts and results may hold secrets). nil = discard.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.ReadLimit <= 0 {
		o.ReadLimit = DefaultReadLimit
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxStringUnits <= 0 {
		o.MaxStringUnits = DefaultMaxStringUnits
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Greeting is the root actor's first packet.
type Greeting struct {
	ApplicationType string
	Traits          map[string]any
}

// Client is one RDP connection. All methods are safe for concurrent use.
// A Client is not reconnected: when Done is closed, dial a new one.
type Client struct {
	conn     transport
	opts     Options
	log      *slog.Logger
	greeting Greeting
	chunk    int // UTF-16 units per long-string substring request

	wmu sync.Mutex // serializes writes, and enqueue+write so queue order is wire order

	mu sync.Mutex // guards st; change st only through update
	st state

	done      chan struct{}
	closeOnce sync.Once

	// The previous packet on the wire; only the reader goroutine uses them.
	lastFrom string
	lastData []byte
}

// state is every piece of mutable client state shared with the reader.
type state struct {
	err    error              // non-nil (a *closedError) once the connection ended
	queues map[string][]*call // per-actor FIFO of requests awaiting a reply
	// Evaluations are keyed by evalKey(console, resultID): ids are only
	// unique per console.
	evals    map[string]*evalWait
	early    map[string][]byte // evaluationResult packets whose ack has not been read yet
	earlyQ   []string          // insertion order of early, for eviction
	dropped  map[string]bool   // abandoned evaluations
	droppedQ []string
	acks     idSet                // acknowledgements seen, to drop a duplicate
	results  idSet                // evaluation results seen, to drop a duplicate
	dups     map[string]bool      // forwarding prefixes seen delivering packets twice
	watches  map[string]*tabWatch // by watcher, tab and target actor
	consoles map[int64]string     // content-process console by processID
	parent   string               // parent-process console
	rootShot string               // the root's screenshotActor (screenshot.go)
	diag     []string             // ring of unhandled packet summaries
	diagNext int
}

// call is one request awaiting its reply in an actor's FIFO.
type call struct {
	actor string
	typ   string
	// wait, for an evaluateJSAsync, receives its result: deliver registers
	// it with the acknowledgement, so that nothing (a purge, a shutdown)
	// can come between the two. An abandoned ack's resultID is dropped.
	wait    *evalWait
	retired bool       // the caller gave up; the reply, when it comes, is swallowed
	stuck   bool       // retired by a deadline: the actor is not answering
	ch      chan reply // buffered 1; receives exactly one reply
}

// idSet is a bounded set of strings, oldest forgotten first.
type idSet struct {
	m map[string]bool
	q []string
}

func (s *idSet) has(k string) bool { return s.m[k] }

func (s *idSet) add(k string) {
	if s.m == nil {
		s.m = map[string]bool{}
	}
	if s.m[k] {
		return
	}
	s.m[k] = true
	s.q = append(s.q, k)
	if len(s.q) > maxSeenIDs {
		delete(s.m, s.q[0])
		s.q = s.q[1:]
	}
}

// evalKey names one evaluation: Firefox makes resultIDs unique per console
// actor only ("<start time>-<counter>").
func evalKey(console, resultID string) string { return console + "\x00" + resultID }

// forwardingPrefix is the part of a content-process actor's name that
// Firefox forwards by ("server1.conn0.watcher2.process5/"); "" for actors
// of the parent process.
func forwardingPrefix(actor string) string {
	if i := strings.IndexByte(actor, '/'); i >= 0 {
		return actor[:i+1]
	}
	return ""
}

type reply struct {
	raw []byte
	err error
}

type evalWait struct {
	console string
	key     string     // evalKey, once registered in state.evals
	ch      chan reply // buffered 1
}

// update runs f with the client state locked. It is the only place the
// state changes. f must not block: deliveries go to buffered channels.
func (c *Client) update(f func(s *state)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.st)
}

// Dial connects to the ws: endpoint at addr (an IP literal: names are
// never resolved), sends no Origin header, and waits for the root greeting.
func Dial(ctx context.Context, addr netip.AddrPort, opts Options) (*Client, error) {
	return DialEndpoint(ctx, Endpoint{Addr: addr}, opts)
}

// DialEndpoint connects to ep, the Unix socket or the ws: endpoint, and
// waits for the root greeting.
func DialEndpoint(ctx context.Context, ep Endpoint, opts Options) (*Client, error) {
	opts = opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.RequestTimeout)
	defer cancel()
	var conn transport
	var err error
	if ep.Socket != "" {
		conn, err = dialStream(ctx, ep, opts)
	} else {
		conn, err = dialWebSocket(ctx, ep.Addr, opts)
	}
	if err != nil {
		return nil, err
	}
	return newClient(ctx, conn, ep, opts)
}

func newClient(ctx context.Context, conn transport, ep Endpoint, opts Options) (*Client, error) {
	c := &Client{
		conn:  conn,
		opts:  opts,
		log:   opts.Logger,
		chunk: 1 << 20,
		done:  make(chan struct{}),
		st: state{
			queues:   map[string][]*call{},
			evals:    map[string]*evalWait{},
			early:    map[string][]byte{},
			dropped:  map[string]bool{},
			watches:  map[string]*tabWatch{},
			consoles: map[int64]string{},
			dups:     map[string]bool{},
		},
	}
	g, err := readGreeting(ctx, conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("rdp: greeting from %s: %w", ep, err)
	}
	c.greeting = g
	c.log.Debug("rdp connected", "endpoint", ep.String(), "applicationType", g.ApplicationType)
	go c.readLoop()
	return c, nil
}

func readGreeting(ctx context.Context, conn transport) (Greeting, error) {
	// ctx (bounded by Dial) interrupts the read; ctx.Err() is then set
	// before the read returns, so the caller sees why.
	stop := context.AfterFunc(ctx, func() { conn.SetReadDeadline(time.Now()) })
	defer stop()
	data, err := conn.ReadPacket()
	if err != nil {
		if ctx.Err() != nil {
			return Greeting{}, ctx.Err()
		}
		return Greeting{}, err
	}
	conn.SetReadDeadline(time.Time{})
	pkt, err := parsePacket(data)
	if err != nil {
		return Greeting{}, err
	}
	if from, _ := pkt.str("from"); from != "root" {
		return Greeting{}, protocolError("first packet is from %q, want root", from)
	}
	if _, ok := pkt["type"]; ok {
		return Greeting{}, protocolError("first packet is an event, not a greeting")
	}
	g := Greeting{}
	if raw, ok := pkt["applicationType"]; ok {
		if err := json.Unmarshal(raw, &g.ApplicationType); err != nil {
			return Greeting{}, protocolError("greeting applicationType: %v", err)
		}
		if g.ApplicationType != "browser" {
			return Greeting{}, protocolError("applicationType %q, want browser", g.ApplicationType)
		}
	}
	if raw, ok := pkt["traits"]; ok {
		if err := json.Unmarshal(raw, &g.Traits); err != nil {
			return Greeting{}, protocolError("greeting traits: %v", err)
		}
	}
	return g, nil
}

// Greeting returns the root greeting received by Dial.
func (c *Client) Greeting() Greeting { return c.greeting }

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is nil while the connection is up; afterwards it says why it ended
// (errors.Is(err, ErrClosed) holds, and the cause is wrapped).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st.err
}

var errClientClosed = errors.New("closed by client")

// Close ends the connection; pending requests fail with ErrClosed.
func (c *Client) Close() error {
	c.conn.Goodbye()
	c.shutdown(errClientClosed)
	return nil
}

// shutdown ends the connection once, failing every waiter with cause.
func (c *Client) shutdown(cause error) {
	c.closeOnce.Do(func() {
		err := &closedError{cause: cause}
		var watches []*tabWatch
		c.update(func(s *state) {
			s.err = err
			for actor, q := range s.queues {
				for _, cl := range q {
					if !cl.retired {
						cl.ch <- reply{err: err}
					}
				}
				delete(s.queues, actor)
			}
			for id, w := range s.evals {
				w.ch <- reply{err: err}
				delete(s.evals, id)
			}
			seen := map[*tabWatch]bool{}
			for _, w := range s.watches {
				if !seen[w] {
					seen[w] = true
					watches = append(watches, w)
				}
			}
			clear(s.watches)
		})
		for _, w := range watches {
			w.fail(err)
		}
		c.conn.Close()
		if cause == errClientClosed {
			c.log.Debug("rdp closed")
		} else {
			c.log.Warn("rdp connection ended", "err", cause)
		}
		close(c.done)
	})
}

// readLoop is the only reader of the connection.
func (c *Client) readLoop() {
	for {
		data, err := c.conn.ReadPacket()
		if err != nil {
			c.shutdown(fmt.Errorf("rdp: read: %w", err))
			return
		}
		if err := c.dispatch(data); err != nil {
			c.shutdown(err)
			return
		}
	}
}

// packet is a decoded RDP packet, top-level keys matched exactly.
type packet map[string]json.RawMessage

func parsePacket(data []byte) (packet, error) {
	var p packet
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, protocolError("packet of %d bytes is not a JSON object: %v", len(data), err)
	}
	if p == nil {
		return nil, protocolError("packet is null")
	}
	return p, nil
}

// str returns the string field k; ok is false when absent or not a string.
func (p packet) str(k string) (string, bool) {
	raw, ok := p[k]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// dispatch routes one packet: a reply (no "type") pops its actor's FIFO; an
// event (top-level "type") goes to its handler. A non-nil error ends the
// connection.
//
// Firefox can deliver a content-process packet more than once (see the
// package doc, "Duplicated packets"): a reply delivered twice would pop the
// FIFO for the next request, which then receives the wrong reply. So an
// evaluateJSAsync acknowledgement or evaluationResult whose resultID was
// already seen is dropped, and once a forwarding prefix has shown that, a
// reply identical to the packet just before it from the same actor is
// dropped too.
func (c *Client) dispatch(data []byte) error {
	pkt, err := parsePacket(data)
	if err != nil {
		return err
	}
	from, ok := pkt.str("from")
	if !ok {
		return protocolError("packet without a string \"from\"")
	}
	repeat := from == c.lastFrom && bytes.Equal(data, c.lastData)
	c.lastFrom, c.lastData = from, data
	if _, isEvent := pkt["type"]; isEvent {
		typ, ok := pkt.str("type")
		if !ok {
			return protocolError("packet from %s has a non-string type", from)
		}
		c.log.Debug("rdp event", "from", from, "type", typ)
		c.event(from, typ, pkt, data)
		return nil
	}
	var r reply
	if _, isErr := pkt["error"]; isErr {
		code, _ := pkt.str("error")
		msg, _ := pkt.str("message")
		r.err = &ActorError{Actor: from, Code: code, Message: msg}
		c.log.Debug("rdp reply", "from", from, "error", code)
	} else {
		r.raw = data
		c.log.Debug("rdp reply", "from", from)
	}
	c.update(func(s *state) {
		if id, ok := pkt.str("resultID"); ok && r.err == nil {
			key := evalKey(from, id)
			if s.acks.has(key) {
				c.duplicate(s, from, "evaluateJSAsync acknowledgement")
				return
			}
			s.acks.add(key)
		} else if repeat && s.dups[forwardingPrefix(from)] {
			c.duplicate(s, from, "reply")
			return
		}
		c.deliver(s, from, pkt, r)
	})
	return nil
}

// duplicate drops a packet Firefox delivered twice. Called with the state
// locked.
func (c *Client) duplicate(s *state, from, what string) {
	s.note("duplicate %s from %s dropped", what, from)
	if p := forwardingPrefix(from); p != "" && !s.dups[p] {
		s.dups[p] = true
		c.log.Warn("Firefox delivers packets of this prefix twice; dropping the copies", "prefix", p)
	}
}

// deliver hands a reply to the oldest request pending on from. Called with
// the state locked.
func (c *Client) deliver(s *state, from string, pkt packet, r reply) {
	q := s.queues[from]
	if len(q) == 0 {
		if r.err != nil {
			s.note("unexpected error reply from %s: %s", from, r.err.(*ActorError).Code)
		} else {
			s.note("unexpected reply from %s", from)
		}
		return
	}
	cl := q[0]
	q[0] = nil
	if len(q) == 1 {
		delete(s.queues, from)
	} else {
		s.queues[from] = q[1:]
	}
	if cl.retired {
		if cl.wait != nil && r.err == nil {
			if id, ok := pkt.str("resultID"); ok {
				s.abandon(evalKey(from, id))
			}
		}
		return
	}
	if cl.wait != nil && r.err == nil {
		if id, ok := pkt.str("resultID"); ok && id != "" {
			s.register(from, id, cl.wait)
		}
	}
	cl.ch <- r
}

// register makes w wait for the result of the evaluation that console
// acknowledged as id, which may have overtaken its acknowledgement. Called
// with the state locked.
func (s *state) register(console, id string, w *evalWait) {
	key := evalKey(console, id)
	switch {
	case s.early[key] != nil:
		w.ch <- reply{raw: s.early[key]}
		delete(s.early, key)
	case s.evals[key] != nil:
		// Never two waiters for one evaluation: the acknowledgement
		// reached two requests (a duplicate the dispatcher missed).
		w.ch <- reply{err: protocolError("two requests acknowledged with resultID %q", id)}
	default:
		w.key = key
		s.evals[key] = w
	}
}

// unregister drops w's registration, if any, and the result it waited
// for. Called with the state locked.
func (s *state) unregister(w *evalWait) {
	if w != nil && w.key != "" && s.evals[w.key] == w {
		delete(s.evals, w.key)
		s.abandon(w.key)
	}
}

// note records a summary (never a payload) of a packet nobody handled.
func (s *state) note(format string, args ...any) {
	msg := time.Now().UTC().Format("15:04:05.000 ") + fmt.Sprintf(format, args...)
	if len(s.diag) < diagRingSize {
		s.diag = append(s.diag, msg)
		return
	}
	s.diag[s.diagNext] = msg
	s.diagNext = (s.diagNext + 1) % diagRingSize
}

// Diagnostics returns summaries of the last (up to 100) packets that no
// request or watcher handled, oldest first.
func (c *Client) Diagnostics() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.st.diag))
	out = append(out, c.st.diag[c.st.diagNext:]...)
	out = append(out, c.st.diag[:c.st.diagNext]...)
	return out
}

// abandon drops the result of an evaluation nobody waits for any more.
func (s *state) abandon(id string) {
	if _, ok := s.early[id]; ok {
		delete(s.early, id)
		return
	}
	if s.dropped[id] {
		return
	}
	s.dropped[id] = true
	s.droppedQ = append(s.droppedQ, id)
	if len(s.droppedQ) > maxEarlyResults {
		delete(s.dropped, s.droppedQ[0])
		s.droppedQ = s.droppedQ[1:]
	}
}

// purge fails and removes every pending request and evaluation whose actor
// matches; used when Firefox says no reply will ever come
// (forwardingCancelled, target destroyed).
func (s *state) purge(match func(actor string) bool, err error) {
	for actor, q := range s.queues {
		if !match(actor) {
			continue
		}
		for _, cl := range q {
			if !cl.retired {
				cl.ch <- reply{err: err}
			}
		}
		delete(s.queues, actor)
	}
	for id, w := range s.evals {
		if match(w.console) {
			w.ch <- reply{err: err}
			delete(s.evals, id)
		}
	}
	for pid, console := range s.consoles {
		if match(console) {
			delete(s.consoles, pid)
		}
	}
	if s.parent != "" && match(s.parent) {
		s.parent = ""
	}
}

func (c *Client) event(from, typ string, pkt packet, data []byte) {
	switch typ {
	case "evaluationResult":
		id, ok := pkt.str("resultID")
		if !ok {
			c.update(func(s *state) { s.note("evaluationResult from %s without resultID", from) })
			return
		}
		key := evalKey(from, id)
		c.update(func(s *state) {
			if s.results.has(key) {
				c.duplicate(s, from, "evaluationResult")
				return
			}
			s.results.add(key)
			if w := s.evals[key]; w != nil {
				delete(s.evals, key)
				w.ch <- reply{raw: data}
				return
			}
			if s.dropped[key] {
				delete(s.dropped, key)
				return
			}
			// The result overtook its {resultID} acknowledgement: keep it
			// for the evaluation that will register right after the ack.
			if _, dup := s.early[key]; !dup {
				s.earlyQ = append(s.earlyQ, key)
			}
			s.early[key] = data
			for len(s.earlyQ) > maxEarlyResults {
				delete(s.early, s.earlyQ[0])
				s.earlyQ = s.earlyQ[1:]
			}
		})
	case "forwardingCancelled":
		prefix, _ := pkt.str("prefix")
		if from != "root" || prefix == "" {
			c.update(func(s *state) { s.note("forwardingCancelled from %s", from) })
			return
		}
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		err := fmt.Errorf("%w (forwarding cancelled for %s)", ErrTargetGone, prefix)
		c.update(func(s *state) {
			s.purge(func(actor string) bool { return strings.HasPrefix(actor, prefix) }, err)
		})
	case "target-available-form", "target-destroyed-form",
		"resources-available-array", "resources-updated-array", "resources-destroyed-array",
		"descriptor-destroyed":
		c.update(func(s *state) {
			w := s.watches[from]
			if w == nil {
				s.note("%s from %s (not watched)", typ, from)
				return
			}
			w.handle(s, from, typ, pkt)
		})
	default:
		c.update(func(s *state) { s.note("%s from %s", typ, from) })
	}
}

// encodeRequest builds {"to":to, ...fields of req}.
func encodeRequest(to string, req any) ([]byte, string, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, "", fmt.Errorf("rdp: encode request to %s: %w", to, err)
	}
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' {
		return nil, "", fmt.Errorf("rdp: request to %s is not a JSON object", to)
	}
	var head struct {
		Type string `json:"type"`
	}
	json.Unmarshal(body, &head)
	if head.Type == "" {
		return nil, "", fmt.Errorf("rdp: request to %s has no type", to)
	}
	if err := checkMethod(to, head.Type); err != nil {
		return nil, "", err
	}
	toJSON, err := json.Marshal(to)
	if err != nil {
		return nil, "", err
	}
	out := make([]byte, 0, len(body)+len(toJSON)+8)
	out = append(out, `{"to":`...)
	out = append(out, toJSON...)
	if rest := bytes.TrimSpace(body[1:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	out = append(out, body[1:]...)
	return out, head.Type, nil
}

// Request sends {"to":to, ...req} (req is a struct or map that includes
// "type") and decodes the reply into resp (which may be nil). An error reply
// is an *ActorError. Replies are matched per actor in request order.
//
// When ctx ends first, the request is retired (its reply, when it comes, is
// discarded) and ctx.Err() is returned. When the client's RequestTimeout
// passes first, the request is retired the same way and ErrTimeout
// returned. A request retired by a deadline after waiting 2 s or more marks
// its actor unresponsive: until its reply arrives (or the actor is
// destroyed), new requests to that actor fail at once with ErrUnresponsive.
func (c *Client) Request(ctx context.Context, to string, req any, resp any) error {
	body, typ, err := encodeRequest(to, req)
	if err != nil {
		return err
	}
	return c.send(ctx, to, typ, body, nil, resp)
}

// send sends one encoded request and decodes its reply into resp (when not nil).
func (c *Client) send(ctx context.Context, to, typ string, body []byte, sent func(), resp any) error {
	raw, err := c.roundTrip(ctx, to, typ, body, nil, time.Now().Add(c.opts.RequestTimeout), sent)
	if err != nil {
		return err
	}
	if resp != nil {
		if err := json.Unmarshal(raw, resp); err != nil {
			return fmt.Errorf("rdp: %s reply from %s: %w", typ, to, protocolError("%v", err))
		}
	}
	return nil
}

// dataBodies recycles RequestData's packet buffers (an upload sends hundreds
// of them, each a little larger than a chunk).
var dataBodies sync.Pool

// RequestData is Request for bulk bytes: the packet is req's fields plus
// "data", the standard base64 of data, encoded straight into the packet (no
// JSON escaping pass over it: base64 needs none). req must not have a "data"
// field. sent, when not nil, is called once the request is on the wire, so a
// caller keeping several in flight to one actor can keep them in order.
func (c *Client) RequestData(ctx context.Context, to string, req any, data []byte, sent func(), resp any) error {
	head, typ, err := encodeRequest(to, req)
	if err != nil {
		return err
	}
	head = head[:len(head)-1] // the closing brace
	need := len(head) + base64.StdEncoding.EncodedLen(len(data)) + 12
	bp, _ := dataBodies.Get().(*[]byte)
	if bp == nil || cap(*bp) < need {
		b := make([]byte, 0, need)
		bp = &b
	}
	body := append((*bp)[:0], head...)
	defer func() { // the frame is written (copied) before roundTrip returns
		*bp = body[:0]
		dataBodies.Put(bp)
	}()
	if head[len(head)-1] != '{' {
		body = append(body, ',')
	}
	body = append(body, `"data":"`...)
	body = base64.StdEncoding.AppendEncode(body, data)
	body = append(body, `"}`...)
	return c.send(ctx, to, typ, body, sent, resp)
}

// roundTrip sends body as a request to actor and waits for its reply.
// sent, when not nil, is called once the request is on the wire.
func (c *Client) roundTrip(ctx context.Context, actor, typ string, body []byte, wait *evalWait, deadline time.Time, sent func()) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cl := &call{actor: actor, typ: typ, wait: wait, ch: make(chan reply, 1)}
	c.log.Debug("rdp send", "to", actor, "type", typ)
	if err := c.write(body, cl, deadline); err != nil {
		return nil, err
	}
	if sent != nil {
		sent()
	}
	start := time.Now()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-cl.ch:
		return r.raw, r.err
	case <-ctx.Done():
		stuck := errors.Is(ctx.Err(), context.DeadlineExceeded) && time.Since(start) >= stuckAfter
		c.update(func(s *state) {
			cl.retired, cl.stuck = true, stuck
			s.unregister(wait) // delivered meanwhile: nobody waits for the result
		})
		return nil, ctx.Err()
	case <-timer.C:
		// The request stays queued, retired: its reply, if it ever comes,
		// is swallowed in order. Until then the actor counts as not
		// answering (write refuses new requests to it).
		c.update(func(s *state) {
			cl.retired, cl.stuck = true, true
			s.unregister(wait)
		})
		return nil, fmt.Errorf("%w: %s to %s after %v", ErrTimeout, typ, actor, c.opts.RequestTimeout)
	}
}

// write sends one packet; when cl is non-nil it joins its actor's FIFO in
// the same critical section, so queue order is wire order.
func (c *Client) write(body []byte, cl *call, deadline time.Time) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	var closed error
	c.update(func(s *state) {
		if s.err != nil {
			closed = s.err
			return
		}
		if cl != nil {
			for _, q := range s.queues[cl.actor] {
				if q.stuck {
					closed = fmt.Errorf("%w: %s (an earlier %s has had no reply)", ErrUnresponsive, cl.actor, q.typ)
					return
				}
			}
			s.queues[cl.actor] = append(s.queues[cl.actor], cl)
		}
	})
	if closed != nil {
		return closed
	}
	// The write deadline is the request's own, never ctx's: a write cut
	// short leaves a partial frame and kills the connection, which a
	// caller's short deadline must not do. Writes are small and local.
	if err := c.conn.WritePacket(body, deadline); err != nil {
		// A failed or partial write leaves the stream unusable.
		c.shutdown(fmt.Errorf("rdp: write: %w", err))
		return c.Err()
	}
	return nil
}

// notify sends a request that never gets a reply (unwatchTargets,
// unwatchResources, clearResources). It does not wait.
func (c *Client) notify(to string, req any) error {
	body, typ, err := encodeRequest(to, req)
	if err != nil {
		return err
	}
	c.log.Debug("rdp send (no reply expected)", "to", to, "type", typ)
	return c.write(body, nil, time.Now().Add(5*time.Second))
}
