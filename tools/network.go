package tools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// maxBodyChars caps the response body network_request shows.
const maxBodyChars = 20_000

// redacted are the headers whose values never reach the model: they carry
// the user's credentials for the site.
var redacted = map[string]bool{"cookie": true, "set-cookie": true, "authorization": true, "proxy-authorization": true}

var networkTool = tool[networkArgs, networkOut]{
	Name: "network_requests", Title: "Network requests",
	Description: "The selected tab's requests, newest last: id, method, status, type, size, duration, URL (no credentials); kept since the tab was first selected (last 1000). At most limit entries, 40,000 characters.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).networkRequests,
}

type networkArgs struct {
	Filter *string `json:"filter" min:"1" max:"500" desc:"keep lines containing it (any case)"`
	Limit  int     `json:"limit" min:"1" max:"1000" default:"50" desc:"most entries"`
}

// networkOut: the requests themselves are page text, in the text only.
type networkOut struct {
	said
	TabID    string `json:"tab_id"`
	Matching int    `json:"matching"`
	Shown    int    `json:"shown"`
	Evicted  uint64 `json:"evicted"`
}

var networkRequestTool = tool[networkRequestArgs, networkRequestOut]{
	Name: "network_request", Title: "Network request details",
	Description: "One request's headers (Cookie, Authorization and the like redacted) and the first 20,000 characters of a text body; gone once the page navigates away.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).networkRequest,
}

type networkRequestOut struct {
	said
	TabID            string `json:"tab_id"`
	ID               string `json:"id"`
	Status           int    `json:"status"`
	Done             bool   `json:"done"`
	DetailsAvailable bool   `json:"details_available"`
	BodyTruncated    bool   `json:"body_truncated"`
}

func (tb *Table) networkRequests(ctx context.Context, a *networkArgs, _ browser.Progress) (networkOut, error) {
	op, err := tb.eng.Watching(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return networkOut{}, err
	}
	limit := a.Limit
	filter := ""
	if a.Filter != nil {
		filter = strings.ToLower(*a.Filter)
	}
	all, evicted := op.Network()
	type row struct {
		line string
	}
	var rows []row
	for i := range all {
		l := requestLine(&all[i])
		if filter == "" || strings.Contains(strings.ToLower(l), filter) {
			rows = append(rows, row{l})
		}
	}
	matched := len(rows)
	rows, shown := lastEntries(rows, limit, func(*row) bool { return true }, func(r *row) int { return len(r.line) })
	u := browser.NewUntrusted()
	for _, r := range rows {
		u.Line(r.line)
	}
	head := fmt.Sprintf("Requests of %s: %d of %s (newest last", op.TabID(), shown, browser.Plural(matched, "matching request", "matching requests"))
	if filter != "" {
		head += ", filter " + browser.Quote(*a.Filter, 100)
	}
	if evicted > 0 {
		head += fmt.Sprintf("; %d older requests were dropped from the %d-entry buffer", evicted, rdp.MaxNetworkEntries)
	}
	head += "). Use network_request with an id for headers and body."
	head += moreNote(shown, matched, limit, rdp.MaxNetworkEntries)
	out := networkOut{TabID: op.TabID(), Matching: matched, Shown: shown, Evicted: evicted}
	out.text = head + "\n" + u.String()
	return out, nil
}

func requestID(seq uint64) string { return "r" + strconv.FormatUint(seq, 10) }

// requestLine renders one request: [r3] GET 404 fetch 19 B 2 ms URL.
func requestLine(e *rdp.NetworkEntry) string {
	var b strings.Builder
	b.WriteString("[" + requestID(e.Seq) + "] " + e.Method + " " + statusText(e) + " " + e.Cause)
	if e.ContentSize >= 0 {
		b.WriteString(" " + sizeText(e.ContentSize))
	}
	if e.TotalTime >= 0 {
		b.WriteString(" " + strconv.FormatFloat(e.TotalTime, 'f', 0, 64) + " ms")
	}
	if e.FromCache {
		b.WriteString(" cached")
	}
	b.WriteString(" " + browser.Truncate(stripCredentials(e.URL), 500))
	return b.String()
}

func statusText(e *rdp.NetworkEntry) string {
	switch {
	case e.Blocked != "":
		return "blocked(" + browser.Truncate(e.Blocked, 60) + ")"
	case e.Status > 0:
		return strconv.Itoa(e.Status)
	case e.Done:
		return "failed"
	}
	return "pending"
}

// stripCredentials drops user:password@ from a URL; text that does not
// parse as a URL with a host is returned as is.
func stripCredentials(raw string) string {
	if !strings.Contains(raw, "@") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i, j := strings.Index(raw, "://"), strings.Index(raw, "@"); i > 0 && j > i {
			if k := strings.IndexAny(raw[i+3:], "/?#"); k < 0 || i+3+k > j {
				return raw[:i+3] + raw[j+1:]
			}
		}
		return raw
	}
	u.User = nil
	return u.String()
}

func (tb *Table) networkRequest(ctx context.Context, a *networkRequestArgs, _ browser.Progress) (networkRequestOut, error) {
	seq, err := strconv.ParseUint(strings.TrimPrefix(a.ID, "r"), 10, 64)
	if err != nil || !strings.HasPrefix(a.ID, "r") || seq == 0 {
		return networkRequestOut{}, browser.Errorf(errcode.InvalidArguments, "%q is not a request id; ids look like r12 and come from network_requests", browser.Truncate(a.ID, 20))
	}
	op, err := tb.eng.Watching(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return networkRequestOut{}, err
	}
	e, ok := op.Request(seq)
	if !ok {
		return networkRequestOut{}, browser.Errorf(errcode.RequestNotFound, "no request %s is buffered for %s (it was never seen, or dropped as the buffer filled); call network_requests", a.ID, op.TabID())
	}
	d, err := op.RequestDetails(ctx, seq, maxBodyChars)
	gone := errors.Is(err, rdp.ErrDetailsGone)
	if err != nil && !gone {
		return networkRequestOut{}, err
	}
	u := browser.NewUntrusted()
	u.Line("Method: " + browser.Truncate(e.Method, 40))
	u.Line("URL: " + browser.Quote(stripCredentials(e.URL), 4000))
	if gone {
		u.Line("(headers and body unavailable: Firefox discarded them when the page navigated away)")
	} else {
		writeHeaders(u, "Request headers:", d.RequestHeaders)
		writeHeaders(u, "Response headers:", d.ResponseHeaders)
		writeBody(u, &e, &d)
	}
	// The method is the page's (fetch takes any token): it is below, marked.
	head := fmt.Sprintf("Request %s of %s: %s, %s, %s", a.ID, op.TabID(), statusText(&e),
		e.Cause, sizeText(e.ContentSize))
	if e.TotalTime >= 0 {
		head += ", " + strconv.FormatFloat(e.TotalTime, 'f', 0, 64) + " ms"
	}
	head += ". Cookie, Set-Cookie, Authorization and Proxy-Authorization values are redacted."
	out := networkRequestOut{TabID: op.TabID(), ID: a.ID, Status: e.Status, Done: e.Done,
		DetailsAvailable: !gone, BodyTruncated: d.BodyTruncated}
	out.text = head + "\n" + u.String()
	return out, nil
}

func writeHeaders(u *browser.Untrusted, title string, hs []rdp.Header) {
	if len(hs) == 0 {
		return
	}
	u.Line(title)
	for _, h := range hs {
		v := h.Value
		switch {
		case redacted[strings.ToLower(h.Name)]:
			v = "[redacted]"
		case h.Truncated:
			v = browser.Truncate(v, 1000) + " [cut]"
		default:
			v = browser.Truncate(v, 1000)
		}
		u.Line("  " + browser.Truncate(h.Name, 100) + ": " + v)
	}
}

func writeBody(u *browser.Untrusted, e *rdp.NetworkEntry, d *rdp.RequestDetails) {
	switch {
	case !e.Done && e.Status == 0:
		u.Line("(no response yet)")
	case d.BodyDiscarded:
		u.Line("(Firefox did not keep the response body)")
	case d.BodyLength == 0:
		u.Line("(empty response body)")
	case d.Encoding != "" || !textual(d.MimeType):
		u.Line(fmt.Sprintf("(binary response body, %s, not shown)", browser.Quote(d.MimeType, 100)))
	default:
		title := fmt.Sprintf("Response body (%d characters):", d.BodyLength)
		if d.BodyTruncated {
			title = fmt.Sprintf("Response body (first %d of %d characters):", maxBodyChars, d.BodyLength)
		}
		u.Line(title)
		u.Text(strings.TrimSuffix(d.Body, "\n"))
	}
}

// textual reports whether a MIME type is text a model can read.
func textual(mime string) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(mime, ";", 2)[0]))
	switch {
	case m == "", strings.HasPrefix(m, "text/"):
		return true
	case strings.HasSuffix(m, "+json"), strings.HasSuffix(m, "+xml"):
		return true
	}
	switch m {
	case "application/json", "application/javascript", "application/xml", "application/x-www-form-urlencoded",
		"application/ecmascript", "application/x-javascript", "application/ld+json", "image/svg+xml":
		return true
	}
	return false
}

type networkRequestArgs struct {
	ID string `json:"id" min:"2" max:"24" desc:"request id such as r12"`
}
