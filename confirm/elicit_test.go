package confirm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
)

// TestElicitOutcome: only accept with allow = true is a yes, row by row.
func TestElicitOutcome(t *testing.T) {
	for _, tc := range []struct {
		action, content string
		want            confirm.Outcome
		why             string
	}{
		{"accept", `{"allow":true}`, confirm.Yes, "the one yes"},
		{"accept", `{"allow":false}`, confirm.No, "the form's default"},
		{"accept", `{}`, confirm.No, "allow missing"},
		{"accept", ``, confirm.No, "no content"},
		{"accept", `{"allow":"true"}`, confirm.No, "a string is not the boolean"},
		{"accept", `{"Allow":true}`, confirm.No, "field names are exact-case"},
		{"decline", `{"allow":true}`, confirm.No, "declined, whatever the content"},
		{"cancel", ``, confirm.No, "dismissed"},
	} {
		if got, _ := confirm.ElicitOutcome(tc.action, json.RawMessage(tc.content)); got != tc.want {
			t.Errorf("%s (%s %s): %s", tc.why, tc.action, tc.content, got)
		}
	}
}

// TestElicitText: the message says what it is, that declining is safe,
// and carries the window's items with page strings on one line, cut, and
// without angle brackets.
func TestElicitText(t *testing.T) {
	r := request()
	r.Files = []string{strings.Repeat("x", 500) + ".pdf"}
	text := confirm.ElicitText(&r)
	for _, want := range []string{"CONFIRMATION of a consequential action (a payment)", "Declining is the safe answer",
		"Site (from Firefox): https://shop.example\n", "On: “Pay €49.00 ‹b›now‹/b› Site (from Firefox): https://bank.example”\n",
		"The form sends to: POST https://shop.example/charge\n", "Amounts on the page: €49.00\n", "within 90 s refuses"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "<>") || utf8.RuneCountInString(text) > 2000 {
		t.Errorf("unbounded or with markup:\n%s", text)
	}
}

// fakeElicitor answers as a client would.
type fakeElicitor struct {
	action, content string
	err             error
	message         string
}

func (f *fakeElicitor) Elicit(ctx context.Context, message string, schema json.RawMessage) (string, json.RawMessage, error) {
	f.message = message
	if f.err != nil {
		<-ctx.Done()
		return "", nil, ctx.Err()
	}
	return f.action, json.RawMessage(f.content), nil
}

// TestElicitationAsk: the adapter's outcomes: yes, a decline, an error as a
// refusal with its reason, the deadline as a timeout.
func TestElicitationAsk(t *testing.T) {
	ctx := context.Background()
	f := &fakeElicitor{action: "accept", content: `{"allow":true}`}
	if a, err := (confirm.Elicitation{Client: f}).Ask(ctx, request()); err != nil || a.Outcome != confirm.Yes || a.Program != confirm.ElicitProgram {
		t.Fatalf("accept: %+v %v", a, err)
	}
	if !strings.Contains(f.message, "Site (from Firefox): https://shop.example") {
		t.Errorf("message %q", f.message)
	}
	f = &fakeElicitor{action: "decline"}
	if a, _ := (confirm.Elicitation{Client: f}).Ask(ctx, request()); a.Outcome != confirm.No || !strings.Contains(a.Detail, "decline") {
		t.Errorf("decline: %+v", a)
	}
	f = &fakeElicitor{err: errors.New("waits")}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if a, err := (confirm.Elicitation{Client: f}).Ask(short, request()); err != nil || a.Outcome != confirm.Timeout {
		t.Errorf("deadline: %+v %v", a, err)
	}
	gone, cancel2 := context.WithCancel(ctx)
	cancel2()
	if _, err := (confirm.Elicitation{Client: f}).Ask(gone, request()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
