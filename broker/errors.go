package broker

import (
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Error is the typed error of every broker operation. Code is one of
// errcode.UploadFileInvalid (not a readable regular file, or a path check
// failed) and errcode.UploadTooLarge (a file or the call exceeds the
// configured limits), which are tool codes too, or errcode.BrokerUnavailable
// (the broker process is gone or the channel failed) and
// errcode.BrokerProtocol (a message violated the protocol), which describe
// the broker channel itself. Message is safe to show to the MCP client: it
// names files by basename only. Index is the position of the offending path
// in a Stat call, or -1.
type Error struct {
	Code    errcode.Code
	Index   int
	Message string
}

func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("%s: path %d: %s", e.Code, e.Index, e.Message)
	}
	return string(e.Code) + ": " + e.Message
}

// Is matches by Code, so errors.Is(err, broker.ErrTooLarge) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is.
var (
	ErrFileInvalid = &Error{Code: errcode.UploadFileInvalid, Index: -1}
	ErrTooLarge    = &Error{Code: errcode.UploadTooLarge, Index: -1}
	ErrUnavailable = &Error{Code: errcode.BrokerUnavailable, Index: -1}
	ErrProtocol    = &Error{Code: errcode.BrokerProtocol, Index: -1}
)
