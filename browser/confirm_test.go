package browser_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/xwin"
)

// suiteAsks counts the questions the tests that are not about the lock
// asked (testOptions' confirmer): TestMain prints it, and each one also
// failed its action with confirmation_unavailable.
var suiteAsks atomic.Int64

// noWindow is the confirmer of every test session that is not about the
// lock: it counts the question and, like a machine without a display,
// shows nothing.
type noWindow struct{}

func (noWindow) Ask(_ context.Context, r confirm.Request) (confirm.Answer, error) {
	suiteAsks.Add(1)
	return confirm.Answer{ID: r.ID, Outcome: confirm.Unavailable, Detail: "tests that are not about the lock show no window"}, nil
}

func (noWindow) Availability() confirm.Availability {
	return confirm.Availability{Problem: "tests that are not about the lock show no window"}
}

// recorder wraps the real window helper's client and keeps each question.
type recorder struct {
	c    *confirm.Client
	mu   sync.Mutex
	reqs []confirm.Request
}

func (r *recorder) Ask(ctx context.Context, req confirm.Request) (confirm.Answer, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.c.Ask(ctx, req)
}

func (r *recorder) Availability() confirm.Availability { return r.c.Availability() }

func (r *recorder) asked() []confirm.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

const windowTitle = "firefox-rdp-mcp: allow"

// lockSession is a session whose questions go to real zenity windows on an
// Xvfb display, through the helper's socketpair protocol. The no-answer
// wait is shortened to 10 s by the helper's test-only hook.
func lockSession(t *testing.T) (*session, *recorder, *xwin.Display) {
	t.Helper()
	xwin.Need(t, "zenity")
	d := xwin.Start(t)
	rec := &recorder{c: xwin.Pair(t, &confirm.Helper{Env: d.Env(os.Getenv("PATH")), Run: xwin.Run, Timeout: 10 * time.Second})}
	return newSession(t, func(o *browser.Options) { o.Confirm = rec }), rec, d
}

// answered runs a tool call while a person answers its window with keys
// (nil: nobody answers). It returns the call's result and error, the time
// from the call to the window, and when the keys were pressed.
func answered(t *testing.T, s *session, d *xwin.Display, keys []string, name string, args any) (map[string]any, *browser.Error, time.Duration, time.Time) {
	t.Helper()
	type shown struct{ at, answered time.Time }
	ch := make(chan shown, 1)
	start := time.Now()
	go func() {
		if keys == nil {
			ch <- shown{}
			return
		}
		at, ans := d.Answer(t, windowTitle, keys)
		ch <- shown{at, ans}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, e := callCtx(ctx, t, s, name, args)
	w := <-ch
	st, _ := res.Structured.(map[string]any)
	if keys == nil {
		return st, e, 0, time.Time{}
	}
	return st, e, w.at.Sub(start), w.answered
}

// holds reports whether the page matches a CSS selector now.
func holds(t *testing.T, s *session, sel string) bool {
	t.Helper()
	_, e := call(t, s, "wait_for", map[string]any{"selector": sel, "timeout_ms": 300, "observe": false})
	return e == nil
}

// pageMillis reads the page's Date.now() after a label ("paid at 1733…").
func pageMillis(t *testing.T, s *session, label string) time.Time {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(label) + ` (\d{13})`).FindStringSubmatch(pageText(t, s))
	if m == nil {
		t.Fatalf("no %q time on the page", label)
	}
	ms, _ := strconv.ParseInt(m[1], 10, 64)
	return time.UnixMilli(ms)
}

// TestConfirmCheckout: a checkout whose card fields are in a frame of
// another origin (as Stripe Elements). Applying a coupon and adding to the
// cart ask nothing; paying asks, and a refusal (the default button, Escape,
// no answer) leaves the page unpaid; a yes pays once, and the next click
// asks again.
func TestConfirmCheckout(t *testing.T) {
	s, rec, d := lockSession(t)
	other := otherSite(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/checkout.html?other=" + url.QueryEscape(other), "wait": "complete"})
	snap := snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Apply coupon")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Add to cart")})
	if n := len(rec.asked()); n != 0 {
		t.Fatalf("coupon and cart asked %d times", n)
	}
	pay := ref(t, snap, "button", "Pay €49.00")
	for _, tc := range []struct {
		name, says string
		keys       []string
	}{{"default button", "the user refused", xwin.Refuse}, {"escape", "the user refused", xwin.Escape}, {"no answer", "did not answer", nil}} {
		_, e, _, _ := answered(t, s, d, tc.keys, "click", map[string]any{"element": pay})
		wantCode(t, e, errcode.ConfirmationRefused)
		if !strings.Contains(e.Message, tc.says) {
			t.Errorf("%s: %s", tc.name, e.Message)
		}
		if e.Code.Retryable() {
			t.Errorf("%s: refusal is retryable", tc.name)
		}
		if holds(t, s, "body[data-paid]") {
			t.Fatalf("%s: the page was paid", tc.name)
		}
	}
	for i := 1; i <= 2; i++ { // one answer covers one action: the second click asks again
		st, e, toWindow, keyAt := answered(t, s, d, xwin.Allow, "click", map[string]any{"element": pay})
		if e != nil || st["confirmed_by_user"] != true {
			t.Fatalf("allowed click: %v %v", e, st)
		}
		if !holds(t, s, fmt.Sprintf(`body[data-paid="%d"]`, i)) {
			t.Fatalf("allowed click %d did not pay once more", i)
		}
		t.Logf("figures: gesture to window %v, answer to action %v", toWindow.Round(time.Millisecond),
			pageMillis(t, s, "paid at").Sub(keyAt).Round(time.Millisecond))
	}
	reqs := rec.asked()
	if len(reqs) != 5 {
		t.Fatalf("%d questions, want 5 (one per click on Pay)", len(reqs))
	}
	r := reqs[4]
	u, _ := url.Parse(pages.URL)
	checks := map[string]bool{
		"category payment":     slices.Equal(r.Categories, []confirm.Category{confirm.Payment}),
		"origin from Firefox":  r.Origin == "http://"+u.Host,
		"form target":          r.FormTarget == pages.URL+"/charge" && r.FormMethod == "post",
		"amount":               slices.Contains(r.Amounts, "€49.00"),
		"element text":         r.Element == "Pay €49.00",
		"the card frame's row": slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.Contains(s, "payment frame of another origin") }),
		"the words' row":       slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.Contains(s, "pays") }),
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("%s: %+v", what, r)
		}
	}
}
