// Package errcode defines, once, the error codes of this server: the codes a
// tool failure carries to the model, the few that only page scripts and the
// upload broker use among themselves, and the facts each code carries
// (whether a tool may report it, whether repeating the call can help, what a
// page script's code becomes). browser, pagejs, broker and mcp all name their
// codes from here; the page scripts (pagejs/js/*.js) spell the codes they
// throw, and a test checks each of them is defined here.
//
// Tool codes are part of the tool contract: an agent branches on them, so
// never rename one. README's error table lists every tool code with its
// retryable flag (a test checks it).
//
// The package is a leaf (standard library only), so every room may use it.
package errcode

import (
	"maps"
	"slices"
)

// Code is an error code.
type Code string

// Tool codes (seed §15, plus the ones this implementation adds): the codes
// a tool result's {"error":{"code"}} may carry.
const (
	InvalidArguments       Code = "invalid_arguments"        // the arguments do not fit the schema or the tool's rules
	NotConnected           Code = "not_connected"            // Firefox's debugger cannot be reached
	ConnectionLost         Code = "connection_lost"          // the RDP connection dropped during the call
	RDPTimeout             Code = "rdp_timeout"              // Firefox did not answer in time
	RDPProtocolError       Code = "rdp_protocol_error"       // Firefox sent something this server does not understand
	NoTabSelected          Code = "no_tab_selected"          // no tab is selected: call select_tab
	TabNotFound            Code = "tab_not_found"            // the tab is gone
	TargetReplaced         Code = "target_replaced"          // the page's document was replaced during the call
	ElementNotFound        Code = "element_not_found"        // the ref's element is no longer on the page
	StaleElement           Code = "stale_element"            // the ref's element changed since the snapshot
	ElementNotInteractable Code = "element_not_interactable" // the element cannot be acted on now (disabled, hidden, covered)
	InvalidSelector        Code = "invalid_selector"         // a CSS selector that does not parse
	UnsupportedElement     Code = "unsupported_element"      // that element cannot take this action
	NavigationTimeout      Code = "navigation_timeout"       // the page did not load in time
	NavigationFailed       Code = "navigation_failed"        // Firefox could not load the page
	PageUnresponsive       Code = "page_unresponsive"        // a script on the page blocks its process
	TargetGone             Code = "target_gone"              // the tab shows no document the server can reach
	WaitTimeout            Code = "wait_timeout"             // wait_for's condition did not hold in time
	DialogOpen             Code = "dialog_open"              // a dialog blocks the page: answer it with handle_dialog
	NoDialog               Code = "no_dialog"                // handle_dialog, but no dialog is open
	UploadsDisabled        Code = "uploads_disabled"         // uploads are switched off by configuration
	UploadFileInvalid      Code = "upload_file_invalid"      // not a readable regular file beneath the upload roots
	UploadTooLarge         Code = "upload_too_large"         // a file or the call exceeds the upload limits
	UploadTargetInvalid    Code = "upload_target_invalid"    // the element cannot take the files
	UploadTransferFailed   Code = "upload_transfer_failed"   // the bytes did not reach the page
	UploadAssignmentFailed Code = "upload_assignment_failed" // the file input did not take the files
	PageScriptFailed       Code = "page_script_failed"       // a page script failed in a way it did not name
	RequestNotFound        Code = "request_not_found"        // network_request names a request not buffered
	Cancelled              Code = "cancelled"                // the client cancelled the call (or the server is shutting down)
	InternalError          Code = "internal_error"           // a bug in this server
	TabNotOwned            Code = "tab_not_owned"            // close_tab on a tab this server did not open
	HistoryUnavailable     Code = "history_unavailable"      // no history entry in that direction
	OptionNotFound         Code = "option_not_found"         // select_option or fill names an option the select lacks
	CloseBlocked           Code = "close_blocked"            // the page asks to confirm leaving
	// The lock on consequential actions (package confirm).
	ConfirmationRefused     Code = "confirmation_refused"     // the user said no, or did not answer in time: nothing reached the page
	ConfirmationUnavailable Code = "confirmation_unavailable" // no window could be shown to ask the user: nothing reached the page
)

// Codes that never reach a tool result.
const (
	InvalidArgument   Code = "invalid_argument"   // a page script's word for arguments it cannot use; becomes InvalidArguments
	ResidentMissing   Code = "resident_missing"   // a resident call found its script unbound (actor released, or another document's), or an isolated-realm call its kept copy gone
	BrokerUnavailable Code = "broker_unavailable" // the broker process is gone or its channel failed
	BrokerProtocol    Code = "broker_protocol"    // a broker message violated the protocol
)

// facts are what a code means beyond its name.
type facts struct {
	// tool: a tool result may carry the code.
	tool bool
	// retryable: repeating the same call, unchanged, can succeed.
	retryable bool
	// script: the tool code a page script's envelope with this (non-tool)
	// code becomes; empty means PageScriptFailed.
	script Code
	// raised: a script (pagejs/js, or pagejs's wrapper) reports this tool
	// code itself. Only these pass through FromScript: in the page realm the
	// page can make a script fail with any code it likes, and a code such
	// as not_connected or uploads_disabled is the server's claim, never a
	// script's.
	raised bool
}

// table holds the facts of every code. retryable is true where the cause
// may pass by itself (Firefox starting, a slow load, a dropped connection,
// an element that is still animating in); false where the agent must do
// something else first — fix the arguments, take a new snapshot, select a
// tab, answer a dialog — because the same call would fail the same way.
// browser's TestRetryablePinned pins every tool code's flag.
var table = map[Code]facts{
	InvalidArguments:        {tool: true, retryable: false, raised: true}, // the arguments must change
	NotConnected:            {tool: true, retryable: true},                // Firefox may be started (the call reconnects)
	ConnectionLost:          {tool: true, retryable: true},                // the next call reconnects
	RDPTimeout:              {tool: true, retryable: true},                // Firefox was busy; the connection is fresh
	RDPProtocolError:        {tool: true, retryable: false},               // a Firefox this server does not understand
	NoTabSelected:           {tool: true, retryable: false},               // select_tab first
	TabNotFound:             {tool: true, retryable: false, raised: true}, // that tab is gone: list_tabs
	TargetReplaced:          {tool: true, retryable: true, raised: true},  // a read or a navigation repeats fine on the new document
	ElementNotFound:         {tool: true, retryable: false, raised: true}, // the ref's element is gone: take a new snapshot
	StaleElement:            {tool: true, retryable: false, raised: true}, // take a new snapshot
	ElementNotInteractable:  {tool: true, retryable: true, raised: true},  // disabled, covered or hidden for now
	InvalidSelector:         {tool: true, retryable: false, raised: true}, // the selector must change
	UnsupportedElement:      {tool: true, retryable: false, raised: true}, // that element cannot take this action
	NavigationTimeout:       {tool: true, retryable: true},                // a slow load may finish
	NavigationFailed:        {tool: true, retryable: true},                // the same URL may load later (a server that was down)
	PageUnresponsive:        {tool: true, retryable: true},                // once the page's script stops (or after navigating away)
	TargetGone:              {tool: true, retryable: false},               // navigate the tab to an http(s) URL first
	WaitTimeout:             {tool: true, retryable: true},                // the condition may still come true
	DialogOpen:              {tool: true, retryable: false},               // answer it with handle_dialog first
	NoDialog:                {tool: true, retryable: false},               // nothing to answer
	UploadsDisabled:         {tool: true, retryable: false},               // a configuration change and restart
	UploadFileInvalid:       {tool: true, retryable: false},               // the path must change
	UploadTooLarge:          {tool: true, retryable: false},               // a limit
	UploadTargetInvalid:     {tool: true, retryable: false, raised: true}, // another element must be named
	UploadTransferFailed:    {tool: true, retryable: true, raised: true},  // the transfer may go through next time
	UploadAssignmentFailed:  {tool: true, retryable: true, raised: true},  // the page may have been busy
	PageScriptFailed:        {tool: true, retryable: true},                // the page may have been changing
	RequestNotFound:         {tool: true, retryable: false},               // that request is not (or no longer) buffered
	TabNotOwned:             {tool: true, retryable: false},               // the user's own tab: this server never closes it
	HistoryUnavailable:      {tool: true, retryable: false, raised: true}, // no history entry in that direction
	OptionNotFound:          {tool: true, retryable: false, raised: true}, // name one of the options the error lists
	CloseBlocked:            {tool: true, retryable: false},               // the page asks to confirm leaving: the user decides
	ConfirmationRefused:     {tool: true, retryable: false},               // the user's no stands: asking again is not the agent's call
	ConfirmationUnavailable: {tool: true, retryable: false},               // a display or a window program must be provided first
	Cancelled:               {tool: true, retryable: true},                // the client cancelled; the call itself was fine
	InternalError:           {tool: true, retryable: false},               // a bug in this server

	InvalidArgument:   {script: InvalidArguments}, // the scripts' spelling of it
	ResidentMissing:   {},                         // handled before errors are shaped; a leftover is a script failure
	BrokerUnavailable: {},                         // browser reports it as UploadTransferFailed
	BrokerProtocol:    {},                         // browser reports it as UploadTransferFailed
}

// Tool reports whether a tool result may carry c.
func (c Code) Tool() bool { return table[c].tool }

// Retryable reports whether repeating the same call, unchanged, can
// succeed. It is false for codes that are not tool codes.
func (c Code) Retryable() bool { return table[c].retryable }

// Known reports whether c is defined here.
func (c Code) Known() bool {
	_, ok := table[c]
	return ok
}

// FromScript is the tool code for the code a page script's error envelope
// carries: a code the scripts raise stays itself, a script's own spelling
// becomes its tool code, and anything else (unknown codes, and the
// server's own claims such as not_connected, uploads_disabled or
// internal_error, which a page could otherwise put in the server's mouth)
// becomes PageScriptFailed, whose retry may help.
func FromScript(c Code) Code {
	f := table[c]
	switch {
	case f.tool && f.raised:
		return c
	case f.script != "":
		return f.script
	}
	return PageScriptFailed
}

// Raised reports whether a page script may report c itself (FromScript
// keeps it).
func (c Code) Raised() bool { return table[c].raised }

// All returns every defined code, tool codes and the others, sorted.
func All() []Code { return slices.Sorted(maps.Keys(table)) }
