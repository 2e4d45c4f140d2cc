package browser

// The one rendering path for page-derived strings.
//
// Every string that came from a web page — titles, URLs (a redirect target
// is the page's choice), accessible names, values, page text, dialog text,
// console messages, exception messages, file names a page reports back —
// reaches an answer through this file, and nowhere else (the tool table
// writes its answers with it too):
//
//   - In a result's text, inside a marker block whose nonce is fresh for
//     every response, so the page cannot close the block and speak as the
//     tool:
//
//     u := NewUntrusted()
//     u.Field("Title", title, 200)          // Title: "…" (escaped, quoted, cut)
//     u.Line("[e1] button " + Quote(n, 80)) // a line built from Quote()d values
//     u.Text(pageText)                      // a block of page text
//     text += "\n" + u.String()
//
//     or, for one value: text += "\n" + Marked("URL", url, 500).
//     Quote(s, n) may be used only in lines handed to an untrusted block.
//   - In structuredContent, as a Page value: PageStr(s) or PageStrN(s, n). It
//     marshals as a JSON string escaped exactly like text in a block. A Page
//     field of a tool's Out type is declared "page text" in its output
//     schema, which tools/output.go derives from the type.
//   - In an error: the message stays in the server's words; page-derived
//     values go in with (*Error).WithPage (rendered in a block after the
//     message) and, for structured details, as Page values in Details.
//
// The escape form (said once in the tool descriptions, tools.untrustedNote):
// control and invisible characters are shown as \u{HEX}, the code point in
// upper-case hex (ESC is \u{1B}, a zero-width space \u{200B}); the third "<"
// of "<<<" is shown as \u{3C}, so no marker can open; in quoted values '"'
// and '\' are \" and \\. Escaped are: C0 controls except TAB, DEL, C1
// controls, U+2028/U+2029, soft hyphen, the zero-width and joiner
// characters U+200B–U+200F, bidi controls U+202A–U+202E, U+2060–U+206F
// (word joiner, invisible operators, bidi isolates), U+FEFF, U+FFF9–U+FFFB,
// Unicode tag characters U+E0000–U+E007F, and the rarer invisibles in
// invisibleRanges. Kept: every script, combining marks, emoji; U+200D
// (ZWJ) between emoji (family and profession emoji, flags with a variation
// selector); U+200C/U+200D between letters of scripts that use them
// (Arabic, Persian, the Indic scripts, Sinhala, Mongolian, Syriac); a single
// variation selector after its base character (runs of them, which can
// smuggle bytes, are escaped after the first).

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Untrusted collects page-derived lines between markers that carry a fresh
// random nonce, so text on the page cannot forge the end marker.
type Untrusted struct {
	nonce string
	n     int // lines added
	b     strings.Builder
}

func NewUntrusted() *Untrusted {
	var n [8]byte
	rand.Read(n[:])
	u := &Untrusted{nonce: hex.EncodeToString(n[:])}
	u.b.WriteString(markerOpen + u.nonce + ">>>\n")
	return u
}

const (
	markerOpen = "<<<untrusted-page-content "
	markerEnd  = "<<<end untrusted-page-content "
)

// Line adds one Line; anything in it that could break the Line, open a
// marker or hide from a reader is escaped, so one call is always exactly
// one Line. Text already escaped (quote's output) passes unchanged.
func (u *Untrusted) Line(s string) {
	u.n++
	escapeTo(&u.b, s, false)
	u.b.WriteByte('\n')
}

// Field adds the line `label: "value"`, value quoted, escaped and cut to at
// most n runes.
func (u *Untrusted) Field(label, value string, n int) {
	u.Line(label + ": " + Quote(value, n))
}

// Grow makes room for about n more bytes.
func (u *Untrusted) Grow(n int) { u.b.Grow(n) }

// Text adds a block of page Text: its line breaks (LF, CR, CRLF, U+2028,
// U+2029) end lines, tabs are kept, everything else is escaped as in line.
func (u *Untrusted) Text(s string) {
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n\u2028\u2029")
		if i < 0 {
			u.Line(s)
			return
		}
		u.Line(s[:i])
		_, w := utf8.DecodeRuneInString(s[i:])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			w = 2
		}
		s = s[i+w:]
	}
}

// Empty reports whether no line was added.
func (u *Untrusted) Empty() bool { return u.n == 0 }

func (u *Untrusted) String() string {
	return u.b.String() + markerEnd + u.nonce + ">>>"
}

// Marked renders one page-derived value as a block of its own.
func Marked(label, value string, n int) string {
	u := NewUntrusted()
	u.Field(label, value, n)
	return u.String()
}

// Quote quotes page-derived text for a line of an untrusted block: escaped
// (see the file comment), '"' and '\' backslash-escaped, at most n runes.
func Quote(s string, n int) string {
	s = Truncate(s, n)
	if !needsEscape(s, true) {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteByte('"')
	escapeTo(&b, s, true)
	b.WriteByte('"')
	return b.String()
}

// escape returns s with control and invisible characters and marker
// openings escaped (unquoted form: backslashes and quotes stay).
func escape(s string) string {
	if !needsEscape(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	escapeTo(&b, s, false)
	return b.String()
}

// Page is a page-derived string in structuredContent. It marshals as a JSON
// string escaped like text in an untrusted block; output schemas declare
// such fields through the tool table (tools/output.go).
type Page struct{ s string }

// Bounds of page-derived strings in answers, in runes (escaping can make a
// rune up to ten bytes of JSON): titles and URLs as the text shows them,
// and PageMax for any other page string in structuredContent, so that no
// page can make an answer large (docs/limits.md).
const (
	TitleMax = 200
	URLMax   = 500
	PageMax  = 2000
)

// PageStr wraps a page-derived string for structuredContent, cut to
// PageMax runes.
func PageStr(s string) Page { return Page{Truncate(s, PageMax)} }

// PageTitle and PageURL wrap a page's title and address, cut as the text
// shows them.
func PageTitle(s string) Page { return Page{Truncate(s, TitleMax)} }
func PageURL(s string) Page   { return Page{Truncate(s, URLMax)} }

// PageStrN is PageStr with the string cut to at most n runes.
func PageStrN(s string, n int) Page { return Page{Truncate(s, n)} }

// Raw is the page's string as it came, for a writer that marks it
// (Untrusted, Marked): never for text outside the markers.
func (p Page) Raw() string { return p.s }

// MarshalJSON writes the escaped string.
func (p Page) MarshalJSON() ([]byte, error) { return json.Marshal(escape(p.s)) }

// PageStrs wraps page-derived strings (warnings, names) for structuredContent.
func PageStrs(ss []string) []Page {
	out := make([]Page, len(ss))
	for i, s := range ss {
		out[i] = PageStr(s)
	}
	return out
}

// needsEscape reports whether escapeTo would change s: most strings have
// nothing to escape, and looking is much cheaper than rewriting. Bytes that
// cannot start anything escapable are skipped at once; the few lead bytes
// of escapable runes get a closer look; invalid UTF-8 (shown as U+FFFD)
// is looked for only in strings that are not all ASCII.
func needsEscape(s string, quoted bool) bool {
	high := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			if c == '<' && i+2 < len(s) && s[i+1] == '<' && s[i+2] == '<' {
				return true
			}
			if quoted && (c == '"' || c == '\\') {
				return true
			}
		case c < 0x20:
			if c != '\t' {
				return true
			}
		case c == 0x7f:
			return true
		case suspectLead[c]:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if special(r) {
				return true
			}
			high = true
		default:
			high = true
		}
	}
	return high && !utf8.ValidString(s)
}

// suspectLead marks the UTF-8 lead bytes of every rune special may report.
var suspectLead = func() (t [256]bool) {
	for _, c := range []byte{0xc2, 0xcd, 0xd8, 0xe1, 0xe2, 0xe3, 0xef, 0xf0, 0xf3} {
		t[c] = true
	}
	return t
}()

// invisibleRanges are the non-control runes escaped (some only outside
// the contexts keep allows). Each lies under a lead byte in suspectLead.
var invisibleRanges = [...]struct{ lo, hi rune }{
	{0x0080, 0x009f},   // C1 controls
	{0x00ad, 0x00ad},   // soft hyphen
	{0x034f, 0x034f},   // combining grapheme joiner
	{0x061c, 0x061c},   // Arabic letter mark (bidi)
	{0x115f, 0x1160},   // Hangul choseong/jungseong fillers
	{0x17b4, 0x17b5},   // Khmer inherent vowels (invisible)
	{0x180e, 0x180e},   // Mongolian vowel separator
	{0x200b, 0x200f},   // zero-width space, ZWNJ, ZWJ, LRM, RLM
	{0x2028, 0x2029},   // line and paragraph separators
	{0x202a, 0x202e},   // bidi embeddings and overrides
	{0x2060, 0x206f},   // word joiner, invisible operators, bidi isolates, deprecated formats
	{0x3164, 0x3164},   // Hangul filler
	{0xfe00, 0xfe0f},   // variation selectors
	{0xfeff, 0xfeff},   // zero-width no-break space (BOM)
	{0xffa0, 0xffa0},   // halfwidth Hangul filler
	{0xfff9, 0xfffb},   // interlinear annotation
	{0x1bca0, 0x1bca3}, // shorthand format controls
	{0x1d173, 0x1d17a}, // musical symbol format controls
	{0xe0000, 0xe007f}, // tag characters
	{0xe0100, 0xe01ef}, // variation selectors supplement
}

// special reports whether r is escaped in at least some contexts.
func special(r rune) bool {
	if r < 0x80 {
		return r < 0x20 && r != '\t' || r == 0x7f
	}
	for _, g := range invisibleRanges {
		if r <= g.hi {
			return r >= g.lo
		}
	}
	return false
}

func isVariationSelector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

// joiningScripts are the scripts whose text uses ZWJ and ZWNJ between
// letters to choose letter forms.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi,
	unicode.Gujarati, unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada,
	unicode.Malayalam, unicode.Sinhala, unicode.Mongolian, unicode.Nko,
}

// keep reports whether special rune r stays raw between prev and next (0
// at either end of the string).
func keep(prev, r, next rune) bool {
	switch {
	case r == 0x200d && emojiBase(prev) && unicode.Is(unicode.So, next):
		return true // ZWJ in an emoji sequence
	case (r == 0x200c || r == 0x200d) && joinable(prev) && joinable(next):
		return true
	case isVariationSelector(r):
		return prev != 0 && !isVariationSelector(prev) && !special(prev) && !unicode.IsSpace(prev)
	}
	return false
}

// joinable: a letter or mark of a joining script (not one of its format
// characters, such as U+061C, which are escaped themselves).
func joinable(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) && unicode.In(r, joiningScripts...)
}

// emojiBase: a rune an emoji ZWJ sequence can continue from.
func emojiBase(r rune) bool {
	return unicode.Is(unicode.So, r) || r >= 0x1f3fb && r <= 0x1f3ff || r == 0xfe0f
}

// escapeTo appends s to b escaped (see the file comment); quoted also
// escapes '"' and '\'.
func escapeTo(b *strings.Builder, s string, quoted bool) {
	if !needsEscape(s, quoted) {
		b.WriteString(s)
		return
	}
	escapeSlow(b, s, quoted)
}

// escapeSlow is escapeTo without the fast path.
func escapeSlow(b *strings.Builder, s string, quoted bool) {
	prev := rune(0)
	lt := 0 // "<" written in a row
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == '<':
			if lt == 2 {
				b.WriteString(`\u{3C}`)
				lt = 0
				prev = r
				continue
			}
			lt++
			b.WriteByte('<')
			prev = r
			continue
		case quoted && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == utf8.RuneError && w == 1:
			b.WriteRune(utf8.RuneError) // invalid UTF-8: shown as U+FFFD, as JSON would
		case special(r):
			next, _ := utf8.DecodeRuneInString(s[i:])
			if i >= len(s) {
				next = 0
			}
			if keep(prev, r, next) {
				b.WriteRune(r)
			} else {
				b.WriteString(`\u{`)
				b.WriteString(strings.ToUpper(strconv.FormatInt(int64(r), 16)))
				b.WriteByte('}')
				r = 0 // an escaped rune is no base for what follows
			}
		default:
			b.WriteRune(r)
		}
		lt = 0
		prev = r
	}
}
