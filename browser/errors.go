package browser

import (
	"errors"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Error is a tool failure that is safe to show to the model: its message
// was written by this program, and page-derived text in it is quoted and
// bounded. Code is one of errcode's tool codes; its facts (Retryable) are
// errcode's.
type Error struct {
	Code    errcode.Code
	Message string
	// Phase names the upload step that failed (upload.go uploadPhase:
	// validation, transfer, construction, assignment, verification); empty
	// elsewhere.
	Phase UploadPhase
	// Details are extra structured fields for the result (e.g. a dialog's
	// type); nil for most errors. They hold no page-derived strings: an
	// error's page text is in its text only, inside the markers (no output
	// schema declares error fields).
	Details map[string]any
	// Transient: this failure may pass by itself (Firefox still starting),
	// so the call is retryable even where its code is not.
	Transient bool
	// dialogText is an open dialog's text (dialog_open from dialogError),
	// for the results that report the dialog instead of failing.
	dialogText Page
	// page holds page-derived values that Text shows inside markers after
	// the message; Message itself never carries page text.
	page []PageField
}

// PageField is one labelled page-derived value of an error.
type PageField struct {
	Label, Value string
	Max          int
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// WithPage adds a page-derived value (cut to n runes) that Text shows
// inside markers, and returns e.
func (e *Error) WithPage(label, value string, n int) *Error {
	e.page = append(e.page, PageField{label, value, n})
	return e
}

// Prefixed is a copy of e whose message begins with note (the server's
// words) and whose page-derived values begin with label: value.
func (e *Error) Prefixed(note, label, value string, n int) *Error {
	c := *e
	c.Message = note + " " + e.Message
	c.page = append([]PageField{{label, value, n}}, e.page...)
	return &c
}

// Text renders the error for the model: "code: message", then any
// page-derived values inside an untrusted block.
func (e *Error) Text() string {
	t := string(e.Code) + ": " + e.Message
	if len(e.page) > 0 {
		u := NewUntrusted()
		for _, f := range e.page {
			u.Field(f.Label, f.Value, f.Max)
		}
		t += "\n" + u.String()
	}
	return t
}

// Structured is the error's structuredContent:
// {"error":{"code","message","retryable", phase and details when set}}.
func (e *Error) Structured() map[string]any {
	detail := map[string]any{"code": string(e.Code), "message": e.Message, "retryable": e.Retryable()}
	for k, v := range e.Details {
		detail[k] = v
	}
	if e.Phase != "" {
		detail["phase"] = string(e.Phase)
	}
	return map[string]any{"error": detail}
}

// Retryable reports whether the call may succeed if repeated later.
func (e *Error) Retryable() bool { return e.Code.Retryable() || e.Transient }

// Is matches by code, so errors.Is(err, &Error{Code: errcode.StaleElement}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func Errorf(code errcode.Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error when it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
