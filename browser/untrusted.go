package browser

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
)

// untrusted collects page-derived lines between markers that carry a fresh
// random nonce, so text on the page cannot forge the end marker.
type untrusted struct {
	nonce string
	b     strings.Builder
}

func newUntrusted() *untrusted {
	var n [8]byte
	rand.Read(n[:])
	u := &untrusted{nonce: hex.EncodeToString(n[:])}
	u.b.WriteString("<<<untrusted-page-content " + u.nonce + ">>>\n")
	return u
}

// flatten turns line breaks into spaces and defuses marker openings.
var flatten = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\u2028", " ", "\u2029", " ", "<<<", "<< <")

// line adds one line; line breaks inside it are flattened and marker-like
// text defused, so one call is always exactly one line.
func (u *untrusted) line(s string) {
	if needsFlatten(s) {
		s = flatten.Replace(s)
	}
	u.b.WriteString(s)
	u.b.WriteByte('\n')
}

// needsFlatten reports whether flatten would change s: most lines have
// none of its patterns, and looking is much cheaper than replacing.
func needsFlatten(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r', '\n', '<', 0xe2: // 0xe2 leads U+2028 and U+2029 in UTF-8
			return true
		}
	}
	return false
}

// grow makes room for about n more bytes.
func (u *untrusted) grow(n int) { u.b.Grow(n) }

// text adds a block of page text, line breaks kept.
func (u *untrusted) text(s string) {
	for _, l := range strings.Split(s, "\n") {
		u.line(l)
	}
}

func (u *untrusted) String() string {
	return u.b.String() + "<<<end untrusted-page-content " + u.nonce + ">>>"
}

// quote quotes page-derived text for one line: Go quoting escapes quotes,
// control characters and line breaks; at most n runes are kept.
func quote(s string, n int) string {
	return strconv.Quote(truncate(s, n))
}

// quoteUntrusted marks page text inside an error message.
func quoteUntrusted(s string) string { return "(page text) " + strconv.Quote(s) }
