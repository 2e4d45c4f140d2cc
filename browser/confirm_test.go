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
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
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

// notAboutTheLock turns the lock off for a test whose fixture's words arm
// it (a Delete row, a "Send application" button, "Remove" chips) but which
// is about something else; why says what. The lock's own tests are in this
// file.
func notAboutTheLock(why string) func(*browser.Options) {
	_ = why // (said at the call)
	return func(o *browser.Options) { o.ConfirmMode = browser.ConfirmOff }
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
// wait is shortened to 20 s (windows take seconds to appear on a loaded
// machine, and zenity counts from its start) by the helper's test-only hook.
func lockSession(t *testing.T, opts ...func(*browser.Options)) (*session, *recorder, *xwin.Display) {
	t.Helper()
	return lockSessionWaiting(t, 20*time.Second, opts...)
}

// lockSessionWaiting is lockSession with windows that wait wait for an
// answer: a short one for a test in which nobody answers.
func lockSessionWaiting(t *testing.T, wait time.Duration, opts ...func(*browser.Options)) (*session, *recorder, *xwin.Display) {
	t.Helper()
	xwin.Need(t, "zenity")
	d := xwin.Start(t)
	rec := &recorder{c: xwin.Pair(t, &confirm.Helper{Env: d.Env(os.Getenv("PATH")), Run: xwin.Run, Timeout: wait})}
	return newSession(t, append(opts, func(o *browser.Options) { o.Confirm = rec })...), rec, d
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
	if st == nil {
		st = map[string]any{}
	}
	st["_text"] = res.Text
	if keys == nil {
		return st, e, 0, time.Time{}
	}
	return st, e, w.at.Sub(start), w.answered
}

// holds reports whether the page matches a CSS selector, waiting for it at
// most 1.5 s (an effect the action's settle did not wait for).
func holds(t *testing.T, s *session, sel string) bool {
	t.Helper()
	_, e := call(t, s, "wait_for", map[string]any{"selector": sel, "timeout_ms": 1500, "observe": false})
	if e != nil {
		t.Logf("wait_for %s: %v", sel, e)
	}
	return e == nil
}

// absent reports whether the page still does not match a CSS selector
// 300 ms after the call that was refused returned. The fixtures' handlers
// set their marks synchronously, in the event the action dispatched, so a
// dispatched action's mark is there when its call returns; the 300 ms are a
// margin. (holds, which waits 1.5 s for a mark, cost 1.5 s per refusal.)
func absent(t *testing.T, s *session, sel string) bool {
	t.Helper()
	_, e := call(t, s, "wait_for", map[string]any{"selector": sel, "timeout_ms": 300, "observe": false})
	if e != nil && e.Code != errcode.WaitTimeout {
		t.Logf("wait_for %s: %v", sel, e)
	}
	return e != nil && e.Code == errcode.WaitTimeout
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
// cart ask nothing; paying asks, and a refusal (the default button, Escape;
// no answer: TestConfirmNoAnswer) leaves the page unpaid; a yes pays once,
// and the next click asks again.
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
	}{{"default button", "the user refused", xwin.Refuse}, {"escape", "the user refused", xwin.Escape}} {
		_, e, _, _ := answered(t, s, d, tc.keys, "click", map[string]any{"element": pay})
		wantCode(t, e, errcode.ConfirmationRefused)
		if !strings.Contains(e.Message, tc.says) {
			t.Errorf("%s: %s", tc.name, e.Message)
		}
		if e.Code.Retryable() {
			t.Errorf("%s: refusal is retryable", tc.name)
		}
		if !absent(t, s, "body[data-paid]") {
			t.Fatalf("%s: the page was paid", tc.name)
		}
	}
	for i := 1; i <= 2; i++ { // one answer covers one action: the second click asks again
		st, e, toWindow, keyAt := answered(t, s, d, xwin.Allow, "click", map[string]any{"element": pay})
		if e != nil || !strings.Contains(st["_text"].(string), tools.ConfirmedText) {
			t.Fatalf("allowed click: %v %v", e, st)
		}
		if !holds(t, s, fmt.Sprintf(`body[data-paid="%d"]`, i)) {
			t.Fatalf("allowed click %d did not pay once more", i)
		}
		t.Logf("figures: gesture to window %v, answer to action %v", toWindow.Round(time.Millisecond),
			pageMillis(t, s, "paid at").Sub(keyAt).Round(time.Millisecond))
	}
	reqs := rec.asked()
	if len(reqs) != 4 {
		t.Fatalf("%d questions, want 4 (one per click on Pay)", len(reqs))
	}
	r := reqs[3]
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

// TestConfirmNoAnswer: a window nobody answers refuses when its wait ends
// (3 s here, 90 s in the program), and nothing reaches the page.
func TestConfirmNoAnswer(t *testing.T) {
	s, rec, d := lockSessionWaiting(t, 3*time.Second)
	open(t, s, "checkout.html")
	start := time.Now()
	_, e, _, _ := answered(t, s, d, nil, "click", map[string]any{"element": ref(t, snapshot(t, s), "button", "Pay €49.00")})
	wantCode(t, e, errcode.ConfirmationRefused)
	if !strings.Contains(e.Message, "did not answer") || e.Code.Retryable() {
		t.Errorf("no answer: %v", e)
	}
	if took := time.Since(start); took < 3*time.Second {
		t.Errorf("refused after %v, before the window's 3 s wait ended", took.Round(time.Millisecond))
	}
	if !absent(t, s, "body[data-paid]") || len(rec.asked()) != 1 {
		t.Fatalf("no answer: paid, or %d questions", len(rec.asked()))
	}
}

// TestConfirmDeleteAccount: a delete-account page whose buttons raise a
// confirm(). The button's words ask before the click; the dialog's text
// ("permanently") asks before it is accepted, also behind a neutral button;
// dismissing asks nothing.
func TestConfirmDeleteAccount(t *testing.T) {
	s, rec, d := lockSession(t)
	open(t, s, "delete-account.html")
	snap := snapshot(t, s)
	// A neutral button: the click asks nothing, its dialog's text does.
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Continue to export")})
	if !strings.Contains(res.Text, "confirm dialog") || len(rec.asked()) != 0 {
		t.Fatalf("neutral click: %d asks\n%s", len(rec.asked()), res.Text)
	}
	_, e, _, _ := answered(t, s, d, xwin.Refuse, "handle_dialog", map[string]any{"action": "accept"})
	wantCode(t, e, errcode.ConfirmationRefused)
	must(t, s, "handle_dialog", map[string]any{"action": "dismiss"}) // asks nothing
	if n := len(rec.asked()); n != 1 || !absent(t, s, "body[data-erased]") {
		t.Fatalf("after a refused accept and a dismiss: %d asks, erased %v", n, !absent(t, s, "body[data-erased]"))
	}
	if r := rec.asked()[0]; !slices.Equal(r.Categories, []confirm.Category{confirm.Deletion}) || !strings.Contains(r.Element, "erased permanently") {
		t.Errorf("dialog question: %+v", r)
	}
	// The delete button: asked at the click, and again at the dialog.
	st, e, _, _ := answered(t, s, d, xwin.Allow, "click", map[string]any{"element": ref(t, snap, "button", "Delete my account")})
	if e != nil || !strings.Contains(st["_text"].(string), tools.ConfirmedText) {
		t.Fatalf("delete click: %v %v", e, st)
	}
	st, e, toWindow, keyAt := answered(t, s, d, xwin.Allow, "handle_dialog", map[string]any{"action": "accept"})
	if e != nil || !strings.Contains(st["_text"].(string), tools.ConfirmedText) || !holds(t, s, `body[data-deleted="1"]`) {
		t.Fatalf("accept: %v %v", e, st)
	}
	t.Logf("figures: gesture to window %v (dialog accept), answer to action %v", toWindow.Round(time.Millisecond),
		pageMillis(t, s, "deleted at").Sub(keyAt).Round(time.Millisecond))
	if n := len(rec.asked()); n != 3 {
		t.Errorf("%d questions, want 3", n)
	}
}

// TestConfirmChangePassword: a form with new-password fields. fill's submit
// and Enter in the field ask; a refusal sends nothing; the page's search
// form asks nothing.
func TestConfirmChangePassword(t *testing.T) {
	s, rec, d := lockSession(t)
	open(t, s, "change-password.html")
	snap := snapshot(t, s)
	search := ref(t, snap, "searchbox", "Search settings")
	must(t, s, "fill", map[string]any{"element": search, "value": "password"})
	must(t, s, "press_key", map[string]any{"element": search, "key": "Enter"})
	if !holds(t, s, `body[data-searched="1"]`) || len(rec.asked()) != 0 {
		t.Fatalf("search: %d asks\n%s", len(rec.asked()), pageText(t, s))
	}
	pw := ref(t, snap, "textbox", "New password")
	_, e, _, _ := answered(t, s, d, xwin.Escape, "fill", map[string]any{"element": pw, "value": "n3w-Secret!", "submit": true})
	wantCode(t, e, errcode.ConfirmationRefused)
	if !absent(t, s, "body[data-changed]") {
		t.Fatal("the refused submission reached the page")
	}
	must(t, s, "fill", map[string]any{"element": pw, "value": "n3w-Secret!"}) // no submission: asks nothing
	if n := len(rec.asked()); n != 1 {
		t.Fatalf("%d asks after a fill without submit", n)
	}
	st, e, _, _ := answered(t, s, d, xwin.Allow, "press_key", map[string]any{"element": pw, "key": "Enter"})
	if e != nil || !strings.Contains(st["_text"].(string), tools.ConfirmedText) || !holds(t, s, `body[data-changed="1"]`) {
		t.Fatalf("Enter in the new password: %v %v", e, st)
	}
	for _, r := range rec.asked() {
		if !slices.Equal(r.Categories, []confirm.Category{confirm.SecretChange}) || r.FormTarget != pages.URL+"/account/password" {
			t.Errorf("question %+v", r)
		}
	}
}

// TestConfirmApplication: a job application with a résumé attached by
// upload_files. Saving a draft asks nothing; sending the form (its button
// only says "Continue") asks, and shows the file.
func TestConfirmApplication(t *testing.T) {
	files := &memFiles{files: map[string][]byte{"/u/resume.pdf": []byte("%PDF-1.4 résumé")}, handles: map[uint32][]byte{}}
	s, rec, d := lockSession(t, func(o *browser.Options) { o.Files = files })
	open(t, s, "application.html")
	snap := snapshot(t, s)
	must(t, s, "upload_files", map[string]any{"element": ref(t, snap, "file", "Résumé"), "paths": []string{"/u/resume.pdf"}})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Save draft")})
	if !holds(t, s, `body[data-draft="1"]`) || len(rec.asked()) != 0 {
		t.Fatalf("save draft: %d asks", len(rec.asked()))
	}
	st, e, _, _ := answered(t, s, d, xwin.Allow, "click", map[string]any{"element": ref(t, snap, "button", "Continue")})
	if e != nil || !strings.Contains(st["_text"].(string), tools.ConfirmedText) || !holds(t, s, `body[data-submitted="1"][data-resume="resume.pdf"]`) {
		t.Fatalf("submit: %v %v", e, st)
	}
	r := rec.asked()[0]
	if !slices.Equal(r.Categories, []confirm.Category{confirm.Submission}) || !slices.Equal(r.Files, []string{"resume.pdf"}) ||
		r.FormMethod != "post" || !strings.Contains(strings.Join(r.Reasons, ";"), "carries files") {
		t.Errorf("question %+v", r)
	}
}

// TestConfirmNoFalseAlarms: search, filter, "Next", "Add to cart", "Apply
// coupon" and "Save draft" ask nothing (the sessions of the other tests
// count every question: TestMain prints the count).
func TestConfirmNoFalseAlarms(t *testing.T) {
	s := newSession(t)
	before := suiteAsks.Load()
	open(t, s, "shop.html")
	snap := snapshot(t, s)
	q := ref(t, snap, "searchbox", "Search")
	must(t, s, "fill", map[string]any{"element": q, "value": "headphones", "submit": true})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Filter")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Next")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Add to cart")})
	if !holds(t, s, `body[data-search="1"][data-filter="1"][data-address="1"][data-cart="1"]`) {
		t.Fatalf("the forms were not all sent:\n%s", pageText(t, s))
	}
	if n := suiteAsks.Load() - before; n != 0 {
		t.Fatalf("%d asks", n)
	}
	// fill_form's submit is guarded too: new-password fields arm it, and
	// with no window nothing is written.
	open(t, s, "change-password.html")
	pw := ref(t, snapshot(t, s), "textbox", "New password")
	_, e := call(t, s, "fill_form", map[string]any{"submit": true, "fields": []map[string]any{{"element": pw, "value": "n3w-Secret!"}}})
	wantCode(t, e, errcode.ConfirmationUnavailable)
	if !absent(t, s, "body[data-changed]") {
		t.Fatal("fill_form's refused submission reached the page")
	}
	suiteAsks.Add(-1) // (that one was asked for)
	open(t, s, "shop.html")
	snap = snapshot(t, s)
	// The caller can add a lock where the page's words did not.
	_, e = call(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Next"), "intent": "submission"})
	wantCode(t, e, errcode.ConfirmationUnavailable)
	suiteAsks.Add(-1) // (that one was asked for)
}

// TestConfirmUnavailable: without a display the helper shows nothing, the
// action fails closed with the fix, and nothing reaches the page; the same
// without any helper.
func TestConfirmUnavailable(t *testing.T) {
	c := xwin.Pair(t, &confirm.Helper{Env: []string{"PATH=" + os.Getenv("PATH")}, Run: xwin.Run})
	for name, opt := range map[string]func(*browser.Options){
		"no display": func(o *browser.Options) { o.Confirm = c },
		"no helper":  func(o *browser.Options) { o.Confirm = nil },
	} {
		s := newSession(t, opt)
		open(t, s, "checkout.html")
		_, e := call(t, s, "click", map[string]any{"element": ref(t, snapshot(t, s), "button", "Pay €49.00")})
		wantCode(t, e, errcode.ConfirmationUnavailable)
		if !strings.Contains(e.Message, "zenity") || !absent(t, s, "body[data-paid]") {
			t.Errorf("%s: %v", name, e)
		}
		st := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any)["confirmation"].(map[string]any)
		if st["mode"] != "window" || st["window_available"] != false {
			t.Errorf("%s: status %v", name, st)
		}
	}
}
