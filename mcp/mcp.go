package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Implementation names this server in the initialize result (serverInfo).
type Implementation struct{ Name, Version string }

// ToolAnnotations are the behaviour hints of a tool. They are advertised to
// clients that negotiated protocol version 2025-03-26 or newer. On the wire
// a hint is written only where it differs from the default the
// specification gives it (readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true; destructiveHint and
// idempotentHint mean nothing for a read-only tool), so a client reads the
// same hints in fewer bytes of tools/list.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// MarshalJSON writes the title and the hints that differ from their
// defaults.
func (a ToolAnnotations) MarshalJSON() ([]byte, error) {
	type wire struct {
		Title           string `json:"title,omitempty"`
		ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
		DestructiveHint *bool  `json:"destructiveHint,omitempty"`
		IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
		OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	}
	t, f := true, false
	w := wire{Title: a.Title}
	if a.ReadOnlyHint {
		w.ReadOnlyHint = &t
	} else {
		if !a.DestructiveHint {
			w.DestructiveHint = &f
		}
		if a.IdempotentHint {
			w.IdempotentHint = &t
		}
	}
	if !a.OpenWorldHint {
		w.OpenWorldHint = &f
	}
	return json.Marshal(w)
}

// Tool describes one tool in tools/list.
type Tool struct {
	Name, Title, Description string
	// InputSchema is a JSON Schema of type object. Empty means
	// {"type":"object"}.
	InputSchema json.RawMessage
	// OutputSchema is optional; it is advertised only for protocol versions
	// that define it (2025-06-18 and newer).
	OutputSchema json.RawMessage
	Annotations  *ToolAnnotations
}

// Result is the outcome of one tool call.
type Result struct {
	Text       string  // the text of content[0]
	Images     []Image // image content items, after the text
	Structured any     // structuredContent; must marshal to a JSON object; nil = none
	IsError    bool
}

// Image is one image content item: {"type":"image","data":base64,"mimeType"}.
type Image struct {
	Data     []byte // the encoded image (PNG, JPEG); sent as standard base64
	MIMEType string // "image/png", "image/jpeg"
}

// ErrorDetail is the body of a tool error, as seed §9.5 shapes it.
type ErrorDetail struct {
	Code      errcode.Code `json:"code"`
	Message   string       `json:"message"`
	Retryable bool         `json:"retryable"`
}

// ErrorContent is the structuredContent of a tool error result built by
// [ToolError]: {"error":{"code","message","retryable"}}.
type ErrorContent struct {
	Error ErrorDetail `json:"error"`
}

// ToolError builds the isError result with structuredContent
// {"error":{"code","message","retryable"}} and the text "code: message".
// Structured holds an [ErrorContent]. The handler says whether the call is
// retryable; the server's own errors (cancelled, internal_error) take the
// flag errcode defines.
func ToolError(code errcode.Code, message string, retryable bool) Result {
	return Result{
		Text:       string(code) + ": " + message,
		Structured: ErrorContent{Error: ErrorDetail{Code: code, Message: message, Retryable: retryable}},
		IsError:    true,
	}
}

// codeError is ToolError for the server's own codes, with errcode's flag.
func codeError(code errcode.Code, message string) Result {
	return ToolError(code, message, code.Retryable())
}

// Progress reports notifications/progress for the current call. It is a no-op
// when the request carried no _meta.progressToken, when progress does not
// increase over the last report, and once the call's response has been
// sent. It is safe for concurrent use and never waits for the client: reports
// are queued (a bounded queue; overflow is dropped) and written in order
// before the call's response.
type Progress interface {
	Report(progress, total float64, message string)
}

// Handler is the tool provider the server dispatches to.
type Handler interface {
	// Tools lists the tools. It is called once, by NewServer, and must not
	// depend on any external state (tools/list works without a browser).
	Tools() []Tool
	// CallTool runs one tool. args is the raw "arguments" object ({} when the
	// client sent none); validating it is the handler's job (return a
	// ToolError "invalid_arguments"). CallTool is called concurrently, one
	// goroutine per call, and must return promptly once ctx is done: the
	// call's response waits for it.
	CallTool(ctx context.Context, name string, args json.RawMessage, p Progress) Result
}

// Options configure a [Server].
type Options struct {
	Implementation Implementation
	// Instructions, when non-empty, is sent as the initialize result's
	// "instructions".
	Instructions string
	Logger       *slog.Logger // stderr logger from cmd; nil = discard
	MaxLineBytes int          // longest accepted input line, not counting its delimiter; default 8 MiB
}

// DefaultMaxLineBytes is the input line cap used when Options.MaxLineBytes is 0.
const DefaultMaxLineBytes = 8 << 20

// SupportedProtocolVersions returns the MCP protocol versions the server
// speaks, newest first: the modern revision, served per request (its
// server/discover lists these), then the legacy ones initialize negotiates.
func SupportedProtocolVersions() []string {
	return slices.Concat(modernVersions, legacyVersions)
}

// negotiate picks the version initialize answers with: the requested one
// when it is a legacy version, otherwise the newest legacy one (a modern
// revision has no handshake to negotiate it).
func negotiate(requested string) string {
	if slices.Contains(legacyVersions, requested) {
		return requested
	}
	return legacyVersions[0]
}

// Feature gates by protocol version. Versions are ISO dates, so string
// comparison orders them.
func hasStructuredContent(version string) bool { return version >= "2025-06-18" }
func hasToolTitle(version string) bool         { return version >= "2025-06-18" }
func hasAnnotations(version string) bool       { return version >= "2025-03-26" }
func hasProgressMessage(version string) bool   { return version >= "2025-03-26" }
