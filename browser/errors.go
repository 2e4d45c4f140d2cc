package browser

import (
	"errors"
	"fmt"
)

// Error codes a tool failure carries (seed §15, plus the ones this
// implementation adds). They are part of the tool contract: an agent branches
// on them, so never rename one.
const (
	CodeInvalidArguments       = "invalid_arguments"
	CodeNotConnected           = "not_connected"
	CodeConnectionLost         = "connection_lost"
	CodeRDPTimeout             = "rdp_timeout"
	CodeRDPProtocol            = "rdp_protocol_error"
	CodeNoTabSelected          = "no_tab_selected"
	CodeTabNotFound            = "tab_not_found"
	CodeTargetReplaced         = "target_replaced"
	CodeElementNotFound        = "element_not_found"
	CodeStaleElement           = "stale_element"
	CodeElementNotInteractable = "element_not_interactable"
	CodeInvalidSelector        = "invalid_selector"
	CodeUnsupportedElement     = "unsupported_element"
	CodeNavigationTimeout      = "navigation_timeout"
	CodeNavigationFailed       = "navigation_failed"
	CodePageUnresponsive       = "page_unresponsive"
	CodeTargetGone             = "target_gone"
	CodeWaitTimeout            = "wait_timeout"
	CodeDialogOpen             = "dialog_open"
	CodeNoDialog               = "no_dialog"
	CodeUploadsDisabled        = "uploads_disabled"
	CodeUploadFileInvalid      = "upload_file_invalid"
	CodeUploadTooLarge         = "upload_too_large"
	CodeUploadTargetInvalid    = "upload_target_invalid"
	CodeUploadTransferFailed   = "upload_transfer_failed"
	CodeUploadAssignFailed     = "upload_assignment_failed"
	CodePageScriptFailed       = "page_script_failed"
	CodeRequestNotFound        = "request_not_found"
	CodeCancelled              = "cancelled"
	CodeInternal               = "internal_error"
	CodeTabNotOwned            = "tab_not_owned"
	CodeHistoryUnavailable     = "history_unavailable"
	CodeOptionNotFound         = "option_not_found"
	CodeCloseBlocked           = "close_blocked"
)

// retryable says whether repeating the same call, unchanged, can succeed:
// the cause may pass by itself (Firefox starting, a slow load, a dropped
// connection, an element that is still animating in). It is false where the
// agent must do something else first — fix the arguments, take a new
// snapshot, select a tab, answer a dialog — because the same call would
// fail the same way. TestRetryablePinned pins every entry.
var retryable = map[string]bool{
	CodeInvalidArguments:       false, // the arguments must change
	CodeNotConnected:           true,  // Firefox may be started (the call reconnects)
	CodeConnectionLost:         true,  // the next call reconnects
	CodeRDPTimeout:             true,  // Firefox was busy; the connection is fresh
	CodeRDPProtocol:            false, // a Firefox this server does not understand
	CodeNoTabSelected:          false, // select_tab first
	CodeTabNotFound:            false, // that tab is gone: list_tabs
	CodeTargetReplaced:         true,  // a read or a navigation repeats fine on the new document
	CodeElementNotFound:        false, // the ref's element is gone: take a new snapshot
	CodeStaleElement:           false, // take a new snapshot
	CodeElementNotInteractable: true,  // disabled, covered or hidden for now
	CodeInvalidSelector:        false, // the selector must change
	CodeUnsupportedElement:     false, // that element cannot take this action
	CodeNavigationTimeout:      true,  // a slow load may finish
	CodeNavigationFailed:       true,  // the same URL may load later (a server that was down)
	CodePageUnresponsive:       true,  // once the page's script stops (or after navigating away)
	CodeTargetGone:             false, // navigate the tab to an http(s) URL first
	CodeWaitTimeout:            true,  // the condition may still come true
	CodeDialogOpen:             false, // answer it with handle_dialog first
	CodeNoDialog:               false, // nothing to answer
	CodeUploadsDisabled:        false, // a configuration change and restart
	CodeUploadFileInvalid:      false, // the path must change
	CodeUploadTooLarge:         false, // a limit
	CodeUploadTargetInvalid:    false, // another element must be named
	CodeUploadTransferFailed:   true,  // the transfer may go through next time
	CodeUploadAssignFailed:     true,  // the page may have been busy
	CodePageScriptFailed:       true,  // the page may have been changing
	CodeRequestNotFound:        false, // that request is not (or no longer) buffered
	CodeTabNotOwned:            false, // the user's own tab: this server never closes it
	CodeHistoryUnavailable:     false, // no history entry in that direction
	CodeOptionNotFound:         false, // name one of the options the error lists
	CodeCloseBlocked:           false, // the page asks to confirm leaving: the user decides
	CodeCancelled:              true,  // the client cancelled; the call itself was fine
	CodeInternal:               false, // a bug in this server
}

// scriptCodes maps the codes page scripts use that are not tool codes.
var scriptCodes = map[string]string{
	"invalid_argument": CodeInvalidArguments,
}

// Error is a tool failure that is safe to show to the model: its message
// was written by this program, and page-derived text in it is quoted and
// bounded.
type Error struct {
	Code    string
	Message string
	// Phase names the upload step that failed (upload.go uploadPhase:
	// validation, transfer, construction, assignment, verification); empty
	// elsewhere.
	Phase uploadPhase
	// Details are extra structured fields for the result (e.g. a dialog's
	// type and text); nil for most errors. Page-derived strings in them are
	// Page values (see untrusted.go).
	Details map[string]any
	// page holds page-derived values that Text shows inside markers after
	// the message; Message itself never carries page text.
	page []pageField
}

// pageField is one labelled page-derived value of an error.
type pageField struct {
	label, value string
	max          int
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// withPage adds a page-derived value (cut to n runes) that Text shows
// inside markers, and returns e.
func (e *Error) withPage(label, value string, n int) *Error {
	e.page = append(e.page, pageField{label, value, n})
	return e
}

// Text renders the error for the model: "code: message", then any
// page-derived values inside an untrusted block.
func (e *Error) Text() string {
	t := e.Code + ": " + e.Message
	if len(e.page) > 0 {
		u := newUntrusted()
		for _, f := range e.page {
			u.field(f.label, f.value, f.max)
		}
		t += "\n" + u.String()
	}
	return t
}

// Structured is the error's structuredContent:
// {"error":{"code","message","retryable", phase and details when set}}.
func (e *Error) Structured() map[string]any {
	detail := map[string]any{"code": e.Code, "message": e.Message, "retryable": e.Retryable()}
	for k, v := range e.Details {
		detail[k] = v
	}
	if e.Phase != "" {
		detail["phase"] = string(e.Phase)
	}
	return map[string]any{"error": detail}
}

// Retryable reports whether the call may succeed if repeated later.
func (e *Error) Retryable() bool { return retryable[e.Code] }

// Is matches by code, so errors.Is(err, &Error{Code: CodeStaleElement}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error when it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
