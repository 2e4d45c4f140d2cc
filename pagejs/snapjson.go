package pagejs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// snapReader decodes Snapshot's value by hand. encoding/json took ≈12 ms for the
// ≈290 KB of rows of a 3,000-element page (generic [][]any, then picking columns),
// a third of the server's share of a snapshot; this reader takes ≈1–2 ms. It
// accepts a subset of what encoding/json would for the same shape (FuzzSnapshotDecode
// checks that it never accepts more, nor decodes differently) and never recurses on
// page-controlled nesting.
type snapReader struct {
	b []byte
	// s is b as a string: the strings read are slices of it (one copy of
	// the input instead of an allocation per field; the result holds on to
	// the input as long as it holds any of them).
	s    string
	i    int
	hint int // the row count announced by "total", when it came first
}

var errSyntax = errors.New("snapshot: malformed JSON")

func (r *snapReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips white space and reports the next byte (0 at the end).
func (r *snapReader) next() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *snapReader) expect(c byte) error {
	if r.next() != c {
		return fmt.Errorf("%w: want %q at offset %d", errSyntax, c, r.i)
	}
	r.i++
	return nil
}

// literal consumes word (true, false, null) if it comes next.
func (r *snapReader) literal(word string) bool {
	if r.next() == word[0] && strings.HasPrefix(string(r.b[r.i:min(len(r.b), r.i+len(word))]), word) {
		r.i += len(word)
		return true
	}
	return false
}

// short reads a JSON string that is usually one of a few values (tags, roles,
// types): those come from a table instead of a new allocation each time.
func (r *snapReader) short() (string, error) {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == '"' {
		if end := bytesIndexQuote(r.b[r.i+1:]); end >= 0 {
			if s, ok := common[string(r.b[r.i+1:r.i+1+end])]; ok {
				r.i += end + 2
				return s, nil
			}
		}
	}
	return r.str()
}

// bytesIndexQuote finds the closing quote of a string without escapes (-1 when
// there is an escape or a control character first).
func bytesIndexQuote(b []byte) int {
	for i, c := range b {
		if c == '"' {
			return i
		}
		if c == '\\' || c < 0x20 {
			return -1
		}
	}
	return -1
}

var common = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{"", "a", "button", "input", "select", "textarea", "summary", "option", "div", "span", "li", "label", "area",
		"link", "textbox", "checkbox", "radio", "combobox", "listbox", "searchbox", "slider", "spinbutton", "switch", "tab", "menuitem",
		"menuitemcheckbox", "menuitemradio", "treeitem", "gridcell", "columnheader", "rowheader", "heading",
		"text", "search", "email", "password", "tel", "url", "number", "file", "submit", "reset", "image", "range", "date", "color"} {
		m[s] = s
	}
	return m
}()

// str reads a JSON string. Strings without escapes (nearly all) are sliced out;
// others go through encoding/json, which also decides what invalid UTF-8 and lone
// surrogates become.
func (r *snapReader) str() (string, error) {
	if r.next() != '"' {
		return "", fmt.Errorf("%w: want a string at offset %d", errSyntax, r.i)
	}
	start := r.i
	r.i++
	simple := true
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			if simple {
				if utf8.Valid(r.b[start+1 : r.i-1]) {
					return r.s[start+1 : r.i-1], nil
				}
			}
			var s string
			if err := json.Unmarshal(r.b[start:r.i], &s); err != nil {
				return "", fmt.Errorf("%w: %v", errSyntax, err)
			}
			return s, nil
		case c == '\\':
			simple = false
			r.i += 2
		case c < 0x20:
			return "", fmt.Errorf("%w: control character in a string at offset %d", errSyntax, r.i)
		default:
			r.i++
		}
	}
	return "", fmt.Errorf("%w: unterminated string", errSyntax)
}

// integer reads a non-negative JSON integer that fits an int.
func (r *snapReader) integer() (int, error) {
	r.ws()
	start, n := r.i, 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		if n > (1<<53)/10 {
			return 0, fmt.Errorf("%w: number too large at offset %d", errSyntax, start)
		}
		n = n*10 + int(r.b[r.i]-'0')
		r.i++
	}
	if r.i == start || (r.b[start] == '0' && r.i-start > 1) {
		return 0, fmt.Errorf("%w: want a non-negative integer at offset %d", errSyntax, start)
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		return 0, fmt.Errorf("%w: want an integer at offset %d", errSyntax, start)
	}
	return n, nil
}

// ints reads an array of non-negative integers.
func (r *snapReader) ints() ([]int, error) {
	return readArray(r, r.integer)
}

// strs reads an array of JSON strings.
func (r *snapReader) strs() ([]string, error) {
	return readArray(r, r.str)
}

// readArray reads a JSON array whose items one reads.
func readArray[T any](r *snapReader, one func() (T, error)) ([]T, error) {
	if err := r.expect('['); err != nil {
		return nil, err
	}
	out := []T{}
	for i := 0; ; i++ {
		if r.next() == ']' {
			r.i++
			return out, nil
		}
		if i > 0 {
			if err := r.expect(','); err != nil {
				return nil, err
			}
		}
		v, err := one()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// skip passes over one JSON value of any shape, without recursion, and checks
// only what encoding/json's own pass (checkValid, run on unknown keys' values too)
// would: the value is handed to json.Valid.
func (r *snapReader) skip() error {
	r.ws()
	start, depth := r.i, 0
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case '"':
			if _, err := r.str(); err != nil {
				return err
			}
			if depth == 0 {
				return r.valid(start)
			}
			continue
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 { // the end of a scalar
				return r.valid(start)
			}
			depth--
			if depth == 0 {
				r.i++
				return r.valid(start)
			}
		case ',', ':':
			if depth == 0 {
				return r.valid(start)
			}
		default:
			if depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				return r.valid(start)
			}
		}
		r.i++
	}
	return r.valid(start)
}

func (r *snapReader) valid(start int) error {
	if start == r.i || !json.Valid(r.b[start:r.i]) {
		return fmt.Errorf("%w: bad value at offset %d", errSyntax, start)
	}
	return nil
}

// decodeSnapshot decodes Snapshot's value: the top-level object, and its
// compact rows (see js/snapshot.js) into Elements. z, a compressed form of the
// same object, is allowed only when compressed is true.
func decodeSnapshot(b []byte, compressed bool) (out SnapshotResult, z *string, err error) {
	r := &snapReader{b: b, s: string(b)}
	if err := r.expect('{'); err != nil {
		return out, nil, err
	}
	for first := true; ; first = false {
		if r.next() == '}' {
			r.i++
			break
		}
		if !first {
			if err := r.expect(','); err != nil {
				return out, nil, err
			}
		}
		var key string
		if key, err = r.str(); err != nil {
			return out, nil, err
		}
		if err = r.expect(':'); err != nil {
			return out, nil, err
		}
		if r.literal("null") {
			switch foldKey(key) {
			case "text":
				out.Text = nil
			case "rows":
				out.Elements = nil
			case "z":
				z = nil
			}
			continue
		}
		if err = r.field(&out, key, compressed, &z); errors.Is(err, errNested) {
			return out, nil, err
		} else if err != nil {
			return out, nil, fmt.Errorf("snapshot %s: %w", key, err)
		}
	}
	if r.ws(); r.i != len(r.b) {
		return out, nil, fmt.Errorf("%w: data after the object", errSyntax)
	}
	return out, z, nil
}

// errNested: a compressed snapshot whose inflated value is compressed again.
var errNested = errors.New("snapshot: nested compression")

// field decodes the value of key into out (z: the compressed value, when
// compressed is allowed).
func (r *snapReader) field(out *SnapshotResult, key string, compressed bool, z **string) error {
	var err error
	switch foldKey(key) {
	case "title":
		out.Title, err = r.str()
	case "url":
		out.URL, err = r.str()
	case "text":
		var s string
		s, err = r.str()
		out.Text = &s
	case "total":
		out.Total, err = r.integer()
		r.hint = out.Total
	case "all":
		out.All, err = r.integer()
	case "truncatedElements":
		out.TruncatedElements, err = r.integer()
	case "inert":
		out.Inert, err = r.ints()
	case "nearAt":
		out.NearAt, err = r.ints()
	case "near":
		out.Near, err = r.strs()
	case "textTotal":
		out.TextTotal, err = r.integer()
	case "seq":
		out.Seq, err = r.integer()
	case "same":
		out.Same, err = r.integer()
	case "base":
		out.Base, err = r.integer()
	case "runs":
		out.Runs, err = r.ints()
	case "rows":
		out.Elements, err = r.rows()
	case "z":
		if !compressed {
			return errNested
		}
		var s string
		s, err = r.str()
		*z = &s
	default:
		err = r.skip()
	}
	return err
}

// foldKey maps a key to the field it names, ignoring case as encoding/json does.
func foldKey(k string) string {
	for _, f := range [...]string{"title", "url", "text", "total", "all", "truncatedElements", "textTotal", "seq", "same", "base", "runs", "rows", "inert", "nearAt", "near", "z"} {
		if k == f || strings.EqualFold(k, f) {
			return f
		}
	}
	return k
}

// rows reads [[tag, role, type, name, fh, k, rest, extra], …]: the selector (segments
// joined by "\n") is the first k UTF-16 units of the previous row's selector followed
// by rest; extra is 0 or an object of the remaining fields.
func (r *snapReader) rows() ([]Element, error) {
	if err := r.expect('['); err != nil {
		return nil, err
	}
	els := make([]Element, 0, min(max(r.hint, 16), len(r.b)/16))
	prev := ""
	for i := 0; ; i++ {
		if r.next() == ']' {
			r.i++
			return els, nil
		}
		if i > 0 {
			if err := r.expect(','); err != nil {
				return nil, err
			}
		}
		if err := r.expect('['); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		var cols [5]string
		for j := range cols {
			read := r.str
			if j < 3 {
				read = r.short
			}
			s, err := read()
			if err != nil {
				return nil, fmt.Errorf("row %d column %d: %w", i, j, err)
			}
			cols[j] = s
			if err := r.expect(','); err != nil {
				return nil, fmt.Errorf("row %d: %w", i, err)
			}
		}
		k, err := r.integer()
		if err != nil {
			return nil, fmt.Errorf("row %d selector prefix: %w", i, err)
		}
		if err := r.expect(','); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		rest, err := r.str()
		if err != nil {
			return nil, fmt.Errorf("row %d selector: %w", i, err)
		}
		sel, ok := joinPrefix(prev, k, rest)
		if !ok {
			return nil, fmt.Errorf("row %d: selector prefix %d out of range", i, k)
		}
		prev = sel
		els = append(els, Element{
			Tag: cols[0], Role: cols[1], Type: cols[2], Name: cols[3],
			FP:  Fingerprint{Tag: cols[0], Role: cols[1], Type: cols[2], Name: cols[3], Href: cols[4]},
			Sel: strings.Split(sel, "\n"),
		})
		if err := r.expect(','); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		if err := r.extra(&els[len(els)-1]); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		if err := r.expect(']'); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
}

// extra reads 0 or an object whose fields setExtra knows.
func (r *snapReader) extra(e *Element) error {
	if r.next() == '0' {
		r.i++
		return nil
	}
	if err := r.expect('{'); err != nil {
		return errors.New("bad extra column")
	}
	for first := true; ; first = false {
		if r.next() == '}' {
			r.i++
			return nil
		}
		if !first {
			if err := r.expect(','); err != nil {
				return err
			}
		}
		key, err := r.str()
		if err != nil {
			return err
		}
		if err := r.expect(':'); err != nil {
			return err
		}
		var v any
		switch {
		case r.literal("true"):
			v = true
		case r.literal("false"):
			v = false
		case r.next() == '"':
			if v, err = r.str(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("field %q: unexpected value", key)
		}
		if err := e.setField(key, v); err != nil {
			return err
		}
	}
}
