package rdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// EvalURL is the script address every evaluation of this client runs as
// (evaluateJSAsync's url; Firefox's own default is "debugger eval code").
// What Firefox logs against a page while our scripts run (a deprecation
// warning for an API they call, say) names it as its source, so the user's
// web console says whose it was, and the tab's console buffer leaves it out
// (TabWatch.Console): it is not the page's. A page can give its own scripts
// that address too (a sourceURL comment), which only hides its own messages.
const EvalURL = "firefox-rdp-mcp"

// EvalOptions tunes EvaluateString.
type EvalOptions struct {
	Await bool // await a returned Promise (mapped:{await:true})
	// Sent, when not nil, is called as soon as the request has been written,
	// before its result arrives. A caller keeping several evaluations in
	// flight on one console uses it to put them on the wire in order (the
	// console runs them in wire order).
	Sent func()
	// Self, when set, is an object actor of the same target (say, one
	// EvaluateObject returned) that the evaluation sees as the binding _self
	// (the console's selectedObjectActor). An actor the target no longer
	// has leaves _self unbound.
	Self string
	// AckTimeout, when positive, bounds the wait for the acknowledgement,
	// which a console sends as soon as its process reads the request: a
	// process whose main thread is busy (a page script in an endless loop)
	// sends none. Past it the evaluation fails with ErrUnresponsive and the
	// console counts as not answering until the late acknowledgement
	// arrives (see Client.Request).
	AckTimeout time.Duration
}

type evalRequest struct {
	Type   string      `json:"type"`
	Text   string      `json:"text"`
	Mapped *evalMapped `json:"mapped,omitempty"`
	Self   string      `json:"selectedObjectActor,omitempty"`
	// DisableBreaks keeps the evaluation out of the debugger: no breakpoints,
	// no Debugger.Source per evaluation. Measured on ESR 153: a tiny
	// evaluation takes ≈3 ms with it and ≈7–70 ms without.
	DisableBreaks bool   `json:"disableBreaks"`
	URL           string `json:"url"` // EvalURL
}

type evalMapped struct {
	Await bool `json:"await"`
}

// grip is the part of an object grip we look at.
type grip struct {
	Type    string          `json:"type"`
	Class   string          `json:"class"`
	Actor   string          `json:"actor"`
	Length  int64           `json:"length"`
	Initial json.RawMessage `json:"initial"`
}

type stackFrame struct {
	Filename     string `json:"filename"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
	FunctionName string `json:"functionName"`
}

type evalResult struct {
	Result                json.RawMessage `json:"result"`
	HasException          bool            `json:"hasException"`
	ExceptionMessage      json.RawMessage `json:"exceptionMessage"`
	ExceptionStack        []stackFrame    `json:"exceptionStack"`
	TopLevelAwaitRejected bool            `json:"topLevelAwaitRejected"`
}

// EvaluateString evaluates src with evaluateJSAsync on consoleActor and
// returns its result, which must be a string (page scripts return
// JSON.stringify(...)). Long strings are fetched in chunks, joined in UTF-16
// and released.
//
// An exception is an *EvalError. A result of another type is an ErrProtocol
// error naming the type. When the target dies while the evaluation is pending
// the error is ErrTargetGone. When the client's RequestTimeout passes while
// waiting for the result (not the acknowledgement), ErrTimeout is returned but
// the connection stays open: results are matched by id, so a slow script
// (say, one blocked by an alert) does not make the connection suspect.
func (c *Client) EvaluateString(ctx context.Context, consoleActor, src string, opts EvalOptions) (string, error) {
	raw, err := c.evaluate(ctx, consoleActor, src, opts)
	var s string
	if err == nil {
		s, err = c.resultString(ctx, raw)
	}
	return s, c.evalErr(ctx, consoleActor, err)
}

// EvaluateObject evaluates src like EvaluateString, but the result must be
// an object (a function, say): it returns the object's actor, which stays
// valid until its target goes away (or a "release" request is sent to it).
// The object stays alive for as long as the actor does.
func (c *Client) EvaluateObject(ctx context.Context, consoleActor, src string, opts EvalOptions) (string, error) {
	raw, err := c.evaluate(ctx, consoleActor, src, opts)
	var g grip
	if err == nil && (len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &g) != nil || g.Type != "object" || g.Actor == "") {
		if g.Type == "longString" && g.Actor != "" {
			c.release(ctx, g.Actor)
		}
		err = protocolError("evaluation returned %.40s, want an object", raw)
	}
	if err != nil {
		return "", c.evalErr(ctx, consoleActor, err)
	}
	return g.Actor, nil
}

// evalErr forgets a console that is gone and names it in err; the caller's
// own cancellation is returned as it is.
func (c *Client) evalErr(ctx context.Context, console string, err error) error {
	if err == nil {
		return nil
	}
	if IsNoSuchActor(err) || errors.Is(err, ErrTargetGone) {
		c.forgetConsole(console)
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	return fmt.Errorf("rdp: evaluateJSAsync on %s: %w", console, err)
}

// evaluate runs one evaluateJSAsync and returns the evaluation's result
// grip, or the script's exception as an *EvalError.
func (c *Client) evaluate(ctx context.Context, console, src string, opts EvalOptions) (json.RawMessage, error) {
	req := evalRequest{Type: "evaluateJSAsync", Text: src, DisableBreaks: true, Self: opts.Self, URL: EvalURL}
	if opts.Await {
		req.Mapped = &evalMapped{Await: true}
	}
	body, typ, err := encodeRequest(console, req)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(c.opts.RequestTimeout)
	ackBy := deadline
	if opts.AckTimeout > 0 && time.Until(deadline) > opts.AckTimeout {
		ackBy = time.Now().Add(opts.AckTimeout)
	}
	w := &evalWait{console: console, ch: make(chan reply, 1)}
	ack, err := c.roundTrip(ctx, console, typ, body, w, ackBy, opts.Sent)
	if err != nil {
		if errors.Is(err, ErrTimeout) && ackBy.Before(deadline) {
			err = fmt.Errorf("%w: %s did not acknowledge an evaluation within %v", ErrUnresponsive, console, opts.AckTimeout)
		}
		return nil, err
	}
	ackPkt, err := parsePacket(ack)
	if err != nil {
		return nil, err
	}
	if id, ok := ackPkt.str("resultID"); !ok || id == "" {
		return nil, protocolError("evaluateJSAsync acknowledgement without resultID")
	}
	// The acknowledgement registered w (Client.deliver).
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	var r reply
	select {
	case r = <-w.ch:
	case <-ctx.Done():
		c.update(func(s *state) { s.unregister(w) })
		return nil, ctx.Err()
	case <-timer.C:
		c.update(func(s *state) { s.unregister(w) })
		return nil, fmt.Errorf("%w: no evaluation result after %v", ErrTimeout, c.opts.RequestTimeout)
	}
	if r.err != nil {
		return nil, r.err
	}
	var res evalResult
	if err := json.Unmarshal(r.raw, &res); err != nil {
		return nil, protocolError("evaluationResult: %v", err)
	}
	if res.HasException || res.TopLevelAwaitRejected {
		return nil, evalError(res)
	}
	return res.Result, nil
}

func evalError(res evalResult) *EvalError {
	e := &EvalError{}
	if len(res.ExceptionMessage) > 0 {
		switch res.ExceptionMessage[0] {
		case '"':
			json.Unmarshal(res.ExceptionMessage, &e.Message)
		case '{':
			var g grip
			json.Unmarshal(res.ExceptionMessage, &g)
			if g.Type == "longString" {
				var initial string
				json.Unmarshal(g.Initial, &initial)
				e.Message = initial + "…"
			}
		}
	}
	if e.Message == "" {
		if res.TopLevelAwaitRejected {
			e.Message = "promise rejected"
		} else {
			e.Message = "exception"
		}
	}
	var b strings.Builder
	for i, f := range res.ExceptionStack {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s@%s:%d:%d", f.FunctionName, f.Filename, f.LineNumber, f.ColumnNumber)
	}
	e.Stack = b.String()
	return e
}

// resultString turns an evaluation result into a string: a JSON string as
// is, a longString grip fetched and released; anything else is an error.
func (c *Client) resultString(ctx context.Context, raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", protocolError("evaluation result missing")
	}
	switch raw[0] {
	case '"':
		u, err := appendJSONStringUTF16(nil, raw)
		if err != nil {
			return "", protocolError("evaluation result: %v", err)
		}
		return utf16String(u), nil
	case '{':
		var g grip
		if err := json.Unmarshal(raw, &g); err != nil {
			return "", protocolError("evaluation result grip: %v", err)
		}
		if g.Type == "longString" {
			return c.longString(ctx, g)
		}
		what := g.Type
		if g.Class != "" {
			what += " " + g.Class
		}
		return "", protocolError("evaluation returned %s, want a string", what)
	case 't', 'f':
		return "", protocolError("evaluation returned a boolean, want a string")
	case 'n':
		return "", protocolError("evaluation returned null, want a string")
	default:
		return "", protocolError("evaluation returned a number, want a string")
	}
}

type substringRequest struct {
	Type  string `json:"type"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
}

type typeOnly struct {
	Type string `json:"type"`
}

// longString fetches a longString grip with substring requests, joining the
// chunks as UTF-16 (a chunk may end inside a surrogate pair), then releases
// the actor.
func (c *Client) longString(ctx context.Context, g grip) (string, error) {
	if g.Actor == "" {
		return "", protocolError("longString grip without actor")
	}
	// Released in the background: nothing else is ever asked of this actor,
	// and waiting for the reply would cost the caller a round trip.
	defer func() { go c.release(ctx, g.Actor) }()
	if g.Length < 0 {
		return "", protocolError("longString length %d", g.Length)
	}
	if g.Length > int64(c.opts.MaxStringUnits) {
		return "", &LimitError{What: "long string (UTF-16 units)", Size: g.Length, Limit: int64(c.opts.MaxStringUnits)}
	}
	units := make([]uint16, 0, g.Length)
	var err error
	if len(g.Initial) > 0 {
		if units, err = appendJSONStringUTF16(units, g.Initial); err != nil {
			return "", protocolError("longString initial: %v", err)
		}
	}
	if int64(len(units)) > g.Length {
		return "", protocolError("longString initial longer than its length")
	}
	for int64(len(units)) < g.Length {
		start := int64(len(units))
		end := min(start+int64(c.chunk), g.Length)
		var resp struct {
			Substring json.RawMessage `json:"substring"`
		}
		if err := c.Request(ctx, g.Actor, substringRequest{Type: "substring", Start: start, End: end}, &resp); err != nil {
			return "", err
		}
		before := len(units)
		if units, err = appendJSONStringUTF16(units, resp.Substring); err != nil {
			return "", protocolError("substring: %v", err)
		}
		if got := int64(len(units) - before); got != end-start {
			return "", protocolError("substring %d..%d returned %d units", start, end, got)
		}
	}
	return utf16String(units), nil
}

// release frees a long-string actor, best effort, even when ctx is done.
func (c *Client) release(ctx context.Context, actor string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := c.Request(ctx, actor, typeOnly{Type: "release"}, nil); err != nil {
		c.log.Debug("rdp release failed", "actor", actor, "err", err)
	}
}

func (c *Client) forgetConsole(console string) {
	c.update(func(s *state) {
		for pid, a := range s.consoles {
			if a == console {
				delete(s.consoles, pid)
			}
		}
		if s.parent == console {
			s.parent = ""
		}
	})
}
