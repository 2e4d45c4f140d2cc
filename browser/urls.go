package browser

import (
	"net/url"
	"strings"
)

// sameURL reports whether URLs a and b, one of them as Firefox reports it
// and the other as the server sent it, name the same address. Firefox
// reports the URL it loaded in its own form, which need not be the form it
// was given: scheme and host in lower case, a host in Unicode in punycode
// ("bücher.de" is "xn--bcher-kva.de"), no default port, "/" for an empty
// path, no dot segments (percent-encoded ones included: "%2e%2E" is ".."),
// and in the query a space, a quote, "<", ">" and non-ASCII bytes
// percent-encoded. Compared byte for byte, "https://example.com" was not
// the page Firefox loaded for it ("https://example.com/"), and navigate
// waited for a redirect that never came.
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
	host := unicodeHost(strings.ToLower(u.Host))
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else {
		host = strings.TrimSuffix(host, ":443")
	}
	if u.User != nil {
		host = u.User.String() + "@" + host
	}
	path := withoutDots(u.EscapedPath())
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

// withoutDots is an escaped path without its dot segments, as the URL
// standard removes them: "." and ".." also written "%2e", ".%2E", "%2e%2e"
// (any case); "/" for an empty path.
func withoutDots(p string) string {
	var out []string
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		switch strings.ReplaceAll(strings.ToLower(seg), "%2e", ".") {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	if len(out) <= 1 {
		return "/"
	}
	return strings.Join(out, "/")
}

// unicodeHost is host (lower case, with its port) with its punycode labels
// ("xn--…") decoded, so that a host Firefox reports in punycode equals the
// one the agent wrote in Unicode; a label that does not decode stays as it is.
func unicodeHost(host string) string {
	if !strings.Contains(host, "xn--") {
		return host
	}
	name, port := host, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		name, port = host[:i], host[i:]
	}
	labels := strings.Split(name, ".")
	for i, l := range labels {
		if rest, ok := strings.CutPrefix(l, "xn--"); ok {
			if d, ok := punycodeDecode(rest); ok {
				labels[i] = d
			}
		}
	}
	return strings.Join(labels, ".") + port
}

// punycodeDecode decodes one punycode label without its "xn--" (RFC 3492,
// section 6.2).
func punycodeDecode(s string) (string, bool) {
	const (
		base, tmin, tmax = 36, 1, 26
		skew, damp       = 38, 700
		maxRunes         = 256
	)
	var out []rune
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for _, c := range s[:i] {
			if c >= 0x80 {
				return "", false
			}
			out = append(out, c)
		}
		s = s[i+1:]
	}
	n, bias, i := 128, 72, 0
	adapt := func(delta, points int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / points
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	for pos := 0; pos < len(s); {
		old, w := i, 1
		for k := base; ; k += base {
			if pos >= len(s) {
				return "", false
			}
			d := digit(s[pos])
			pos++
			if d < 0 || d > (1<<30-i)/w {
				return "", false
			}
			i += d * w
			t := min(max(k-bias, tmin), tmax)
			if d < t {
				break
			}
			w *= base - t
		}
		bias = adapt(i-old, len(out)+1, old == 0)
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > 0x10FFFF || len(out) >= maxRunes {
			return "", false
		}
		out = append(out[:i], append([]rune{rune(n)}, out[i:]...)...)
		i++
	}
	return string(out), true
}

// digit is a punycode digit's value (-1: none).
func digit(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= '0' && c <= '9':
		return int(c-'0') + 26
	}
	return -1
}
