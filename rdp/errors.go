package rdp

import (
	"errors"
	"fmt"
)

// Error categories. Test with errors.Is; the concrete error adds detail.
var (
	// ErrClosed: the connection is gone (peer closed, network error,
	// protocol fault, timeout or Close). Client.Err has the cause.
	ErrClosed = errors.New("rdp: connection closed")
	// ErrTimeout: a request passed the client's RequestTimeout. The
	// connection stays open: the request stays queued, retired, so the
	// per-actor reply order holds (see ErrUnresponsive).
	ErrTimeout = errors.New("rdp: request timed out")
	// ErrUnresponsive: an earlier request to the same actor has not been
	// answered within a deadline (a page stuck in a script loop blocks its
	// whole content process), so the new request was not sent; it would
	// only queue behind the old one. The actor answers again once the
	// earlier reply arrives.
	ErrUnresponsive = errors.New("rdp: actor not answering")
	// ErrNoTarget: the tab has had no current top-level document for as long
	// as the caller could wait (it navigated and no new document arrived,
	// say after a redirect to a URL Firefox does not expose).
	ErrNoTarget = errors.New("rdp: tab has no current document")
	// ErrTargetGone: the target (document) a pending request or evaluation
	// was addressed to was destroyed, typically by a navigation.
	ErrTargetGone = errors.New("rdp: target destroyed")
	// ErrTabClosed: the watched tab was closed.
	ErrTabClosed = errors.New("rdp: tab closed")
	// ErrProtocol: Firefox sent a malformed or unexpected packet.
	ErrProtocol = errors.New("rdp: protocol error")
)

// ActorError is an error reply from an actor, such as
// {"from":"…","error":"noSuchActor","message":"No such actor for ID: …"}.
type ActorError struct {
	Actor   string
	Code    string // e.g. "noSuchActor", "unrecognizedPacketType"
	Message string
}

func (e *ActorError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("rdp: actor %s: %s", e.Actor, e.Code)
	}
	return fmt.Sprintf("rdp: actor %s: %s: %s", e.Actor, e.Code, e.Message)
}

// Is makes errors.Is(err, &ActorError{Code: "noSuchActor"}) match by code
// (an empty Code or Actor in the target matches any).
func (e *ActorError) Is(target error) bool {
	t, ok := target.(*ActorError)
	if !ok {
		return false
	}
	return (t.Code == "" || t.Code == e.Code) && (t.Actor == "" || t.Actor == e.Actor)
}

// IsNoSuchActor reports whether err is an ActorError with code noSuchActor.
func IsNoSuchActor(err error) bool {
	var ae *ActorError
	return errors.As(err, &ae) && ae.Code == "noSuchActor"
}

// EvalError is an exception thrown (or a promise rejected) by evaluated code.
// Message and Stack come from the page and are untrusted.
type EvalError struct {
	Message string
	// Stack has one frame per line, "function@file:line:column", when
	// Firefox sends them: for evaluations named EvalURL, as this client's
	// are, Firefox 153 sends none (it keeps frames only below a "debugger
	// eval code" one).
	Stack string
}

func (e *EvalError) Error() string { return "rdp: evaluation threw: " + e.Message }

// LimitError reports a value larger than a configured limit.
type LimitError struct {
	What  string // e.g. "long string"
	Size  int64  // the size Firefox announced
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("rdp: %s of %d exceeds the limit of %d", e.What, e.Size, e.Limit)
}

// closedError is what waiters see when the connection ends: errors.Is
// matches ErrClosed and, through Unwrap, the cause.
type closedError struct{ cause error }

func (e *closedError) Error() string {
	if e.cause == nil {
		return ErrClosed.Error()
	}
	return ErrClosed.Error() + ": " + e.cause.Error()
}

func (e *closedError) Is(target error) bool { return target == ErrClosed }
func (e *closedError) Unwrap() error        { return e.cause }

// protocolError wraps ErrProtocol with detail.
func protocolError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}
