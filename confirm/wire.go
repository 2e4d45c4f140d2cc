package confirm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the channel between the server and the window helper. The
// helper enforces them again on what it receives: the server side runs page
// content through its engine, so the helper treats every request as hostile.
const (
	MaxMessage = 16 << 10 // bytes per datagram
	MaxField   = 200      // runes of one page string shown in the window
	MaxList    = 8        // amounts, files or reasons shown
)

// Request is one question for the user: what the engine read at the
// gesture. Origin and FrameOrigin come from Firefox; Element, FormTarget,
// Amounts and Files are page strings (or file names), shown as plain text.
type Request struct {
	ID          uint32     `json:"id"`
	Categories  []Category `json:"categories"`
	Reasons     []string   `json:"reasons"`
	Origin      string     `json:"origin"`
	Gesture     string     `json:"gesture"`
	Element     string     `json:"element"`
	FrameOrigin string     `json:"frame_origin"`
	FormTarget  string     `json:"form_target"`
	FormMethod  string     `json:"form_method"`
	Amounts     []string   `json:"amounts"`
	Files       []string   `json:"files"`
}

// Outcome is the user's answer, or why there was none.
type Outcome string

const (
	Yes         Outcome = "yes"         // the user allowed this one action
	No          Outcome = "no"          // the user refused (the button, Escape or closing the window)
	Timeout     Outcome = "timeout"     // no answer in time: a refusal
	Unavailable Outcome = "unavailable" // no window could be shown
)

// Answer is the helper's reply to one Request.
type Answer struct {
	ID      uint32  `json:"id"`
	Outcome Outcome `json:"outcome"`
	Program string  `json:"program,omitempty"` // the window program's base name
	Detail  string  `json:"detail,omitempty"`  // why unavailable, and the fix
}

// Hello is the helper's first message: whether a window can be shown.
type Hello struct {
	Hello bool         `json:"hello"`
	Avail Availability `json:"avail"`
}

// Availability says whether a window can be shown and with what.
type Availability struct {
	Program string `json:"program,omitempty"` // zenity or kdialog, when found
	Display string `json:"display,omitempty"` // "x11 :0", "wayland wayland-0"
	Problem string `json:"problem,omitempty"` // empty when a window can be shown
}

// OK reports whether a window can be shown.
func (a Availability) OK() bool { return a.Problem == "" }

// ErrMalformed is wrapped by every decoding failure.
var ErrMalformed = errors.New("confirm: malformed message")

// decodeStrict decodes one message: within MaxMessage, exactly one JSON
// object, no unknown fields.
func decodeStrict(b []byte, v any) error {
	if len(b) == 0 || len(b) > MaxMessage {
		return fmt.Errorf("%w: %d bytes", ErrMalformed, len(b))
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if d.More() {
		return fmt.Errorf("%w: trailing data", ErrMalformed)
	}
	return nil
}

// Check validates a request as the helper receives it.
func (r *Request) Check() error {
	if len(r.Categories) == 0 || len(r.Categories) > len(Categories) {
		return fmt.Errorf("%w: %d categories", ErrMalformed, len(r.Categories))
	}
	for _, c := range r.Categories {
		if _, ok := ParseCategory(string(c)); !ok {
			return fmt.Errorf("%w: category %q", ErrMalformed, Clean(string(c), 40))
		}
	}
	if r.Origin == "" || r.Gesture == "" {
		return fmt.Errorf("%w: no origin or gesture", ErrMalformed)
	}
	for _, l := range [][]string{r.Reasons, r.Amounts, r.Files} {
		if len(l) > 4*MaxList {
			return fmt.Errorf("%w: list of %d", ErrMalformed, len(l))
		}
	}
	return nil
}

// Clean makes a page string safe to show on one line: valid UTF-8, control
// and format characters (newlines, bidi overrides) as spaces, runs of space
// collapsed, cut to max runes with an ellipsis. A page cannot start a line
// of its own in the window (a forged "Site:" line).
func Clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		rs := []rune(s)
		s = string(rs[:max-1]) + "…"
	}
	return s
}
