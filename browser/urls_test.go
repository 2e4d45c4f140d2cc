package browser

import (
	"net/url"
	"strings"
	"testing"
)

// TestSameURL: the URL the server asked for and the one Firefox reports for
// it compare equal across Firefox's normalizations (the right-hand forms are
// what Firefox ESR 153 reported, checked in TestNavigateNormalizedURL), and
// other addresses do not.
func TestSameURL(t *testing.T) {
	for _, c := range []struct {
		asked, got string
		same       bool
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/", true},
		{"https://Example.COM/a", "https://example.com/a", true},
		{"https://example.com:443/a", "https://example.com/a", true},
		{"http://example.com:80/", "http://example.com/", true},
		{"http://example.com/./a/../b.html", "http://example.com/b.html", true},
		{"http://example.com/s?q=a b", "http://example.com/s?q=a%20b", true},
		{`http://example.com/s?q="<é>'`, "http://example.com/s?q=%22%3C%C3%A9%3E%27", true},
		{"http://example.com/p#sec", "http://example.com/p#sec", true},
		{"http://example.com/", "http://example.com/other", false},
		{"http://example.com/s?q=a+b", "http://example.com/s?q=a%20b", false},
		{"http://example.com/s?q=a%2Bb", "http://example.com/s?q=a+b", false},
		{"http://example.com/p#a", "http://example.com/p#b", false},
		{"http://example.com/p", "http://example.com/p?", false},
		{"http://[::1]:8080/", "http://[::1:8080]/", false},
		{"http://[::1]:80/a", "http://[::1]/a", true},
		{"https://u@example.com/", "https://example.com/", false},
		{"about:blank", "about:srcdoc", false},
		{"about:blank", "about:blank#x", false},
		{"data:text/html,a", "data:text/html,b", false},
		{"http://example.com:8080/", "http://example.com/", false},
		{"https://example.com/", "http://example.com/", false},
		{"http://example.com/", "about:blank", false},
		{"http://example.com/%zz", "http://example.com/%zz", true},
		{"http://example.com/a/%2e%2E/b", "http://example.com/b", true},
		{"http://example.com/a/.%2e/b/%2E", "http://example.com/b/", true},
		{"http://example.com/%2e%2e/%2e%2e", "http://example.com/", true},
		{"http://example.com/a%2eb", "http://example.com/a.b", false},
		{"https://Bücher.example:8443/", "https://xn--bcher-kva.example:8443/", true},
		{"https://münchen.de/", "https://xn--mnchen-3ya.de/", true},
		{"https://bücher.de/", "https://xn--mnchen-3ya.de/", false},
		{"https://xn--zz.de/", "https://xn--zz.de/", true},
	} {
		if got := sameURL(c.asked, c.got); got != c.same {
			t.Errorf("sameURL(%q, %q) = %v, want %v", c.asked, c.got, got, c.same)
		}
	}
}

// TestSameDocument: a navigation that changes only the fragment, whatever
// the form of the rest.
func TestSameDocument(t *testing.T) {
	for _, c := range []struct {
		current, to string
		same        bool
	}{
		{"http://example.com/p", "http://example.com/p#a", true},
		{"http://example.com/", "http://EXAMPLE.com#a", true},
		{"http://example.com/p#a", "http://example.com/p#b", true},
		{"http://example.com/p", "http://example.com/p", false}, // no fragment: a reload
		{"http://example.com/p", "http://example.com/q#a", false},
		{"http://example.com/p?x=1", "http://example.com/p?x=2#a", false},
		{"http://example.com/p", "http://example.com/p?#a", false}, // a new document
		{"about:blank", "about:blank#a", true},
	} {
		u, err := url.Parse(c.to)
		if err != nil {
			t.Fatal(err)
		}
		if got := sameDocument(c.current, u); got != c.same {
			t.Errorf("sameDocument(%q, %q) = %v, want %v", c.current, c.to, got, c.same)
		}
	}
}

// TestPunycodeDecode: RFC 3492's samples and hosts, and what is no punycode.
func TestPunycodeDecode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"bcher-kva", "bücher", true},
		{"mnchen-3ya", "münchen", true},
		{"egbpdaj6bu4bxfgehfvwxn", "ليهمابتكلموشعربي؟", true},
		{"3B-ww4c5e180e575a65lsy2b", "3年B組金八先生", true},
		{"-> $1.00 <--", "-> $1.00 <-", true},
		{"ihqwcrb4cv8a8dqg056pqjye", "他们为什么不说中文", true},
		{"", "", true},
		{"zz", "", false},     // ends inside a number
		{"b!cher", "", false}, // not a digit
		{"ü-kva", "", false},  // non-ASCII before the delimiter
		{strings.Repeat("9", 40), "", false},
	} {
		got, ok := punycodeDecode(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("punycodeDecode(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
