package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Server is an MCP server over one [Handler]. Its configuration is fixed at
// construction; each call to Serve is an independent session.
type Server struct {
	h       Handler
	opts    Options
	log     *slog.Logger
	tools   []Tool
	toolSet map[string]bool
}

// NewServer returns a server dispatching tools/call to h. It reads h.Tools()
// once and panics on a programmer's mistake there: an empty or duplicate tool
// name, or a schema that is not a JSON object.
func NewServer(h Handler, opts Options) *Server {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{h: h, opts: opts, log: log, toolSet: map[string]bool{}}
	for _, t := range h.Tools() {
		if t.Name == "" || s.toolSet[t.Name] {
			panic(fmt.Sprintf("mcp: empty or duplicate tool name %q", t.Name))
		}
		for what, schema := range map[string]json.RawMessage{"input": t.InputSchema, "output": t.OutputSchema} {
			if len(schema) == 0 {
				continue
			}
			if m, dup := objectMembers(schema); m == nil || dup != "" || !json.Valid(schema) {
				panic(fmt.Sprintf("mcp: tool %q: %s schema is not a JSON object", t.Name, what))
			}
		}
		s.toolSet[t.Name] = true
		s.tools = append(s.tools, t)
	}
	return s
}

// methodInfo is one row of the request dispatch table.
type methodInfo struct {
	// handle answers the request under its era; it returns deferred when
	// it has taken over the reply (tools/call).
	handle func(c *conn, ctx context.Context, m *message, e era) (any, *rpcError)
	// needsInit: a legacy request needs the session initialized first.
	needsInit bool
	// modern: the method exists in the modern revision; legacy: in the
	// handshake revisions.
	modern, legacy bool
}

// deferred is returned by a handler that replies later, from its own goroutine.
var deferred = &struct{}{}

// methods are the requests the server answers.
var methods = map[string]methodInfo{
	"initialize":      {handle: (*conn).initialize, legacy: true},
	"ping":            {handle: (*conn).ping, legacy: true},
	"server/discover": {handle: (*conn).discover, modern: true, legacy: true},
	"tools/list":      {handle: (*conn).listTools, needsInit: true, modern: true, legacy: true},
	"tools/call":      {handle: (*conn).callTool, needsInit: true, modern: true, legacy: true},
}

// notificationMethods are the notifications the server acts on; others are
// ignored.
var notificationMethods = map[string]func(c *conn, params json.RawMessage) error{
	"notifications/initialized": (*conn).initializedNotification,
	"notifications/cancelled":   (*conn).cancelledNotification,
}

// Cancellation causes of a tool call's context.
var (
	errClientCancelled = errors.New("mcp: cancelled by the client")
	errShutdown        = errors.New("mcp: server shutting down")
)

// conn is the state of one Serve session.
type conn struct {
	s   *Server
	log *slog.Logger

	// Output: one mutex, one write per message.
	outMu     sync.Mutex
	out       io.Writer
	writeErr  error
	writeDone chan struct{} // closed on the first write error

	// Owned by the read loop.
	initialized bool
	clientReady bool   // notifications/initialized arrived
	version     string // negotiated by initialize (legacy requests)
	modernSeen  bool   // a modern request has been logged
	elicit      bool   // the client declared form elicitation at initialize

	mu       sync.Mutex
	inflight map[string]*call      // tools/call by idKey
	outgoing map[string]chan reply // the server's own requests by id (elicit.go)
	nextOut  uint64
	calls    sync.WaitGroup
}

// call is one running tools/call.
type call struct {
	cancel context.CancelCauseFunc
}

// lineOrErr is one item from the reader goroutine.
type lineOrErr struct {
	line    []byte
	tooLong bool
	err     error
}

// Serve reads requests from in and writes responses to out until in reaches
// EOF or ctx is done; then cancels in-flight calls, waits for them, and
// returns (nil on clean EOF, ctx's error when ctx ended it, otherwise the
// read or write error; a failed write after input EOF, to a client that has
// gone, or just before it, from a client closing both ends, only ends the
// session).
//
// Reading happens on a goroutine of its own. If ctx ends Serve while that
// goroutine is blocked in in.Read, it stays blocked until in is closed or
// yields data; nothing it reads afterwards is processed.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c := &conn{
		s:         s,
		log:       s.log,
		out:       out,
		writeDone: make(chan struct{}),
		inflight:  map[string]*call{},
		outgoing:  map[string]chan reply{},
	}
	lines := make(chan lineOrErr)
	stop := make(chan struct{})
	go func() {
		lr := newLineReader(in, s.opts.MaxLineBytes)
		for {
			line, tooLong, err := lr.next()
			select {
			case lines <- lineOrErr{line, tooLong, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()

	var result error
	eof := false
loop:
	for {
		select {
		case <-ctx.Done():
			result = ctx.Err()
			break loop
		case <-c.writeDone:
			// A client closing both ends may close the one it reads first: its
			// input then ends at once, and the session ended cleanly.
			eof = inputEnds(lines, closeGrace)
			break loop
		case item := <-lines:
			if item.err != nil {
				if !errors.Is(item.err, io.EOF) {
					result = fmt.Errorf("mcp: reading input: %w", item.err)
				}
				eof = c.currentWriteErr() == nil
				break loop
			}
			c.handleLine(ctx, item)
		}
	}
	close(stop)

	c.mu.Lock()
	for _, cl := range c.inflight {
		cl.cancel(errShutdown)
	}
	c.mu.Unlock()
	c.calls.Wait()

	// A write that fails once the client has closed its end (answers to the
	// calls cancelled above) is not an error of the session.
	if werr := c.currentWriteErr(); werr != nil && result == nil && !eof {
		result = fmt.Errorf("mcp: writing output: %w", werr)
	}
	c.log.Debug("mcp session ended", "err", result)
	return result
}

// closeGrace is how long Serve waits, once a write failed, for the input's
// end that tells a client closing both ends from a failed output.
const closeGrace = 250 * time.Millisecond

// inputEnds reports whether the input reaches EOF within d, dropping the
// lines that come before it (no answer can be written any more).
func inputEnds(lines <-chan lineOrErr, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case item := <-lines:
			if item.err != nil {
				return errors.Is(item.err, io.EOF)
			}
		case <-t.C:
			return false
		}
	}
}

func (c *conn) currentWriteErr() error {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	return c.writeErr
}

// handleLine processes one input line on the read loop.
func (c *conn) handleLine(ctx context.Context, item lineOrErr) {
	if item.tooLong {
		c.log.Warn("mcp: input line too long; discarded", "limit", c.s.opts.MaxLineBytes)
		c.reply(nullID, nil, errorf(codeInvalidRequest, "invalid request: line exceeds %d bytes", c.s.opts.MaxLineBytes))
		return
	}
	m, replyID, rerr := decodeMessage(item.line)
	if rerr != nil {
		if replyID == nil {
			c.log.Debug("mcp: invalid notification ignored", "err", rerr.Message)
			return
		}
		c.log.Debug("mcp: invalid message", "id", string(replyID), "err", rerr.Message)
		c.reply(replyID, nil, rerr)
		return
	}
	switch {
	case m.response:
		c.routeResponse(m)
	case m.isNotification():
		c.handleNotification(m)
	default:
		c.handleRequest(ctx, m)
	}
}

func (c *conn) handleNotification(m *message) {
	h, ok := notificationMethods[m.method]
	if !ok {
		c.log.Debug("mcp: unknown notification ignored", "method", m.method)
		return
	}
	if err := h(c, m.params); err != nil {
		c.log.Debug("mcp: invalid notification", "method", m.method, "err", err)
	}
}

func (c *conn) handleRequest(ctx context.Context, m *message) {
	start := time.Now()
	e, rerr := c.requestEra(m)
	if rerr != nil {
		c.reply(m.id, nil, rerr)
		return
	}
	info, ok := methods[m.method]
	if !ok || (e.modern && !info.modern) || (!e.modern && !info.legacy) {
		c.log.Debug("mcp: unknown method", "id", string(m.id), "method", m.method, "modern", e.modern)
		c.reply(m.id, nil, errorf(codeMethodNotFound, "method not found: %q", m.method))
		return
	}
	if info.needsInit && !e.modern && !c.initialized {
		c.reply(m.id, nil, errorf(codeNotInitialized, "server not initialized"))
		return
	}
	result, rerr := c.safeHandle(info, ctx, m, e)
	if result == deferred {
		return
	}
	c.reply(m.id, result, rerr)
	c.log.Debug("mcp request", "id", string(m.id), "method", m.method, "duration", time.Since(start), "ok", rerr == nil)
}

// safeHandle runs a synchronous handler, turning a panic into -32603.
func (c *conn) safeHandle(info methodInfo, ctx context.Context, m *message, e era) (result any, rerr *rpcError) {
	defer func() {
		if v := recover(); v != nil {
			c.log.Error("mcp: panic in request handler", "method", m.method, "panic", v, "stack", string(debug.Stack()))
			result, rerr = nil, errorf(codeInternalError, "internal error")
		}
	}()
	return info.handle(c, ctx, m, e)
}

// reply writes the response to a request.
func (c *conn) reply(id json.RawMessage, result any, rerr *rpcError) {
	resp := response{JSONRPC: "2.0", ID: id, Result: result, Error: rerr}
	if rerr == nil && result == nil {
		resp.Result = struct{}{}
	}
	b, err := json.Marshal(resp)
	if err != nil {
		c.log.Error("mcp: cannot encode response", "id", string(id), "err", err)
		b, _ = json.Marshal(response{JSONRPC: "2.0", ID: id, Error: errorf(codeInternalError, "internal error")})
	}
	c.writeLine(b)
}

// writeLine writes one compact JSON message and its newline with a single
// Write, under the output mutex. After a write error nothing more is written.
func (c *conn) writeLine(b []byte) {
	b = append(b, '\n')
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.writeErr != nil {
		return
	}
	if _, err := c.out.Write(b); err != nil {
		c.writeErr = err
		close(c.writeDone)
		c.log.Error("mcp: writing output failed", "err", err)
	}
}

// initialize handles the initialize request.
func (c *conn) initialize(_ context.Context, m *message, _ era) (any, *rpcError) {
	if c.initialized {
		return nil, errorf(codeInvalidRequest, "invalid request: already initialized")
	}
	members, rerr := paramsMembers(m.params)
	if rerr != nil {
		return nil, rerr
	}
	requested, present, ok := stringMember(members, "protocolVersion")
	if !present || !ok {
		return nil, errorf(codeInvalidParams, `invalid params: "protocolVersion" must be a string`)
	}
	c.version = negotiate(requested)
	c.initialized = true
	c.elicit = declaresFormElicitation(members["capabilities"]) && hasElicitation(c.version)
	var client struct{ Name, Version string }
	if raw, ok := members["clientInfo"]; ok {
		_ = json.Unmarshal(raw, &client)
	}
	c.log.Info("mcp initialized", "requested", requested, "version", c.version,
		"client", truncate(client.Name, 64), "clientVersion", truncate(client.Version, 32), "elicitation", c.elicit)
	return struct {
		ProtocolVersion string       `json:"protocolVersion"`
		Capabilities    capabilities `json:"capabilities"`
		ServerInfo      serverInfo   `json:"serverInfo"`
		Instructions    string       `json:"instructions,omitempty"`
	}{
		ProtocolVersion: c.version,
		ServerInfo:      c.serverInfo(),
		Instructions:    c.s.opts.Instructions,
	}, nil
}

func (c *conn) ping(context.Context, *message, era) (any, *rpcError) {
	return struct{}{}, nil
}

// wireTool is a Tool as tools/list sends it.
type wireTool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
}

func (c *conn) listTools(_ context.Context, m *message, e era) (any, *rpcError) {
	if _, rerr := paramsMembers(m.params); rerr != nil {
		return nil, rerr
	}
	tools := make([]wireTool, 0, len(c.s.tools))
	for _, t := range c.s.tools {
		w := wireTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		if len(w.InputSchema) == 0 {
			w.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if hasToolTitle(e.version) {
			w.Title = t.Title
		}
		if hasStructuredContent(e.version) {
			w.OutputSchema = t.OutputSchema
		}
		if hasAnnotations(e.version) && t.Annotations != nil {
			a := *t.Annotations
			if w.Title != "" && a.Title == w.Title {
				a.Title = "" // the tool's own title says it; annotations.title is for older versions
			}
			w.Annotations = &a
		}
		tools = append(tools, w)
	}
	return struct {
		modernFields
		cacheFields
		Tools []wireTool `json:"tools"`
	}{c.modern(e), cache(e), tools}, nil
}

// callTool validates a tools/call request on the read loop, registers it for
// cancellation and runs the handler on its own goroutine.
func (c *conn) callTool(ctx context.Context, m *message, e era) (any, *rpcError) {
	members, rerr := paramsMembers(m.params)
	if rerr != nil {
		return nil, rerr
	}
	name, present, ok := stringMember(members, "name")
	if !present || !ok {
		return nil, errorf(codeInvalidParams, `invalid params: "name" must be a string`)
	}
	if !c.s.toolSet[name] {
		return nil, errorf(codeInvalidParams, "unknown tool: %q", truncate(name, 100))
	}
	args := json.RawMessage("{}")
	if raw, ok := members["arguments"]; ok {
		if raw[0] != '{' {
			return nil, errorf(codeInvalidParams, `invalid params: "arguments" must be an object`)
		}
		args = raw
	}
	var token json.RawMessage
	if raw, ok := members["_meta"]; ok {
		meta, dup := objectMembers(raw)
		if meta == nil || dup != "" {
			return nil, errorf(codeInvalidParams, `invalid params: "_meta" must be an object`)
		}
		if t, ok := meta["progressToken"]; ok {
			if !validID(t) {
				return nil, errorf(codeInvalidParams, "invalid params: progressToken must be a string or a number")
			}
			token = t
		}
	}
	key, _ := idKey(m.id)
	c.mu.Lock()
	if _, busy := c.inflight[key]; busy {
		c.mu.Unlock()
		return nil, errorf(codeInvalidRequest, "invalid request: id %s is already in use", m.id)
	}
	callCtx, cancel := context.WithCancelCause(c.withElicitor(ctx, e))
	c.inflight[key] = &call{cancel: cancel}
	c.calls.Add(1)
	c.mu.Unlock()

	go c.runTool(callCtx, cancel, key, m.id, name, args, token, e)
	return deferred, nil
}

// runTool runs one tool call and sends its response.
func (c *conn) runTool(ctx context.Context, cancel context.CancelCauseFunc, key string, id json.RawMessage,
	name string, args json.RawMessage, token json.RawMessage, e era) {
	defer c.calls.Done()
	start := time.Now()
	var p *progress
	var rep Progress = noProgress{}
	if token != nil {
		p = &progress{c: c, token: token, withMessage: hasProgressMessage(e.version)}
		rep = p
	}

	res := c.invoke(ctx, name, args, rep)
	// The client cancelled: per the spec the request gets no response at all.
	clientCancelled := context.Cause(ctx) == errClientCancelled
	if ctx.Err() != nil && !clientCancelled {
		res = codeError(errcode.Cancelled, "the server is shutting down; the call may have partly completed")
	}
	body := shapeResult(res, e.version, c.log, name)
	body.modernFields = c.modern(e)

	if p != nil {
		p.finish()
	}
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	cancel(nil)
	if !clientCancelled {
		c.reply(id, body, nil)
	}

	attrs := []any{"id", string(id), "method", "tools/call", "tool", name, "duration", time.Since(start), "isError", res.IsError}
	if ec, ok := res.Structured.(ErrorContent); ok && res.IsError {
		attrs = append(attrs, "code", ec.Error.Code)
	}
	c.log.Info("mcp tool call", attrs...)
}

// invoke calls the handler, turning a panic into an internal_error result.
func (c *conn) invoke(ctx context.Context, name string, args json.RawMessage, p Progress) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			c.log.Error("mcp: panic in tool handler", "tool", name, "panic", v, "stack", string(debug.Stack()))
			res = codeError(errcode.InternalError, "internal error")
		}
	}()
	return c.s.h.CallTool(ctx, name, args, p)
}

// textContent is one text content item.
type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// imageContent is one image content item.
type imageContent struct {
	Type     string `json:"type"`
	Data     []byte `json:"data"` // encoding/json writes standard base64
	MIMEType string `json:"mimeType"`
}

// callResult is a tools/call result as sent.
type callResult struct {
	modernFields
	Content           []any           `json:"content"` // textContent and imageContent items
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
}

// shapeResult turns a Result into the tools/call result for version. Versions
// without structuredContent get the structured JSON as a second text item.
func shapeResult(r Result, version string, log *slog.Logger, tool string) callResult {
	var structured json.RawMessage
	if r.Structured != nil {
		b, err := json.Marshal(r.Structured)
		if err != nil || len(b) == 0 || b[0] != '{' {
			log.Error("mcp: tool returned structured content that is not a JSON object", "tool", tool, "err", err)
			r = codeError(errcode.InternalError, "internal error")
			b, _ = json.Marshal(r.Structured)
		}
		structured = b
	}
	out := callResult{Content: []any{textContent{Type: "text", Text: r.Text}}, IsError: r.IsError}
	for _, im := range r.Images {
		out.Content = append(out.Content, imageContent{Type: "image", Data: im.Data, MIMEType: im.MIMEType})
	}
	if structured != nil {
		if hasStructuredContent(version) {
			out.StructuredContent = structured
		} else {
			out.Content = append(out.Content, textContent{Type: "text", Text: string(structured)})
		}
	}
	return out
}

// initializedNotification handles notifications/initialized.
func (c *conn) initializedNotification(json.RawMessage) error {
	if !c.initialized {
		return errors.New("initialized before initialize")
	}
	c.clientReady = true
	return nil
}

// cancelledNotification handles notifications/cancelled: it cancels the
// identified call's context and returns at once.
func (c *conn) cancelledNotification(params json.RawMessage) error {
	members, rerr := paramsMembers(params)
	if rerr != nil {
		return rerr
	}
	raw, ok := members["requestId"]
	if !ok {
		return errors.New("requestId missing")
	}
	key, ok := idKey(raw)
	if !ok {
		return errors.New("requestId must be a string or a number")
	}
	c.mu.Lock()
	cl := c.inflight[key]
	c.mu.Unlock()
	if cl == nil {
		return fmt.Errorf("no call in flight with id %s", raw)
	}
	cl.cancel(errClientCancelled)
	c.log.Debug("mcp: call cancelled by client", "id", string(raw))
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
