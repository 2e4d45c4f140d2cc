package rdp

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of the per-tab buffers a TabWatch keeps of the watcher's
// console-message, error-message and network-event resources. The oldest
// entries go first when either the count or the byte budget is exceeded.
const (
	MaxConsoleEntries = 1000    // console buffer: entries
	MaxNetworkEntries = 1000    // network buffer: entries
	maxBufferBytes    = 2 << 20 // each buffer: bytes of text held
	maxConsoleText    = 4000    // one console entry's text, bytes
	maxSourceBytes    = 2048    // a source file URL, bytes
	maxURLBytes       = 4096    // a request or navigation URL, bytes
	maxFieldBytes     = 256     // method, MIME type, status text, cause
)

// ConsoleEntry is one line of a tab's console buffer: a console API call,
// an uncaught exception or unhandled rejection, a browser warning about the
// page, or a mark where the tab navigated. Text, Source and URL come from the
// page: untrusted. What privileged code logged (chromeContext) and what
// Firefox logged against the page at one of this client's own evaluations
// (EvalURL) are not the page's and are left out.
type ConsoleEntry struct {
	Seq       uint64  // 1, 2, … per tab watch
	Kind      string  // "console", "exception" or "navigation"
	Level     string  // "error", "warning", "info" or "debug"; "" for navigation
	Method    string  // the console method (log, warn, error, …) or "" for exceptions
	Text      string  // rendered message, cut at maxConsoleText bytes
	Source    string  // file URL of the call or throw
	Line, Col int     // 1-based line, column as Firefox reports them
	Rejection bool    // an unhandled promise rejection
	Time      float64 // milliseconds since the epoch
	URL       string  // navigation: the new document's URL
}

func (e *ConsoleEntry) size() int { return len(e.Text) + len(e.Source) + len(e.URL) + 160 }

// NetworkEntry is one request of a tab, as the watcher reported it so far.
// URL, MimeType and StatusText come from the page or its servers: untrusted.
type NetworkEntry struct {
	Seq          uint64 // 1, 2, … per tab watch
	Method       string
	URL          string // cut at maxURLBytes
	Cause        string // document, script, img, fetch, xhr, stylesheet, …
	Navigation   bool   // a top-level or frame document load
	Status       int    // 0 until the response starts
	StatusText   string
	MimeType     string
	ContentSize  int64   // decoded body bytes (-1 unknown)
	Transferred  int64   // bytes on the wire (-1 unknown)
	TotalTime    float64 // milliseconds, once the timings are known (-1 unknown)
	Started      float64 // milliseconds since the epoch
	Done         bool    // Firefox sent the last update
	Blocked      string  // why Firefox blocked it; "" when not blocked
	FromCache    bool
	Document     uint64 // the tab's document count when the request started
	actor        string // the netEvent actor (details), valid until the page navigates
	resourceID   int64
	navigatedOut bool // the tab navigated since: Firefox destroyed the actor
}

func (e *NetworkEntry) size() int {
	return len(e.URL) + len(e.Method) + len(e.Cause) + len(e.StatusText) + len(e.MimeType) + len(e.actor) + 200
}

// buffer is a bounded FIFO of entries with a byte budget.
type buffer[T any] struct {
	items   []*T
	bytes   int
	max     int
	dropped uint64 // entries evicted so far
}

// push appends e, evicting the oldest entries past the limits; it returns
// the evicted entries.
func (b *buffer[T]) push(e *T, size func(*T) int) []*T {
	b.items = append(b.items, e)
	b.bytes += size(e)
	var gone []*T
	n := 0
	for len(b.items)-n > b.max || (b.bytes > maxBufferBytes && len(b.items)-n > 1) {
		b.bytes -= size(b.items[n])
		gone = append(gone, b.items[n])
		n++
	}
	if n > 0 {
		clear(b.items[:n])
		b.items = b.items[n:]
		b.dropped += uint64(n)
		if cap(b.items) > 2*b.max+16 {
			b.items = append(make([]*T, 0, b.max+1), b.items...)
		}
	}
	return gone
}

// resources is a tab's buffered console and network resources. Guarded by
// tabWatch.mu.
type resources struct {
	console    buffer[ConsoleEntry]
	network    buffer[NetworkEntry]
	byResource map[int64]*NetworkEntry
	bySeq      map[uint64]*NetworkEntry
	consoleSeq uint64
	networkSeq uint64
	documents  uint64 // top-level documents seen
}

func newResources() resources {
	return resources{
		console:    buffer[ConsoleEntry]{max: MaxConsoleEntries},
		network:    buffer[NetworkEntry]{max: MaxNetworkEntries},
		byResource: map[int64]*NetworkEntry{},
		bySeq:      map[uint64]*NetworkEntry{},
	}
}

func (r *resources) addConsole(e *ConsoleEntry) {
	r.consoleSeq++
	e.Seq = r.consoleSeq
	r.console.push(e, (*ConsoleEntry).size)
}

func (r *resources) addNetwork(e *NetworkEntry) {
	r.networkSeq++
	e.Seq = r.networkSeq
	e.Document = r.documents
	r.byResource[e.resourceID] = e
	r.bySeq[e.Seq] = e
	for _, old := range r.network.push(e, (*NetworkEntry).size) {
		if r.byResource[old.resourceID] == old {
			delete(r.byResource, old.resourceID)
		}
		delete(r.bySeq, old.Seq)
	}
}

// navigated marks a new top-level document: a console line, and the
// request actors of earlier documents are gone (Firefox destroys them on
// navigation unless asked to persist them).
func (r *resources) navigated(url string) {
	r.documents++
	r.addConsole(&ConsoleEntry{Kind: "navigation", URL: cut(url, maxURLBytes), Time: float64(time.Now().UnixMilli())})
	for _, e := range r.network.items {
		if e.Document < r.documents && !e.Navigation {
			e.navigatedOut = true
		}
	}
}

// consoleMessage is a console-message resource.
type consoleMessage struct {
	Arguments     []json.RawMessage `json:"arguments"`
	Level         string            `json:"level"`
	Filename      string            `json:"filename"`
	LineNumber    int               `json:"lineNumber"`
	ColumnNumber  int               `json:"columnNumber"`
	TimeStamp     float64           `json:"timeStamp"`
	ChromeContext bool              `json:"chromeContext"`
}

// pageError is an error-message resource.
type pageError struct {
	PageError struct {
		ErrorMessage       json.RawMessage `json:"errorMessage"`
		SourceName         string          `json:"sourceName"`
		LineNumber         int             `json:"lineNumber"`
		ColumnNumber       int             `json:"columnNumber"`
		TimeStamp          float64         `json:"timeStamp"`
		Warning            bool            `json:"warning"`
		Error              bool            `json:"error"`
		Info               bool            `json:"info"`
		IsPromiseRejection bool            `json:"isPromiseRejection"`
		ChromeContext      bool            `json:"chromeContext"`
		Stacktrace         []stackFrame    `json:"stacktrace"`
	} `json:"pageError"`
}

type networkAvailable struct {
	Actor      string `json:"actor"`
	ResourceID int64  `json:"resourceId"`
	Method     string `json:"method"`
	URL        string `json:"url"`
	Cause      struct {
		Type string `json:"type"`
	} `json:"cause"`
	IsNav     bool            `json:"isNavigationRequest"`
	TimeStamp float64         `json:"timeStamp"`
	Blocked   json.RawMessage `json:"blockedReason"`
	Chrome    bool            `json:"chromeContext"`
}

type networkUpdated struct {
	ResourceID int64 `json:"resourceId"`
	Updates    struct {
		Status      *string         `json:"status"`
		StatusText  *string         `json:"statusText"`
		MimeType    *string         `json:"mimeType"`
		ContentSize *int64          `json:"contentSize"`
		Transferred *int64          `json:"transferredSize"`
		TotalTime   *float64        `json:"totalTime"`
		FromCache   *bool           `json:"fromCache"`
		Blocked     json.RawMessage `json:"blockedReason"`
		End         bool            `json:"responseEndAvailable"`
	} `json:"resourceUpdates"`
}

// resource takes one [type, [resources…]] pair of a resources array. It
// runs on the reader goroutine (client state locked) and must not block.
func (w *tabWatch) resource(s *state, from, typ, rtype string, list json.RawMessage) {
	switch {
	case rtype == "console-message" && typ == "resources-available-array":
		var ms []consoleMessage
		if json.Unmarshal(list, &ms) != nil {
			s.note("console-message from %s: bad resources", from)
			return
		}
		w.mu.Lock()
		for i := range ms {
			if !ms[i].ChromeContext && ms[i].Filename != EvalURL {
				w.res.addConsole(ms[i].entry())
			}
		}
		w.mu.Unlock()
	case rtype == "error-message" && typ == "resources-available-array":
		var es []pageError
		if json.Unmarshal(list, &es) != nil {
			s.note("error-message from %s: bad resources", from)
			return
		}
		w.mu.Lock()
		for i := range es {
			if !es[i].PageError.ChromeContext && !es[i].ours() {
				w.res.addConsole(es[i].entry())
			}
		}
		w.mu.Unlock()
	case rtype == "network-event" && typ == "resources-available-array":
		var ns []networkAvailable
		if json.Unmarshal(list, &ns) != nil {
			s.note("network-event from %s: bad resources", from)
			return
		}
		w.mu.Lock()
		for _, n := range ns {
			if !n.Chrome {
				w.res.addNetwork(n.entry())
			}
		}
		w.mu.Unlock()
	case rtype == "network-event" && typ == "resources-updated-array":
		var us []networkUpdated
		if json.Unmarshal(list, &us) != nil {
			s.note("network-event update from %s: bad resources", from)
			return
		}
		w.mu.Lock()
		for i := range us {
			if e := w.res.byResource[us[i].ResourceID]; e != nil {
				us[i].apply(e)
			}
		}
		w.mu.Unlock()
	}
}

func (m *consoleMessage) entry() *ConsoleEntry {
	return &ConsoleEntry{
		Kind: "console", Level: consoleLevel(m.Level), Method: cut(m.Level, maxFieldBytes),
		Text:   cut(formatArgs(m.Arguments), maxConsoleText),
		Source: cut(m.Filename, maxSourceBytes), Line: m.LineNumber, Col: m.ColumnNumber,
		Time: m.TimeStamp,
	}
}

// ours reports whether the error or warning was raised by one of this
// client's evaluations (EvalURL): Firefox's deprecation warning for an API
// our scripts call is reported against the page's document, at our script.
func (p *pageError) ours() bool {
	pe := &p.PageError
	if pe.SourceName != "" {
		return pe.SourceName == EvalURL
	}
	return len(pe.Stacktrace) > 0 && pe.Stacktrace[0].Filename == EvalURL
}

func (p *pageError) entry() *ConsoleEntry {
	pe := &p.PageError
	level := "error"
	switch {
	case pe.Error:
	case pe.Warning:
		level = "warning"
	case pe.Info:
		level = "info"
	}
	e := &ConsoleEntry{
		Kind: "exception", Level: level, Text: cut(renderValue(pe.ErrorMessage, 0), maxConsoleText),
		Source: cut(pe.SourceName, maxSourceBytes), Line: pe.LineNumber, Col: pe.ColumnNumber,
		Rejection: pe.IsPromiseRejection, Time: pe.TimeStamp,
	}
	if e.Source == "" && len(pe.Stacktrace) > 0 {
		f := pe.Stacktrace[0]
		e.Source, e.Line, e.Col = cut(f.Filename, maxSourceBytes), f.LineNumber, f.ColumnNumber
	}
	return e
}

// consoleLevel maps a console method to the four levels the tools filter by.
func consoleLevel(method string) string {
	switch method {
	case "error", "assert", "exception":
		return "error"
	case "warn", "warning":
		return "warning"
	case "debug", "trace":
		return "debug"
	}
	return "info"
}

func (n *networkAvailable) entry() *NetworkEntry {
	return &NetworkEntry{
		Method: cut(n.Method, maxFieldBytes), URL: cut(n.URL, maxURLBytes), Cause: cut(n.Cause.Type, maxFieldBytes),
		Navigation: n.IsNav, Started: n.TimeStamp, Blocked: blockedReason(n.Blocked),
		ContentSize: -1, Transferred: -1, TotalTime: -1,
		actor: n.Actor, resourceID: n.ResourceID,
	}
}

func (u *networkUpdated) apply(e *NetworkEntry) {
	up := &u.Updates
	if up.Status != nil {
		e.Status, _ = strconv.Atoi(*up.Status)
	}
	if up.StatusText != nil {
		e.StatusText = cut(*up.StatusText, maxFieldBytes)
	}
	if up.MimeType != nil {
		e.MimeType = cut(*up.MimeType, maxFieldBytes)
	}
	if up.ContentSize != nil {
		e.ContentSize = *up.ContentSize
	}
	if up.Transferred != nil {
		e.Transferred = *up.Transferred
	}
	if up.TotalTime != nil {
		e.TotalTime = *up.TotalTime
	}
	if up.FromCache != nil {
		e.FromCache = *up.FromCache
	}
	if b := blockedReason(up.Blocked); b != "" {
		e.Blocked = b
	}
	if up.End {
		e.Done = true
	}
}

// blockedReason reads blockedReason: absent, 0, false, null and "" mean not
// blocked; a number or a string names the reason.
func blockedReason(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "", "0", "false", "null", `""`:
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return cut(s, maxFieldBytes)
	}
	return cut(string(raw), maxFieldBytes)
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
// The result is a new string, so a buffered entry never keeps a long
// original alive.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…" // concatenation allocates: s is not retained
}

// formatArgs renders console arguments the way the console shows them:
// printf-style substitutions in a leading format string, then the rest
// separated by spaces.
func formatArgs(args []json.RawMessage) string {
	var b strings.Builder
	rest := args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] == '"' {
		var f string
		if json.Unmarshal(args[0], &f) == nil && strings.Contains(f, "%") {
			rest = substitute(&b, f, args[1:])
		}
	}
	for _, a := range rest {
		if b.Len() >= maxConsoleText {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(renderValue(a, 0))
	}
	return b.String()
}

// substitute expands %s %d %i %f %o %O %c in f with args and returns the
// arguments left over.
func substitute(b *strings.Builder, f string, args []json.RawMessage) []json.RawMessage {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 >= len(f) {
			b.WriteByte(c)
			continue
		}
		v := f[i+1]
		switch v {
		case '%':
			b.WriteByte('%')
		case 's', 'd', 'i', 'f', 'o', 'O', 'c':
			if len(args) == 0 {
				b.WriteByte('%')
				b.WriteByte(v)
				break
			}
			a := args[0]
			args = args[1:]
			switch v {
			case 'c': // CSS for the console's own styling: not text
			case 'd', 'i':
				var n float64
				if json.Unmarshal(a, &n) == nil {
					b.WriteString(strconv.FormatFloat(math.Trunc(n), 'f', -1, 64))
				} else {
					b.WriteString("NaN")
				}
			default:
				b.WriteString(renderValue(a, 0))
			}
		default:
			b.WriteByte('%')
			b.WriteByte(v)
		}
		i++
	}
	return args
}

// valueGrip is the part of a console value grip that renderValue reads.
type valueGrip struct {
	Type    string          `json:"type"`
	Class   string          `json:"class"`
	Initial json.RawMessage `json:"initial"`
	Length  int64           `json:"length"`
	Text    string          `json:"text"`
	Name    json.RawMessage `json:"name"`
	Preview *struct {
		Kind          string                     `json:"kind"`
		OwnProperties map[string]json.RawMessage `json:"ownProperties"`
		Items         []json.RawMessage          `json:"items"`
		Length        int                        `json:"length"`
		Name          string                     `json:"name"`
		Message       json.RawMessage            `json:"message"`
		NodeName      string                     `json:"nodeName"`
		Attributes    map[string]string          `json:"attributes"`
	} `json:"preview"`
}

// renderValue renders one console value (a JSON primitive or a grip);
// objects show a shallow preview.
func renderValue(raw json.RawMessage, depth int) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		json.Unmarshal(raw, &s)
		if depth > 0 {
			return quoted(cut(s, 200))
		}
		return s
	case '{':
	default:
		return string(raw) // number, true, false, null
	}
	var g valueGrip
	if json.Unmarshal(raw, &g) != nil {
		return "?"
	}
	switch g.Type {
	case "undefined", "null", "NaN", "Infinity", "-Infinity", "-0":
		return g.Type
	case "BigInt":
		return g.Text + "n"
	case "symbol":
		return "Symbol(" + renderValue(g.Name, 1) + ")"
	case "longString":
		var s string
		json.Unmarshal(g.Initial, &s)
		return s + "… (" + strconv.FormatInt(g.Length, 10) + " characters)"
	case "object":
		return renderObject(&g, depth)
	}
	return g.Type
}

// quoted puts a string value in double quotes, escaping only '"' and '\\'.
// Control and invisible characters are left as they are: the rendering of
// page text escapes them in one form for every tool (\u{HEX}), which a Go
// quote (\x1b, \u2028) would hide behind another.
func quoted(s string) string { return `"` + quoteEscapes.Replace(s) + `"` }

var quoteEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func renderObject(g *valueGrip, depth int) string {
	p := g.Preview
	if p == nil || depth > 0 {
		return g.Class
	}
	switch p.Kind {
	case "Error":
		return p.Name + ": " + renderValue(p.Message, 0)
	case "ArrayLike":
		parts := make([]string, 0, len(p.Items))
		for _, it := range p.Items {
			parts = append(parts, renderValue(it, depth+1))
		}
		if p.Length > len(p.Items) {
			parts = append(parts, "…")
		}
		return g.Class + "(" + strconv.Itoa(p.Length) + ") [" + strings.Join(parts, ", ") + "]"
	case "DOMNode":
		s := "<" + strings.ToLower(p.NodeName)
		if id := p.Attributes["id"]; id != "" {
			s += " id=" + quoted(cut(id, 80))
		}
		return s + ">"
	case "Object":
		keys := make([]string, 0, len(p.OwnProperties))
		for k := range p.OwnProperties {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			var d struct {
				Value json.RawMessage `json:"value"`
			}
			json.Unmarshal(p.OwnProperties[k], &d)
			parts = append(parts, k+": "+renderValue(d.Value, depth+1))
		}
		prefix := ""
		if g.Class != "Object" {
			prefix = g.Class + " "
		}
		return prefix + "{" + strings.Join(parts, ", ") + "}"
	}
	return g.Class
}

// Clone returns another handle on the same watch: the buffers and the
// watcher stay alive until every handle is closed. It sends nothing.
func (h *TabWatch) Clone() (*TabWatch, error) {
	w := h.w
	var err error
	w.c.update(func(s *state) {
		if s.err != nil {
			err = s.err
			return
		}
		if w.refs <= 0 {
			err = errWatchClosed
			return
		}
		w.refs++
	})
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	err = w.err
	w.mu.Unlock()
	if err != nil {
		w.release()
		return nil, err
	}
	return &TabWatch{w: w, closed: make(chan struct{})}, nil
}

// Err is nil while the watch follows its tab, ErrTabClosed once the tab is
// closed, an ErrClosed error once the connection or every handle is.
func (h *TabWatch) Err() error {
	h.w.mu.Lock()
	defer h.w.mu.Unlock()
	return h.w.err
}

// Console returns the buffered console entries, oldest first, and how many
// older ones were evicted to stay within the buffer's limits.
func (h *TabWatch) Console() ([]ConsoleEntry, uint64) {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]ConsoleEntry, len(w.res.console.items))
	for i, e := range w.res.console.items {
		out[i] = *e
	}
	return out, w.res.console.dropped
}

// Network returns the buffered requests, oldest first, and how many older
// ones were evicted.
func (h *TabWatch) Network() ([]NetworkEntry, uint64) {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]NetworkEntry, len(w.res.network.items))
	for i, e := range w.res.network.items {
		out[i] = *e
	}
	return out, w.res.network.dropped
}

// Request returns one buffered request by its Seq.
func (h *TabWatch) Request(seq uint64) (NetworkEntry, bool) {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.res.bySeq[seq]
	if e == nil {
		return NetworkEntry{}, false
	}
	return *e, true
}
