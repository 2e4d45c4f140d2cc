package broker

import "fmt"

// Error codes. The first two follow the seed's error taxonomy (§15); the
// last two describe the broker channel itself.
const (
	CodeFileInvalid = "upload_file_invalid" // not a readable regular file (or a path check failed)
	CodeTooLarge    = "upload_too_large"    // a file or the call exceeds the configured limits
	CodeUnavailable = "broker_unavailable"  // the broker process is gone or the channel failed
	CodeProtocol    = "broker_protocol"     // a message violated the protocol
)

// Error is the typed error of every broker operation. Message is safe to
// show to the MCP client: it names files by basename only. Index is the
// position of the offending path in a Stat call, or -1.
type Error struct {
	Code    string
	Index   int
	Message string
}

func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("%s: path %d: %s", e.Code, e.Index, e.Message)
	}
	return e.Code + ": " + e.Message
}

// Is matches by Code, so errors.Is(err, broker.ErrTooLarge) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is.
var (
	ErrFileInvalid = &Error{Code: CodeFileInvalid, Index: -1}
	ErrTooLarge    = &Error{Code: CodeTooLarge, Index: -1}
	ErrUnavailable = &Error{Code: CodeUnavailable, Index: -1}
	ErrProtocol    = &Error{Code: CodeProtocol, Index: -1}
)
