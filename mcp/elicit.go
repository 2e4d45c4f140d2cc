package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Elicitation (2025-06-18 and 2025-11-25, form mode) is the one request this
// server sends to its client: elicitation/create, whose result says whether
// the person at the client accepted, declined or cancelled, with the
// content of the form on accept. It is offered to a tool call only when the
// session's client declared the capability at initialize and the call came
// in the legacy era: the modern revision (2026-07-28) has no
// server-to-client requests.

// Errors of [Elicitor.Elicit]. A malformed response, a JSON-RPC error and
// no response within the wait are all "no answer".
var (
	ErrElicitBusy     = errors.New("mcp: too many elicitation requests are waiting for the client")
	ErrElicitNoAnswer = errors.New("mcp: the client gave no answer to the elicitation request")
)

const (
	// maxOutstanding bounds the server's requests waiting for the client;
	// one more is refused (ErrElicitBusy) without being sent.
	maxOutstanding = 4
	// maxElicitWait bounds one wait whatever the caller's context says.
	maxElicitWait = 10 * time.Minute
	// outgoingIDPrefix starts every id the server sends. The client's
	// requests and the server's are separate id spaces in JSON-RPC; the
	// prefix also keeps a confused client from mistaking one for the other.
	outgoingIDPrefix = "firefox-rdp-mcp/elicitation/"
)

// Elicitation actions a client may answer with.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// Elicitor sends elicitation/create requests to the client of one session.
// It is safe for concurrent use.
type Elicitor struct{ c *conn }

type elicitorKey struct{}

// ElicitorFrom returns the elicitor of the tool call whose context ctx is,
// or nil when the call's client cannot be asked: it did not declare the
// elicitation capability in form mode at initialize (or negotiated a
// version older than 2025-06-18, which has none), or the call came in the
// modern era (2026-07-28), which has no server-to-client requests.
func ElicitorFrom(ctx context.Context) *Elicitor {
	e, _ := ctx.Value(elicitorKey{}).(*Elicitor)
	return e
}

// reply is a response to one of the server's requests, as the read loop
// routes it.
type reply struct {
	result json.RawMessage
	err    error
}

// elicitParams are elicitation/create's params (form mode).
type elicitParams struct {
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// Elicit sends elicitation/create with message and requestedSchema (a flat
// object schema of primitive properties: the caller's) and waits for the
// client's answer: its action (ElicitAccept, ElicitDecline or ElicitCancel)
// and, on accept, its content object (nil when absent). The wait ends with
// ctx (the error is ctx's) or after maxElicitWait (ErrElicitNoAnswer); then
// the server sends notifications/cancelled for its request and drops a late
// answer. A malformed response or an error response is ErrElicitNoAnswer.
func (e *Elicitor) Elicit(ctx context.Context, message string, schema json.RawMessage) (action string, content json.RawMessage, err error) {
	c := e.c
	id, ch, err := c.startOutgoing()
	if err != nil {
		return "", nil, err
	}
	b, err := json.Marshal(struct {
		JSONRPC string       `json:"jsonrpc"`
		ID      string       `json:"id"`
		Method  string       `json:"method"`
		Params  elicitParams `json:"params"`
	}{"2.0", id, "elicitation/create", elicitParams{message, schema}})
	if err != nil {
		c.retireOutgoing(id)
		return "", nil, fmt.Errorf("mcp: elicitation request: %w", err)
	}
	c.writeLine(b)
	t := time.NewTimer(maxElicitWait)
	defer t.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return "", nil, r.err
		}
		return parseElicitResult(r.result)
	case <-ctx.Done():
		c.abandonOutgoing(id, "the tool call ended")
		return "", nil, ctx.Err()
	case <-t.C:
		c.abandonOutgoing(id, "no answer in time")
		return "", nil, fmt.Errorf("%w within %v", ErrElicitNoAnswer, maxElicitWait)
	}
}

// parseElicitResult reads an elicitation result: an object whose action is
// one of the three, and whose content, when present, is an object.
func parseElicitResult(raw json.RawMessage) (string, json.RawMessage, error) {
	members, dup := objectMembers(raw)
	if members == nil || dup != "" {
		return "", nil, fmt.Errorf("%w: the result is not an object", ErrElicitNoAnswer)
	}
	action, present, ok := stringMember(members, "action")
	if !present || !ok || (action != ElicitAccept && action != ElicitDecline && action != ElicitCancel) {
		return "", nil, fmt.Errorf("%w: action is not accept, decline or cancel", ErrElicitNoAnswer)
	}
	content, ok := members["content"]
	if ok && content[0] != '{' {
		return "", nil, fmt.Errorf("%w: content is not an object", ErrElicitNoAnswer)
	}
	return action, content, nil
}

// startOutgoing registers a new request of the server's own and returns
// its id and the channel its reply arrives on (buffered: the read loop
// never waits).
func (c *conn) startOutgoing() (string, chan reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.outgoing) >= maxOutstanding {
		return "", nil, ErrElicitBusy
	}
	c.nextOut++
	id := outgoingIDPrefix + strconv.FormatUint(c.nextOut, 10)
	ch := make(chan reply, 1)
	c.outgoing[id] = ch
	return id, ch, nil
}

func (c *conn) retireOutgoing(id string) {
	c.mu.Lock()
	delete(c.outgoing, id)
	c.mu.Unlock()
}

// abandonOutgoing retires a request nobody waits for any more and tells the
// client, as the spec asks, with notifications/cancelled.
func (c *conn) abandonOutgoing(id, reason string) {
	c.retireOutgoing(id)
	b, err := json.Marshal(notification{JSONRPC: "2.0", Method: "notifications/cancelled", Params: struct {
		RequestID string `json:"requestId"`
		Reason    string `json:"reason"`
	}{id, reason}})
	if err == nil {
		c.writeLine(b)
	}
}

// routeResponse hands a response to the request of the server's it
// answers, on the read loop and without blocking. Unknown, late and
// duplicate responses are logged at debug level and dropped.
func (c *conn) routeResponse(m *message) {
	var id string
	if m.id[0] != '"' || json.Unmarshal(m.id, &id) != nil {
		c.log.Debug("mcp: response to an unknown request ignored", "id", truncate(string(m.id), 80))
		return
	}
	c.mu.Lock()
	ch := c.outgoing[id]
	delete(c.outgoing, id)
	c.mu.Unlock()
	if ch == nil {
		c.log.Debug("mcp: response to an unknown, finished or answered request ignored", "id", truncate(id, 80))
		return
	}
	r := reply{result: m.result}
	switch {
	case m.rpcErr != nil:
		var e rpcError
		_ = json.Unmarshal(m.rpcErr, &e)
		r = reply{err: fmt.Errorf("%w: the client answered error %d (%s)", ErrElicitNoAnswer, e.Code, truncate(e.Message, 100))}
	case m.result == nil:
		r = reply{err: fmt.Errorf("%w: the response has no result", ErrElicitNoAnswer)}
	}
	ch <- r // buffered, and only this send ever happens on it
}

// declaresFormElicitation reports whether an initialize's capabilities
// declare elicitation in form mode: {} (2025-06-18; in 2025-11-25 an empty
// object means form) or an object with "form". A client declaring only
// "url" cannot show a form; anything not an object declares nothing.
func declaresFormElicitation(capabilities json.RawMessage) bool {
	caps, _ := objectMembers(capabilities)
	raw, ok := caps["elicitation"]
	if !ok {
		return false
	}
	el, dup := objectMembers(raw)
	if el == nil || dup != "" {
		return false
	}
	if len(el) == 0 {
		return true
	}
	form, ok := el["form"]
	return ok && form[0] == '{'
}

// hasElicitation: elicitation exists from 2025-06-18.
func hasElicitation(version string) bool { return version >= "2025-06-18" }

// withElicitor gives a tool call's context the session's elicitor when the
// call's client can be asked.
func (c *conn) withElicitor(ctx context.Context, e era) context.Context {
	if e.modern || !c.elicit || !hasElicitation(e.version) {
		return ctx
	}
	return context.WithValue(ctx, elicitorKey{}, &Elicitor{c: c})
}
