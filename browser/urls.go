package browser

import (
	"net/url"
	"strings"
)

// sameURL reports whether URLs a and b, one of them as Firefox reports it
// and the other as the server sent it, name the same address. Firefox
// reports the URL it loaded in its own form, which need not be the form it
// was given: scheme and host in lower case, no default port, "/" for an
// empty path, no dot segments, and in the query a space, a quote, "<", ">"
// and non-ASCII bytes percent-encoded. Compared byte for byte,
// "https://example.com" was not the page Firefox loaded for it
// ("https://example.com/"), and navigate waited for a redirect that never
// came. (Not told apart from another address: a host in Unicode, which
// Firefox shows in punycode.)
func sameURL(a, b string) bool {
	if a == b {
		return true
	}
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	if err != nil {
		return false
	}
	return canonicalURL(ua, true) == canonicalURL(ub, true)
}

// canonicalURL is u in the form Firefox would report it, as far as sameURL
// needs, with its fragment when withFragment.
func canonicalURL(u *url.URL, withFragment bool) string {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Opaque != "" {
		// (about:blank, data:…: as they are, without the fragment when asked.)
		v := *u
		if !withFragment {
			v.Fragment, v.RawFragment = "", ""
		}
		return v.String()
	}
	host := strings.ToLower(u.Host)
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	if u.User != nil {
		host = u.User.String() + "@" + host
	}
	// ResolveReference with an empty reference removes dot segments.
	path := u.ResolveReference(&url.URL{}).EscapedPath()
	if path == "" {
		path = "/"
	}
	out := scheme + "://" + host + path
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + queryEncoded(u.RawQuery) // ("/p?" is another address than "/p")
	}
	if withFragment && u.Fragment != "" {
		out += "#" + u.EscapedFragment()
	}
	return out
}

// queryEncoded is a query with the bytes the URL standard percent-encodes in
// a special scheme's query encoded (C0 controls, space, '"', '#', "'", '<',
// '>', and bytes past ASCII), as Firefox encodes them; other escapes are
// left as they are.
func queryEncoded(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c <= ' ', c == '"', c == '#', c == '\'', c == '<', c == '>', c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
