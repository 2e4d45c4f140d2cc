package rdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrDetailsGone: Firefox no longer holds a request's details (it drops
// them when the page navigates away from the document that made it).
var ErrDetailsGone = errors.New("rdp: request details discarded by Firefox")

// Header is one HTTP header. Value may be cut (Truncated) when Firefox
// sent it as a long string.
type Header struct {
	Name, Value string
	Truncated   bool
}

// RequestDetails are one request's headers and response body.
type RequestDetails struct {
	RequestHeaders  []Header
	ResponseHeaders []Header
	// MimeType and Encoding ("base64" for binary bodies, "" for text) of the
	// response content; Body holds at most the requested number of UTF-16
	// units of it, BodyLength the whole length in UTF-16 units.
	MimeType, Encoding string
	Body               string
	BodyLength         int64
	BodyTruncated      bool
	BodyDiscarded      bool // Firefox did not keep the body (limits, or not yet received)
}

type headersReply struct {
	Headers []struct {
		Name  string          `json:"name"`
		Value json.RawMessage `json:"value"`
	} `json:"headers"`
}

type contentReply struct {
	Content struct {
		MimeType string          `json:"mimeType"`
		Encoding string          `json:"encoding"`
		Text     json.RawMessage `json:"text"`
	} `json:"content"`
	ContentDiscarded bool `json:"contentDiscarded"`
}

// maxHeaders bounds the headers kept per message.
const maxHeaders = 200

// RequestDetails fetches one buffered request's headers and up to maxBody
// UTF-16 units of its response body from its netEvent actor. Header values
// longer than Firefox's long-string threshold are cut to their first 1,000
// characters. ErrDetailsGone when the page navigated since (or the request
// is no longer buffered).
func (h *TabWatch) RequestDetails(ctx context.Context, seq uint64, maxBody int) (RequestDetails, error) {
	e, ok := h.Request(seq)
	if !ok || e.navigatedOut || e.actor == "" {
		return RequestDetails{}, ErrDetailsGone
	}
	c := h.w.c
	var d RequestDetails
	var req, resp headersReply
	var content contentReply
	err := c.Request(ctx, e.actor, typeOnly{Type: "getRequestHeaders"}, &req)
	if err == nil && (e.Status != 0 || e.Done) {
		err = c.Request(ctx, e.actor, typeOnly{Type: "getResponseHeaders"}, &resp)
		if err == nil {
			err = c.Request(ctx, e.actor, typeOnly{Type: "getResponseContent"}, &content)
		}
	}
	if err != nil {
		if IsNoSuchActor(err) {
			return RequestDetails{}, fmt.Errorf("%w (%v)", ErrDetailsGone, err)
		}
		return RequestDetails{}, fmt.Errorf("rdp: request details from %s: %w", e.actor, err)
	}
	d.RequestHeaders = headers(req)
	d.ResponseHeaders = headers(resp)
	d.MimeType, d.Encoding = cut(content.Content.MimeType, maxFieldBytes), content.Content.Encoding
	d.BodyDiscarded = content.ContentDiscarded
	if len(content.Content.Text) > 0 {
		d.Body, d.BodyLength, err = c.stringPrefix(ctx, content.Content.Text, maxBody)
		if err != nil {
			return RequestDetails{}, err
		}
		d.BodyTruncated = int64(utf16Units(d.Body)) < d.BodyLength
	}
	return d, nil
}

func headers(r headersReply) []Header {
	out := make([]Header, 0, min(len(r.Headers), maxHeaders))
	for i, h := range r.Headers {
		if i == maxHeaders {
			break
		}
		hd := Header{Name: cut(h.Name, maxFieldBytes)}
		v := strings.TrimSpace(string(h.Value))
		switch {
		case strings.HasPrefix(v, `"`):
			json.Unmarshal(h.Value, &hd.Value)
		case strings.HasPrefix(v, "{"):
			var g grip
			json.Unmarshal(h.Value, &g)
			json.Unmarshal(g.Initial, &hd.Value)
			hd.Truncated = true
		}
		out = append(out, hd)
	}
	return out
}

// stringPrefix reads a string value (a JSON string or a longString grip)
// up to max UTF-16 units, and its whole length. Long strings are not
// released: they belong to the netEvent actor, which hands out the same
// one again.
func (c *Client) stringPrefix(ctx context.Context, raw json.RawMessage, max int) (string, int64, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || raw[0] != '{' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", 0, protocolError("response text is neither a string nor a grip")
		}
		u, err := appendJSONStringUTF16(nil, raw)
		if err != nil {
			return "", 0, protocolError("response text: %v", err)
		}
		n := int64(len(u))
		if len(u) > max {
			u = u[:max]
		}
		return utf16String(u), n, nil
	}
	var g grip
	if err := json.Unmarshal(raw, &g); err != nil || g.Type != "longString" || g.Actor == "" {
		return "", 0, protocolError("response text grip")
	}
	end := min(g.Length, int64(max))
	var resp struct {
		Substring json.RawMessage `json:"substring"`
	}
	if err := c.Request(ctx, g.Actor, substringRequest{Type: "substring", Start: 0, End: end}, &resp); err != nil {
		return "", 0, err
	}
	u, err := appendJSONStringUTF16(nil, resp.Substring)
	if err != nil {
		return "", 0, protocolError("substring: %v", err)
	}
	return utf16String(u), g.Length, nil
}

func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
