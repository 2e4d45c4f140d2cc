package tools

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

func TestStripCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@example.com/a?b=c": "https://example.com/a?b=c",
		"https://example.com/a@b":           "https://example.com/a@b",
		"http://u@[::1]:8080/":              "http://[::1]:8080/",
		"no url @ all":                      "no url @ all",
		"https://x:y@exa mple.com/":         "https://exa mple.com/",
	} {
		if got := stripCredentials(in); got != want {
			t.Errorf("stripCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeadersAndBodyText(t *testing.T) {
	u := browser.NewUntrusted()
	writeHeaders(u, "Response headers:", []rdp.Header{
		{Name: "Set-Cookie", Value: "sid=s3cret"}, {Name: "proxy-authorization", Value: "Basic s3cret"},
		{Name: "X-Long", Value: "abc", Truncated: true}, {Name: "X-Line", Value: "a\nb"},
	})
	e := rdp.NetworkEntry{Status: 200, Done: true}
	writeBody(u, &e, &rdp.RequestDetails{MimeType: "application/json", Body: strings.Repeat("x", maxBodyChars), BodyLength: 30000, BodyTruncated: true})
	writeBody(u, &e, &rdp.RequestDetails{MimeType: "text/html", BodyDiscarded: true})
	writeBody(u, &rdp.NetworkEntry{}, &rdp.RequestDetails{})
	got := u.String()
	for _, want := range []string{"  Set-Cookie: [redacted]\n", "  proxy-authorization: [redacted]\n", "  X-Long: abc [cut]\n", "  X-Line: a\\u{A}b\n",
		"Response body (first 20000 of 30000 characters):\n", "(Firefox did not keep the response body)", "(no response yet)"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%.600s", want, got)
		}
	}
	if strings.Contains(got, "s3cret") {
		t.Error("a credential was shown")
	}
	for mime, want := range map[string]bool{"text/plain; charset=utf-8": true, "application/problem+json": true, "image/svg+xml": true,
		"application/octet-stream": false, "image/png": false, "": true} {
		if textual(mime) != want {
			t.Errorf("textual(%q) = %v", mime, !want)
		}
	}
}
