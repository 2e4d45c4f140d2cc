package pagejs

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// ScriptError is an error envelope returned by a script. Code is the code the
// script reported (one of errcode's, or a page's own word in the page realm);
// errcode.FromScript gives the tool code.
type ScriptError struct {
	Code    errcode.Code
	Message string
}

func (e *ScriptError) Error() string { return "pagejs: " + string(e.Code) + ": " + e.Message }

// Is matches another *ScriptError by code, so errors.Is(err, &ScriptError{Code: c}) works.
func (e *ScriptError) Is(target error) bool {
	t, ok := target.(*ScriptError)
	return ok && t.Code == e.Code
}

// ErrMalformed is returned by Decode when the result is not an envelope.
var ErrMalformed = errors.New("pagejs: malformed script result")

type envelope struct {
	OK    *bool           `json:"ok"`
	Value json.RawMessage `json:"value"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Decode parses the JSON string a built expression evaluated to. {ok:true,value} →
// json.Unmarshal(value, out) (out may be nil); {ok:false,error} → *ScriptError.
func Decode(result string, out any) error {
	var env envelope
	if err := json.Unmarshal([]byte(result), &env); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch {
	case env.OK == nil:
		return ErrMalformed
	case !*env.OK:
		if env.Error == nil || env.Error.Code == "" {
			return ErrMalformed
		}
		return &ScriptError{Code: errcode.Code(env.Error.Code), Message: env.Error.Message}
	}
	if out == nil {
		return nil
	}
	if len(env.Value) == 0 {
		return fmt.Errorf("%w: no value", ErrMalformed)
	}
	if err := json.Unmarshal(env.Value, out); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// Sel locates an element: CSS selectors, one per tree. The first is resolved in the
// document, each further one in the open shadow root of the element found before.
type Sel []string

// Fingerprint holds the fields that identify an element across re-resolution; absent
// fields are empty strings. Href is origin+path (no credentials, query or fragment).
type Fingerprint struct {
	Tag  string `json:"tag"`
	Role string `json:"role,omitempty"`
	Type string `json:"type,omitempty"`
	Name string `json:"name,omitempty"`
	Href string `json:"href,omitempty"`
}

// Sum is the SHA-256 digest of the fields joined by NUL (seed §8.4).
func (f Fingerprint) Sum() [32]byte {
	var buf [256]byte // one hashing of one buffer: a snapshot sums thousands
	b := append(buf[:0], f.Tag...)
	for _, s := range []string{f.Role, f.Type, f.Name, f.Href} {
		b = append(append(b, 0), s...)
	}
	return sha256.Sum256(b)
}

// Element is one snapshot entry (also the Describe result). Optional fields are absent
// when empty/false; Checked is set for checkable elements, Selected and Expanded only
// where the page states them.
type Element struct {
	Tag      string  `json:"tag"`
	Role     string  `json:"role,omitempty"`
	Type     string  `json:"type,omitempty"`
	Name     string  `json:"name,omitempty"`
	Value    *string `json:"value,omitempty"` // never for passwords; capped at 200 chars
	Disabled bool    `json:"disabled,omitempty"`
	Readonly bool    `json:"readonly,omitempty"`
	Checked  *bool   `json:"checked,omitempty"`
	Mixed    bool    `json:"mixed,omitempty"`
	Selected *bool   `json:"selected,omitempty"`
	Expanded *bool   `json:"expanded,omitempty"`
	Required bool    `json:"required,omitempty"`
	Invalid  bool    `json:"invalid,omitempty"` // aria-invalid, or :user-invalid
	Error    string  `json:"error,omitempty"`   // what an invalid element says is wrong; capped at 100 chars
	Href     string  `json:"href,omitempty"`    // origin-relative when same-origin
	Accept   string  `json:"accept,omitempty"`
	Multiple bool    `json:"multiple,omitempty"`
	// Kind is "clickable" for a click target without a role (lib.js targetOf); Drag
	// says what it is to drag and drop: "draggable", "drop target" or both; Level is a
	// heading's.
	Kind    string      `json:"kind,omitempty"`
	Drag    string      `json:"drag,omitempty"`
	Level   int         `json:"level,omitempty,string"`
	Sel     Sel         `json:"sel"`
	FP      Fingerprint `json:"fp"`
	Visible *bool       `json:"visible,omitempty"` // Describe only
}

// UnmarshalJSON decodes an element as the scripts send it: the fingerprint is not
// repeated on the wire but rebuilt from Tag, Role, Type, Name and "fh" (the fingerprint
// href of links), exactly the fields the scripts compare on re-resolution.
func (e *Element) UnmarshalJSON(b []byte) error {
	type plain Element
	var w struct {
		plain
		FH string `json:"fh"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Element(w.plain)
	if e.FP == (Fingerprint{}) {
		e.FP = Fingerprint{Tag: e.Tag, Role: e.Role, Type: e.Type, Name: e.Name, Href: w.FH}
	}
	return nil
}

// SnapshotArgs are Snapshot's arguments. Zero MaxElements means none.
type SnapshotArgs struct {
	MaxElements    int  `json:"maxElements"`
	MaxTextChars   int  `json:"maxTextChars"`
	IncludeAllText bool `json:"includeAllText"`
	// Pin (32 hex digits), when set, makes the walk hand its elements to [BindRefs].
	Pin string `json:"pin,omitempty"`
	// Frames lists visible iframe and frame elements too (tag "iframe"/"frame"), where
	// the server puts the frames' own snapshots.
	Frames bool `json:"frames,omitempty"`
	// Offset skips that many elements (after the filter); Query keeps the elements
	// whose role, tag, name, value or link target contains it, ignoring case.
	Offset int    `json:"offset,omitempty"`
	Query  string `json:"query,omitempty"`
	// Have names the result (SnapshotResult.Seq) the caller holds from this document's
	// resident; the resident answers SnapshotResult.Same instead of walking when that
	// result is still what a walk would return (js/snapshotKeep.js). 0: always walk.
	Have int `json:"have,omitempty"`
	// Warm, for a resident, starts its warm walk of a document no call has walked yet,
	// or tells how far it got: the answer is a [SnapshotWarmResult], nothing is walked
	// now. Soon after the document's load, a few milliseconds at a time, in idle
	// periods or tasks of their own (js/snapshotKeep.js warm), the resident makes the
	// entries of the first MaxElements elements, then, in an idle period, walks with
	// these arguments (but Warm, WarmChunk and Wait) and keeps the result: the first
	// call with them gets it when nothing since could have changed it, else walks
	// reusing the entries. [Script.PageResidentStarting] starts it as the resident is
	// made. WarmChunk caps the entries made in one step, and makes every step wait for
	// an idle period (tests; 0: a few milliseconds' worth, soon).
	// Wait makes the answer wait until the warm walk ended, and carry the result it
	// readied.
	Warm      bool `json:"warm,omitempty"`
	WarmChunk int  `json:"warmChunk,omitempty"`
	Wait      bool `json:"wait,omitempty"`
}

// SnapshotWarmResult is Snapshot's value for [SnapshotArgs].Warm: the warm walk's
// state, "waiting" (for the load or a step), "running" (making entries),
// "walking" (waiting for an idle period to walk, or walking), "done", "skipped" (a call
// walked the document first) or "unavailable" (no resident); the entries it has made;
// whether it holds the result it readied for the first call (Ready), walked with
// Frames or not; with [SnapshotArgs].Wait, that result (the page's word, like any walk's).
type SnapshotWarmResult struct {
	Warm    string          `json:"warm"`
	Entries int             `json:"entries"`
	Ready   bool            `json:"ready"`
	Frames  bool            `json:"frames"`
	Result  *SnapshotResult `json:"result,omitempty"`
}

// SnapshotResult is Snapshot's value. Text and TextTotal (the length, in UTF-16 units,
// of the whole collapsed visible text) are set only when IncludeAllText was; Text is then
// capped at MaxTextChars (the last kept character being "…" when cut).
type SnapshotResult struct {
	Title             string    `json:"title"`
	URL               string    `json:"url"`
	Elements          []Element `json:"elements"`
	Total             int       `json:"total"` // elements (matching the query, when one was given)
	All               int       `json:"all"`   // elements before the query's filter
	TruncatedElements int       `json:"truncatedElements"`
	// Inert lists the indexes in Elements of the elements users cannot reach
	// (listed all the same): outside the modal dialog the document shows, or in
	// an inert region. Page-provided: see InertRows.
	Inert []int `json:"inert,omitempty"`
	// NearAt and Near, parallel, give the elements that share their role and name
	// with another of Elements a few words of the page's text around them (index
	// in Elements, text). Page-provided: see NearRows.
	NearAt    []int    `json:"nearAt,omitempty"`
	Near      []string `json:"near,omitempty"`
	Text      *string  `json:"text,omitempty"`
	TextTotal int      `json:"textTotal"`
	// Seq numbers a resident's result (0: not from a resident); Same, when not 0, says
	// that the result numbered Same is still current, and nothing else is set.
	Seq  int `json:"seq,omitempty"`
	Same int `json:"same,omitempty"`
	// Base, when not 0, says that the result is a patch of the result numbered Base (the
	// one args.have named):
	// Runs holds triples (start, count, fresh): count elements of Base from index
	// start, then the next fresh elements of Elements (see ApplyPatch).
	Base int   `json:"base,omitempty"`
	Runs []int `json:"runs,omitempty"`
}

// NearRows gives each element of Elements its near text (Near), "" for
// none; nil when none has one. Entries the page got wrong (unequal lengths,
// indexes out of range, empty texts) are ignored.
func (r *SnapshotResult) NearRows() []string {
	var out []string
	for k, i := range r.NearAt {
		if k >= len(r.Near) || i < 0 || i >= len(r.Elements) || r.Near[k] == "" {
			continue
		}
		if out == nil {
			out = make([]string, len(r.Elements))
		}
		out[i] = r.Near[k]
	}
	return out
}

// InertRows tells for each element of Elements whether it is inert (Inert),
// indexes out of range ignored; nil when none is.
func (r *SnapshotResult) InertRows() []bool {
	var out []bool
	for _, i := range r.Inert {
		if i >= 0 && i < len(r.Elements) {
			if out == nil {
				out = make([]bool, len(r.Elements))
			}
			out[i] = true
		}
	}
	return out
}

// ErrPatch is returned by ApplyPatch for a patch that does not fit its base.
var ErrPatch = errors.New("snapshot: the patch does not fit the result it names")

// ApplyPatch makes a patch result (Base != 0) whole from base, the result numbered
// Base: Elements becomes base's runs and the patch's fresh elements, in order. The
// elements are copied shallowly.
func (r *SnapshotResult) ApplyPatch(base *SnapshotResult) error {
	if r.Base == 0 {
		return nil
	}
	if base.Seq != r.Base || len(r.Runs)%3 != 0 {
		return ErrPatch
	}
	n, fresh := 0, 0
	for i := 0; i < len(r.Runs); i += 3 {
		start, count, k := r.Runs[i], r.Runs[i+1], r.Runs[i+2]
		if start > len(base.Elements) || count > len(base.Elements)-start || k > len(r.Elements)-fresh {
			return ErrPatch
		}
		n += count + k
		fresh += k
	}
	if fresh != len(r.Elements) || n > r.Total {
		return ErrPatch
	}
	els := make([]Element, 0, n)
	fresh = 0
	for i := 0; i < len(r.Runs); i += 3 {
		start, count, k := r.Runs[i], r.Runs[i+1], r.Runs[i+2]
		els = append(els, base.Elements[start:start+count]...)
		els = append(els, r.Elements[fresh:fresh+k]...)
		fresh += k
	}
	r.Elements, r.Base, r.Runs = els, 0, nil
	return nil
}

// UnmarshalJSON decodes Snapshot's compact rows (see js/snapshot.js) into Elements,
// with a hand-written reader (snapjson.go).
func (r *SnapshotResult) UnmarshalJSON(b []byte) error {
	out, z, err := decodeSnapshot(b, true)
	if err != nil {
		return err
	}
	if z != nil {
		inner, err := inflate(*z)
		if err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
		if out, _, err = decodeSnapshot(inner, false); err != nil {
			return err
		}
	}
	*r = out
	return nil
}

// MaxInflated caps a compressed snapshot's inflated size: the page chose the
// bytes, so a deflate bomb must not exhaust the server's memory.
const MaxInflated = 64 << 20

func inflate(b64 string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("compressed result is not base64: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), MaxInflated+1))
	if err != nil {
		return nil, fmt.Errorf("compressed result does not inflate: %w", err)
	}
	if len(out) > MaxInflated {
		return nil, fmt.Errorf("compressed result inflates beyond %d bytes", MaxInflated)
	}
	return out, nil
}

// joinPrefix returns the first k UTF-16 units of prev followed by rest.
func joinPrefix(prev string, k int, rest string) (string, bool) {
	if isASCII(prev) { // the common case: one byte per unit
		if k > len(prev) {
			return "", false
		}
		return prev[:k] + rest, true
	}
	u := utf16.Encode([]rune(prev))
	if k > len(u) {
		return "", false
	}
	return string(utf16.Decode(u[:k])) + rest, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// setExtra sets the optional fields of a compact snapshot row.
func (e *Element) setExtra(m map[string]any) error {
	for k, v := range m {
		if err := e.setField(k, v); err != nil {
			return err
		}
	}
	return nil
}

// setField sets one of the fields a snapshot row carries in its extra column.
func (e *Element) setField(k string, v any) error {
	s, isStr := v.(string)
	b, isBool := v.(bool)
	switch {
	case k == "value" && isStr:
		e.Value = &s
	case k == "href" && isStr:
		e.Href = s
	case k == "accept" && isStr:
		e.Accept = s
	case k == "disabled" && isBool:
		e.Disabled = b
	case k == "readonly" && isBool:
		e.Readonly = b
	case k == "mixed" && isBool:
		e.Mixed = b
	case k == "required" && isBool:
		e.Required = b
	case k == "multiple" && isBool:
		e.Multiple = b
	case k == "invalid" && isBool:
		e.Invalid = b
	case k == "error" && isStr:
		e.Error = s
	case k == "checked" && isBool:
		e.Checked = &b
	case k == "selected" && isBool:
		e.Selected = &b
	case k == "expanded" && isBool:
		e.Expanded = &b
	case k == "kind" && isStr && s == "clickable":
		e.Kind = s
	case k == "drag" && isStr && (s == "draggable" || s == "drop target" || s == "draggable drop target"):
		e.Drag = s
	case k == "level" && isStr && len(s) == 1 && s[0] >= '1' && s[0] <= '9':
		e.Level = int(s[0] - '0')
	default:
		return fmt.Errorf("unexpected field %q", k)
	}
	return nil
}

// DescribeArgs are Describe's arguments.
type DescribeArgs struct {
	Sel Sel `json:"sel"`
}

// ClickArgs are Click's arguments.
type ClickArgs struct {
	Sel Sel         `json:"sel"`
	FP  Fingerprint `json:"fp"`
	Ref int         `json:"ref,omitempty"` // see [BindRefs]: isolated realm only
	// At is the point to use while it still reaches the element: in a frame,
	// one its parent documents leave uncovered (Op.ReachFrame).
	At *Point `json:"at,omitempty"`
	// Watch: a settle follows (a click's wait_after_ms above 0, every hover): the
	// page's timers are watched for it ([SettleArgs].Unchanged). Without it no watch
	// is left running for nobody.
	Watch bool `json:"watch,omitempty"`
}

// FillArgs are Fill's arguments.
type FillArgs struct {
	Sel    Sel         `json:"sel"`
	FP     Fingerprint `json:"fp"`
	Value  string      `json:"value"`
	Submit bool        `json:"submit"`
	Ref    int         `json:"ref,omitempty"`
	// Unwatched: no settle follows (wait_after_ms 0, or nothing observed): the page's
	// timers are not watched for one (libAct.js watchTimers).
	Unwatched bool `json:"unwatched,omitempty"`
}

// FillFormArgs are FillForm's arguments: the fields in order; Submit submits the
// form of the last one; Unwatched as in FillArgs.
type FillFormArgs struct {
	Fields    []FormField `json:"fields"`
	Submit    bool        `json:"submit"`
	Unwatched bool        `json:"unwatched,omitempty"`
}

// FormField is one field of FillForm: its element as FillArgs gives it, Name (its
// ref, for messages) and Value, a JSON string, or true or false for a checkbox or
// radio.
type FormField struct {
	Sel   Sel             `json:"sel"`
	FP    Fingerprint     `json:"fp"`
	Ref   int             `json:"ref,omitempty"`
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// FillFormResult is FillForm's value: whether all input was trusted, the address,
// whether a form was submitted, and what each field shows now, in order.
type FillFormResult struct {
	Trusted bool `json:"trusted"`
	Address
	Submitted bool          `json:"submitted,omitempty"`
	Fields    []FilledField `json:"fields"`
}

// FilledField is what a field shows after FillForm: its value (never a password's),
// a checkbox's or radio's checkedness, and for a select the label shown and whether
// it is the option picked.
type FilledField struct {
	Value   *string `json:"value,omitempty"`
	Checked *bool   `json:"checked,omitempty"`
	Shown   *string `json:"shown,omitempty"`
	Kept    *bool   `json:"kept,omitempty"`
}

// TypeTextArgs are TypeText's arguments: one chunk of the text; FirstChunk moves the
// caret to the end before typing.
type TypeTextArgs struct {
	Sel        Sel         `json:"sel"`
	FP         Fingerprint `json:"fp"`
	Text       string      `json:"text"`
	FirstChunk bool        `json:"firstChunk"`
	Ref        int         `json:"ref,omitempty"`
	// Unwatched: as in FillArgs.
	Unwatched bool `json:"unwatched,omitempty"`
}

// PressKeyArgs are PressKey's arguments; without Sel the key goes to the focused
// element. Key is one of PressKeys or one printable character; Mods is a subset of
// "Control", "Alt", "Shift", "Meta", pressed in that order around the key.
type PressKeyArgs struct {
	Sel  Sel          `json:"sel,omitempty"`
	FP   *Fingerprint `json:"fp,omitempty"`
	Key  string       `json:"key"`
	Mods []string     `json:"mods,omitempty"`
	Ref  int          `json:"ref,omitempty"`
}

// GestureArgs are Gesture's arguments: the element (Sel and FP; none for the
// focused element) and the gesture: Mode "click", "key" (Key Enter or Space) or
// "submit" (fill's submit).
type GestureArgs struct {
	Sel  Sel          `json:"sel,omitempty"`
	FP   *Fingerprint `json:"fp,omitempty"`
	Ref  int          `json:"ref,omitempty"`
	Mode string       `json:"mode"`
	Key  string       `json:"key,omitempty"`
}

// GestureResult is what Gesture read; all of it is page text except Submits.
type GestureResult struct {
	Text    string   `json:"text"`             // the activated control's words (for a submission: its form's submit button)
	Submits bool     `json:"submits"`          // the gesture submits the form described below
	Action  string   `json:"action,omitempty"` // the form's target URL
	Method  string   `json:"method,omitempty"` // get, post or dialog
	Fields  []string `json:"fields,omitempty"` // "type=… autocomplete=… name=… id=… files=N" per field
	Files   []string `json:"files,omitempty"`  // names of the files its file inputs hold
	Frames  []string `json:"frames,omitempty"` // "title=… name=… allow=… src=origin" per frame of another origin
	Near    string   `json:"near,omitempty"`   // the form's text
	// Kind is what Text is the words of: "button" (a button-like control, or
	// the form's submit button for a submission), "link", or "target" (a
	// click target without a control's role: a card, a tile).
	Kind string `json:"kind,omitempty"`
}

// PressKeys are the named keys of PressKey (seed §10.8, plus Space, Insert, PageUp,
// PageDown and F1–F12).
var PressKeys = []string{"Enter", "Tab", "Escape", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
	"Backspace", "Delete", "Insert", "Home", "End", "PageUp", "PageDown",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12"}

// Address is where an action's page was: URL when the action's evaluation
// ended, URLBefore when it began ("": not told).
type Address struct {
	URL       string `json:"url"`
	URLBefore string `json:"urlBefore,omitempty"`
}

// Before is the address before the action (URLBefore, else URL): an action
// after which the address differs changed the application's page, even when
// the page changed it while the action ran (history.pushState in a click
// handler).
func (a Address) Before() string {
	if a.URLBefore != "" {
		return a.URLBefore
	}
	return a.URL
}

// ActionResult is the value of Click, Fill, TypeText, PressKey and Hover. Trusted tells whether
// the input went through Firefox's trusted path (isolated realm). Value (Fill, TypeText)
// is the control's resulting value, capped, never for passwords; Focused (PressKey)
// describes the focused element afterwards; Submitted (Fill) tells whether a form was
// submitted; Typed (TypeText) counts the characters sent; FilePickerBlocked (Click) tells
// that the click reached a file input (a label, or a page handler calling input.click())
// and was default-prevented so that no OS file picker opened: use upload_files.
type ActionResult struct {
	Trusted bool `json:"trusted"`
	Address
	Value     *string `json:"value,omitempty"`
	Focused   string  `json:"focused,omitempty"`
	Submitted bool    `json:"submitted,omitempty"`
	Typed     int     `json:"typed,omitempty"`

	FilePickerBlocked bool `json:"filePickerBlocked,omitempty"`

	// Fill on a select: the label of the option it now shows, and whether that is
	// the option that was picked.
	Shown *string `json:"shown,omitempty"`
	Kept  *bool   `json:"kept,omitempty"`

	// Hover: whether CSS :hover applies to the element afterwards.
	Hovered bool `json:"hovered,omitempty"`

	// Click, hover, and press_key on no text field (isolated realm): whether the page
	// changed while the action was dispatched (a mutation of the document or an open
	// shadow root, the target's checkedness); nil when not told. False makes the settle after it hold for the timers the action
	// made the page set ([SettleArgs].Unchanged).
	Changed *bool `json:"changed,omitempty"`
}

// SelectOptionArgs are SelectOption's arguments: option values or labels.
type SelectOptionArgs struct {
	Sel     Sel         `json:"sel"`
	FP      Fingerprint `json:"fp"`
	Options []string    `json:"options"`
	Ref     int         `json:"ref,omitempty"` // see [BindRefs]
}

// SelectOptionItem is one option of a select, capped.
type SelectOptionItem struct {
	Value    string `json:"value"`
	Label    string `json:"label"`
	Disabled bool   `json:"disabled,omitempty"`
}

// SelectOptionResult is SelectOption's value. When Missing is not empty nothing was
// changed, and Available lists (at most 30 of Total) the options; otherwise Selected
// lists (at most 30 of SelectedTotal) the selected options after the change events,
// and Kept tells whether they are exactly the ones asked for.
type SelectOptionResult struct {
	Trusted bool `json:"trusted"`
	Address
	Missing       []string           `json:"missing,omitempty"`
	Available     []SelectOptionItem `json:"available,omitempty"`
	Total         int                `json:"total,omitempty"`
	Selected      []SelectOptionItem `json:"selected,omitempty"`
	SelectedTotal int                `json:"selectedTotal,omitempty"`
	Kept          bool               `json:"kept,omitempty"`
	Multiple      bool               `json:"multiple"`
}

// WaitForArgs are WaitFor's arguments; State is "present" (default) or "absent".
type WaitForArgs struct {
	Text        string `json:"text,omitempty"`
	Selector    string `json:"selector,omitempty"`
	URLContains string `json:"urlContains,omitempty"`
	// URL is a glob of the whole URL: "**" any run of characters, "*" any run without
	// "/", every other character itself.
	URL   string `json:"url,omitempty"`
	State string `json:"state,omitempty"`
	// WaitMS, when > 0, keeps an unmet condition checked as the page changes (woken by
	// its mutations: once it is calm for 4 ms, at most GapMS, default 25, after the first
	// mutation since the last check) until it holds or WaitMS passed.
	WaitMS int `json:"waitMs,omitempty"`
	GapMS  int `json:"gapMs,omitempty"`
}

// WaitForResult is WaitFor's value.
type WaitForResult struct {
	Met bool `json:"met"`
	// Matched: the selectors (as in Element.Sel) of the first elements a met selector
	// condition matched (state present).
	Matched []Sel `json:"matched,omitempty"`
	// Checks counts the checks made (1 without WaitMS).
	Checks int `json:"checks,omitempty"`
}

// SettleArgs are Settle's arguments: quiet for QuietMS in a row, waiting CapMS at most.
type SettleArgs struct {
	QuietMS int `json:"quietMs"`
	CapMS   int `json:"capMs"`
	// LongMS, when more than QuietMS, makes quiet after QuietMS also need an animation
	// frame that began after the last change (and the 0 ms timers the page set in it)
	// and at most one burst of mutations during the wait; otherwise (a page changing
	// again and again, a document that shows no frame) quiet takes LongMS. 0: QuietMS
	// alone.
	LongMS int `json:"longMs,omitempty"`
	// Change: wait for the first sign of change (a mutation, a request ending) instead
	// of quiet; Quiet then says one was seen. With QuietMS > 1 it then waits for QuietMS
	// without a mutation, at most GapMS after the first change.
	Change bool `json:"change,omitempty"`
	GapMS  int  `json:"gapMs,omitempty"`
	// Began: when the action began, in ms since the Unix epoch; requests in flight
	// since before then are not counted (isolated realm only). 0: every request counts.
	Began int64 `json:"began,omitempty"`
	// Entry: the action was a text entry (fill, type_text, press_key in a text field): the wait also
	// holds for the timers it set (isolated realm only; settle.js).
	Entry bool `json:"entry,omitempty"`
	// Unchanged: the action was a click, a hover or a key pressed on no text field
	// (press_key) that changed nothing while it was
	// dispatched ([ActionResult].Changed false): the wait also holds for the timers it
	// set while the page still shows no change, until one of them ran (isolated realm
	// only; settle.js).
	Unchanged bool `json:"unchanged,omitempty"`
}

// SettleResult is Settle's value. Quiet is false when the cap ended the wait; Pending
// counts the document's requests still in flight then; Requests says whether requests
// in flight could be seen at all (the isolated realm's load group). URL is the
// document's address when the wait ended (what PageInfo would read then).
type SettleResult struct {
	Quiet bool `json:"quiet"`
	// StartedMS is when the wait began, in the document's own clock
	// (performance.now()).
	StartedMS float64 `json:"startedMs"`
	WaitedMS  int     `json:"waitedMs"`
	Mutations int     `json:"mutations"`
	Pending   int     `json:"pending"`
	Requests  bool    `json:"requests"`
	Frames    int     `json:"frames"` // animation frames seen during the wait
	// FrameChanges counts the changes found made in an animation frame (a step of a
	// script-driven animation, maybe): each made quiet wait for a frame without one.
	FrameChanges int `json:"frameChanges"`
	// AnimatingMS is how much longer a running transition or animation of the
	// page's that can show or hide something goes on past the cap (0: none).
	AnimatingMS int `json:"animatingMs"`
	// HeldMS is how long the page, quiet otherwise, was waited for because a timer it
	// set since the text entry before had not run (a debounced handler; settle.js).
	HeldMS int `json:"heldMs"`
	// TimerLeft says that such a timer had still not run at the cap (Quiet is
	// then true: the page was quiet but for it).
	TimerLeft bool `json:"timerLeft"`
	// TimerUnchanged: TimerLeft after a click or hover that changed nothing
	// ([SettleArgs].Unchanged): the page set a timer during it and still showed no
	// change at the cap (whether its callback ran cannot be told).
	TimerUnchanged bool   `json:"timerUnchanged"`
	URL            string `json:"url,omitempty"`
	// Ignored counts the requests in flight during the wait that it did not wait
	// for, by the row of settle.js's REQUESTS table that left each out
	// ("websocket", "event-stream", "beacon", "favicon", "before", "long-poll",
	// "streaming", "long-lived"; docs/settle.md). Isolated realm only.
	Ignored map[string]int `json:"ignored,omitempty"`
	// LiveMutations counts the mutations during the wait of nodes the page had
	// changed on its own before the action (a ticking clock), which did not
	// count as the page changing.
	LiveMutations int `json:"liveMutations,omitempty"`
}

// LoadStateArgs are LoadState's arguments: Until ("interactive" or "complete"),
// when set, is waited for (at most WaitMS, capped at 5,000) before reading.
type LoadStateArgs struct {
	Until  string `json:"until,omitempty"`
	WaitMS int    `json:"waitMs,omitempty"`
}

// LoadStateResult is LoadState's value. DocumentURI differs from URL on Firefox's
// error pages (about:neterror?e=connectionFailure&u=…); Status is the HTTP status of
// the document's response, 0 when none was recorded.
type LoadStateResult struct {
	URL         string `json:"url"`
	DocumentURI string `json:"documentURI"`
	Title       string `json:"title"`
	ReadyState  string `json:"readyState"`
	Status      int    `json:"status"`
}

// TabNavigateArgs are TabNavigate's arguments (http and https only).
type TabNavigateArgs struct {
	BrowserID int64  `json:"browserId"`
	URL       string `json:"url"`
}

// BrowserInstanceResult is BrowserInstance's value: the parent process id and its
// start time (ms since the epoch). Both stay the same for one run of Firefox.
type BrowserInstanceResult struct {
	PID     int64   `json:"pid"`
	Started float64 `json:"started"`
}

// BrowserStartupResult is BrowserStartup's value: a browser window exists,
// and it has finished starting (its delayed start-up ran).
type BrowserStartupResult struct {
	Window bool `json:"window"`
	Ready  bool `json:"ready"`
}

// FocusedFrameResult is FocusedFrame's value: the browsing context of the
// focused frame element, 0 when the focus is in the document itself.
type FocusedFrameResult struct {
	Frame int64 `json:"frame"`
}

// FrameReachArgs are FrameReach's arguments: the frame's browsing context and,
// for a pointer action, the points of the frame's viewport it could use.
type FrameReachArgs struct {
	Frame int64       `json:"frame"`
	At    *ViewPoints `json:"at,omitempty"`
}

// FrameReachResult is FrameReach's value: whether the document has the frame's
// element, whether that element is inert, and (with At) whether another element
// of the document covers the frame at every one of the points; At holds those
// it leaves uncovered, in this document's viewport, and Keep their indexes in
// the arguments' At (At nil: it could not be told).
type FrameReachResult struct {
	Found   bool        `json:"found"`
	Inert   bool        `json:"inert"`
	Covered bool        `json:"covered"`
	At      *ViewPoints `json:"at,omitempty"`
	Keep    []int       `json:"keep,omitempty"`
}

// ViewPoints are points of a document's viewport (CSS pixels) and that
// viewport's size.
type ViewPoints struct {
	Points []Point `json:"points"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
}

// Point is a point of a viewport, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// FramePointArgs are FramePoint's arguments: the element, as ClickArgs name
// it, and whether to scroll it to the middle of the view (else the nearest).
type FramePointArgs struct {
	Sel    Sel         `json:"sel"`
	FP     Fingerprint `json:"fp"`
	Ref    int         `json:"ref,omitempty"`
	Center bool        `json:"center,omitempty"`
}

// FramePointResult is FramePoint's value: the points of its document's
// viewport a pointer action on the element could use (Ok false: none).
type FramePointResult struct {
	Ok bool        `json:"ok"`
	At *ViewPoints `json:"at,omitempty"`
}

// PageInfoResult is PageInfo's value.
type PageInfoResult struct {
	URL        string `json:"url"`
	Title      string `json:"title"`
	ReadyState string `json:"readyState"`
}

// UploadFile describes one file of an upload. LastModified is in milliseconds since
// the epoch.
type UploadFile struct {
	Name         string `json:"name"`
	Type         string `json:"type"`
	Size         int64  `json:"size"`
	LastModified int64  `json:"lastModified"`
}

// UploadBeginArgs are UploadBegin's arguments. Key is 32–128 lowercase hex digits of
// randomness chosen by the server.
type UploadBeginArgs struct {
	Key   string       `json:"key"`
	Sel   Sel          `json:"sel"`
	FP    Fingerprint  `json:"fp"`
	Files []UploadFile `json:"files"`
	// Sink makes the staging listen for chunks forwarded by the parent process's
	// upload sink ([UploadSink]) instead of receiving them as UploadChunk
	// evaluations. Isolated realm only.
	Sink bool `json:"sink,omitempty"`
	Ref  int  `json:"ref,omitempty"`
}

// UploadBeginResult is UploadBegin's value; Warnings list accept mismatches.
type UploadBeginResult struct {
	Key      string   `json:"key"`
	Window   int64    `json:"window"` // the staging's inner window (isolated realm; 0 in the page realm)
	Warnings []string `json:"warnings"`
	// Via tells how the file input was found: "input" (the target), "label" (its
	// control) or "click" (the input a click on the target opened the chooser for),
	// or "drop": there is none, and the target takes a drop of files instead.
	Via string `json:"via"`
}

// UploadChunkArgs are UploadChunk's arguments (short names: the expression is mostly
// Data, base64 of the raw chunk).
type UploadChunkArgs struct {
	Key   string `json:"k"`
	File  int    `json:"f"`
	Index int    `json:"i"`
	Data  string `json:"d"`
}

// UploadChunkResult confirms a chunk: Received is the file's cumulative byte count.
type UploadChunkResult struct {
	File     int   `json:"file"`
	Index    int   `json:"index"`
	Received int64 `json:"received"`
}

// UploadFinishArgs are UploadFinish's arguments.
type UploadFinishArgs struct {
	Key string      `json:"key"`
	Sel Sel         `json:"sel"`
	FP  Fingerprint `json:"fp"`
	Ref int         `json:"ref,omitempty"`
}

// FileInfo is what the page's input holds after an upload.
type FileInfo struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Type string `json:"type"`
}

// UploadFinishResult is UploadFinish's value. Trusted tells that the privileged
// assignment (mozSetFileArray) and trusted events were used.
type UploadFinishResult struct {
	Files      []FileInfo `json:"files"`
	Warnings   []string   `json:"warnings"`
	Dispatched bool       `json:"dispatched"`
	Trusted    bool       `json:"trusted"`
}

// UploadSinkArgs are UploadSink's arguments: Console is an actor of the client's own
// connection (its parent-process console), which identifies the connection.
type UploadSinkArgs struct {
	Console string `json:"console"`
}

// UploadSinkResult names the sink actor. Its requests (replies are errors with
// the code upload_transfer_failed or target_replaced, or):
//
//	{type:"begin", key, innerWindowID, browserId, files:[UploadFile…]} → {files}
//	{type:"chunk", key, file, index, data: base64}                   → {file, index, received}
//	{type:"deliver", key}                                             → {files}
//	{type:"end", key}                                                 → {removed}
//
// The chunks of a file come in order. deliver builds the Files and sends them in
// one message to the content process hosting innerWindowID (while it is the tab's
// current document), where UploadBegin (with Sink) waits for them; it forgets the
// upload, as end does.
type UploadSinkResult struct {
	Actor string `json:"actor"`
}

// The upload sink's requests (UploadSinkResult lists them). Type is "begin",
// "chunk", or "deliver"/"end" for SinkKey; a chunk's bytes travel as the packet's
// base64 "data" field (rdp.Client.RequestData).
type (
	SinkBegin struct {
		Type          string       `json:"type"`
		Key           string       `json:"key"`
		InnerWindowID int64        `json:"innerWindowID"`
		BrowserID     int64        `json:"browserId"`
		Files         []UploadFile `json:"files"`
	}
	SinkChunk struct {
		Type  string `json:"type"`
		Key   string `json:"key"`
		File  int    `json:"file"`
		Index int    `json:"index"`
	}
	SinkKey struct {
		Type string `json:"type"`
		Key  string `json:"key"`
	}
)

// UploadAbortArgs are UploadAbort's arguments.
type UploadAbortArgs struct {
	Key string `json:"key"`
}

// UploadAbortResult tells whether a staging was deleted.
type UploadAbortResult struct {
	Removed bool `json:"removed"`
}

// ProbeResult is Probe's value.
type ProbeResult struct {
	TrustedClick    bool `json:"trustedClick"`
	TIP             bool `json:"tip"`
	MozSetFileArray bool `json:"mozSetFileArray"`
}

// FocusWindowArgs are FocusWindow's arguments: the tab, and an actor of the
// calling client's own DevTools connection (its parent-process console), which
// owns the change.
type FocusWindowArgs struct {
	BrowserID int64  `json:"browserId"`
	Console   string `json:"console"`
}

// FocusWindowResult is FocusWindow's value. Mode: "already" (the window was
// active), "emulated" (made active under the focus manager's test mode, owned by
// this connection), "user" (test mode was already on, not by this server),
// "background" (the tab is not its window's selected tab: left alone),
// "unavailable" (test mode is off by the user's choice or cannot be claimed).
type FocusWindowResult struct {
	Active bool   `json:"active"`
	Mode   string `json:"mode"`
}

// DialogStateArgs are DialogState's arguments.
type DialogStateArgs struct {
	BrowserID int64 `json:"browserId"`
}

// DialogStateResult is DialogState's value. Type is the prompt type ("alert",
// "confirm", "prompt", "beforeunload" for a page's leave-page prompt, whose accept
// button leaves and dismiss button stays; "confirmEx" for other multi-button prompts;
// alertCheck/confirmCheck are reported as alert/confirm);
// Ready is false while the dialog is still loading; Value is a prompt's current text.
type DialogStateResult struct {
	Open  bool   `json:"open"`
	Type  string `json:"type,omitempty"`
	Text  string `json:"text,omitempty"`
	Value string `json:"value,omitempty"`
	Ready bool   `json:"ready,omitempty"`
}

// DialogAnswerArgs are DialogAnswer's arguments: Action "accept" or "dismiss".
type DialogAnswerArgs struct {
	BrowserID int64   `json:"browserId"`
	Action    string  `json:"action"`
	Text      *string `json:"text,omitempty"`
}

// DialogAnswerResult is DialogAnswer's value.
type DialogAnswerResult struct {
	Answered bool   `json:"answered"`
	Type     string `json:"type,omitempty"`
}

// TabOpenArgs are TabOpen's arguments (http and https only).
type TabOpenArgs struct {
	URL        string `json:"url"`
	Background bool   `json:"background,omitempty"`
}

// TabArgs are TabSelect's, TabClose's, TabDocument's and TabOpeners' arguments.
type TabArgs struct {
	BrowserID int64 `json:"browserId"`
}

// TabResult is the value of TabOpen, TabSelect, TabClose and TabNavigate. Kept (TabClose): the page
// asked to confirm leaving, so the tab was not closed.
type TabResult struct {
	BrowserID int64 `json:"browserId"`
	Kept      bool  `json:"kept,omitempty"`
}

// TabDocumentResult is TabDocument's value: whether the tab was found, a load is under
// way in it, and its document is its browsing context's initial about:blank (one the
// debugger's watcher never reports: a tab left so has no document a call can reach).
type TabDocumentResult struct {
	Found   bool `json:"found"`
	Loading bool `json:"loading"`
	Initial bool `json:"initial"`
}

// TabHistoryArgs are TabHistory's arguments: Action "back", "forward" or "reload".
type TabHistoryArgs struct {
	BrowserID int64  `json:"browserId"`
	Action    string `json:"action"`
}

// TabHistoryResult is TabHistory's value: the entry being loaded (URL, its index of
// Count) and whether it shares the current document (no new document loads).
type TabHistoryResult struct {
	URL          string `json:"url"`
	Index        int    `json:"index"`
	Count        int    `json:"count"`
	SameDocument bool   `json:"sameDocument"`
}

// DownloadsArgs are Downloads' arguments: the downloads started at or after Since (ms
// since the Unix epoch), at most Max (default 50, at most 200), of tab BrowserID only
// (0: every tab but private windows'). WaitMS > 0 (with BrowserID and Window, the tab's
// top inner window before the action) waits, when none came yet, for the tab's
// navigation to turn out a download, a new document or neither (no load left for
// SettleMS, default 100). FinishMS gives the downloads found still under way that long
// to end.
type DownloadsArgs struct {
	BrowserID int64 `json:"browserId,omitempty"`
	Since     int64 `json:"since"`
	Max       int   `json:"max,omitempty"`
	WaitMS    int   `json:"waitMs,omitempty"`
	SettleMS  int   `json:"settleMs,omitempty"`
	FinishMS  int   `json:"finishMs,omitempty"`
	Window    int64 `json:"window,omitempty"`
}

// DownloadsResult is Downloads' value: the downloads, newest first, of Total; Outcome
// is "download" (some), "none", or after a wait "navigated", "stayed" or "loading".
type DownloadsResult struct {
	Downloads []DownloadRow `json:"downloads"`
	Total     int           `json:"total"`
	Outcome   string        `json:"outcome"`
}

// DownloadRow is one download as Firefox's download manager has it. Name (the file
// name Firefox saves it as), Path, Type and Origin come from the page or its server.
// Size is the file's size in bytes, -1 when not known yet; Received counts the bytes
// that came. State is "downloading", "finished", "failed" (Failed: "source", "target",
// "blocked" or "other"), "cancelled", "paused" or "stopped". Tab is the browserId of
// the tab whose document started it (0: not known any more); Started is in ms since
// the Unix epoch.
type DownloadRow struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	Received int64  `json:"received"`
	Type     string `json:"type"`
	State    string `json:"state"`
	Failed   string `json:"failed,omitempty"`
	Origin   string `json:"origin"`
	Tab      int64  `json:"tab"`
	Started  int64  `json:"started"`
}

// TabListArgs are TabList's arguments: the most characters of a title or URL.
type TabListArgs struct {
	Max int `json:"max"`
}

// TabListResult is TabList's value: the tabs as listTabs orders them.
type TabListResult struct {
	Tabs []struct {
		BrowserID int64  `json:"browserId"`
		Title     string `json:"title"`
		URL       string `json:"url"`
		Selected  bool   `json:"selected"`
	} `json:"tabs"`
}

// TabOpenersResult is TabOpeners' value: the browserIds of the tabs the tab opened,
// and the highest browserId of any open tab.
type TabOpenersResult struct {
	Opened []int64 `json:"opened"`
	MaxID  int64   `json:"maxId"`
}

// ScrollArgs are Scroll's arguments. Mode "by" (Direction, Pages), "to" (To: "top" or
// "bottom"), "into" (Sel required) or "measure"; Sel, when given, picks the element whose
// nearest scrollable container is scrolled (else the page).
type ScrollArgs struct {
	Sel       Sel          `json:"sel,omitempty"`
	FP        *Fingerprint `json:"fp,omitempty"`
	Ref       int          `json:"ref,omitempty"` // see [BindRefs]
	Mode      string       `json:"mode"`
	Direction string       `json:"direction,omitempty"`
	Pages     int          `json:"pages,omitempty"`
	To        string       `json:"to,omitempty"`
}

// ScrollPos is a container's scroll position on one axis, in CSS pixels: Pos of Max
// (0 = top or left), the content Size and the visible View.
type ScrollPos struct {
	Pos  int `json:"pos"`
	Max  int `json:"max"`
	Size int `json:"size"`
	View int `json:"view"`
}

// ScrollResult is Scroll's value. How is "wheel" (a trusted wheel event moved it) or
// "script"; Container names the scrolled element ("" = the page; page text). Mode "into":
// Moved, InView and the element's movement DX, DY.
type ScrollResult struct {
	Trusted   bool      `json:"trusted"`
	URL       string    `json:"url"`
	Before    ScrollPos `json:"before"`
	After     ScrollPos `json:"after"`
	How       string    `json:"how,omitempty"`
	Container string    `json:"container,omitempty"`
	Moved     bool      `json:"moved,omitempty"`
	InView    bool      `json:"inView,omitempty"`
	DX        int       `json:"dx,omitempty"`
	DY        int       `json:"dy,omitempty"`
	Hidden    bool      `json:"hidden,omitempty"` // the tab is in the background
}

// DragTo names the drop target of Drag.
type DragTo struct {
	Sel Sel         `json:"sel"`
	FP  Fingerprint `json:"fp"`
	Ref int         `json:"ref,omitempty"` // see [BindRefs]
}

// DragArgs are Drag's arguments: the element and its drop target.
type DragArgs struct {
	Sel Sel         `json:"sel"`
	FP  Fingerprint `json:"fp"`
	To  DragTo      `json:"to"`
	Ref int         `json:"ref,omitempty"` // see [BindRefs]
}

// DragResult is Drag's value: HTML5 tells whether the drag became an HTML5 drag
// (dragstart), Dropped whether a drop was dispatched where the page accepted it,
// Cancelled whether the page cancelled the dragstart (page realm).
type DragResult struct {
	Trusted bool `json:"trusted"`
	Address
	HTML5     bool `json:"html5"`
	Dropped   bool `json:"dropped"`
	Cancelled bool `json:"cancelled,omitempty"`
}

// CaptureRectArgs are CaptureRect's arguments: no Sel for the viewport, or
// an element's Sel and FP.
type CaptureRectArgs struct {
	Sel Sel          `json:"sel,omitempty"`
	FP  *Fingerprint `json:"fp,omitempty"`
}

// CaptureRectResult is CaptureRect's value, in CSS pixels of the top-level
// document: the viewport's size (VW, VH) and scroll offset (SX, SY), and
// the element's border box when Sel was given.
type CaptureRectResult struct {
	VW   float64 `json:"vw"`
	VH   float64 `json:"vh"`
	SX   float64 `json:"sx"`
	SY   float64 `json:"sy"`
	Rect *struct {
		Left   float64 `json:"left"`
		Top    float64 `json:"top"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"rect,omitempty"`
}
