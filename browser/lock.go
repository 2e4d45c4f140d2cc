package browser

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// Confirmer asks the user about one consequential action: package
// confirm's Client (the window helper), or the MCP client's elicitation.
type Confirmer interface {
	Ask(ctx context.Context, r confirm.Request) (confirm.Answer, error)
	Availability() confirm.Availability
}

// ConfirmOff is the ConfirmMode that asks nobody (development builds only);
// ConfirmElicit asks through the call's MCP client when it carries one
// (WithElicitation), else in the window.
const (
	ConfirmOff    = "off"
	ConfirmElicit = "elicit"
)

// Where the user allowed a gesture (Op.ConfirmedVia).
const (
	ConfirmedInWindow = "window"
	ConfirmedInClient = "mcp_client"
)

// Asker asks the user about one consequential action. The call's MCP
// client is one (confirm.Elicitation over package mcp's elicitor).
type Asker interface {
	Ask(ctx context.Context, r confirm.Request) (confirm.Answer, error)
}

type elicitationKey struct{}

// WithElicitation returns ctx carrying a, the asker of the tool call's MCP
// client, which the lock uses in mode elicit instead of the window. It is
// the call's own: the MCP layer offers it only when that call's client
// declared the elicitation capability (not for a modern-era call), so it
// travels with the call, not in Options.
func WithElicitation(ctx context.Context, a Asker) context.Context {
	return context.WithValue(ctx, elicitationKey{}, a)
}

// Elicitation is the asker WithElicitation put in ctx, nil without one.
func Elicitation(ctx context.Context) Asker {
	a, _ := ctx.Value(elicitationKey{}).(Asker)
	return a
}

// Gesture is what an action is about to do, for the lock on consequential
// actions: Mode "click", "key" (Key), "submit" (fill's submit) or "fill"
// (a fill that submits nothing: only an intent arms it), or a
// dialog to accept (Dialog, its text as Firefox reports it). Intents are the
// categories the caller declared (the intent argument): they only add.
type Gesture struct {
	Mode string
	// On is the element to read instead of the Op's (fill_form's submit
	// reads its last field, whose form it submits).
	On      *Locator
	Key     string
	Dialog  *Dialog
	Intents []confirm.Category
}

// Guard reads the page at the gesture (Gesture script, in the action's
// realm, on the Op's element or the focused one) and applies the
// vocabulary; when the lock is armed it asks the user and returns nil only
// on their yes (then Confirmed reports it). A no or no answer is
// confirmation_refused, no way to ask confirmation_unavailable: either way
// nothing has reached the page. Keys other than Enter and Space read
// nothing (only the intent can arm them).
func (o *Op) Guard(ctx context.Context, g Gesture) error {
	o.confirmedVia = ""
	var r pagejs.GestureResult
	reading := confirm.Reading{}
	if g.Dialog != nil {
		reading.Dialog = g.Dialog.Text.Raw()
	} else if g.Mode == "click" || g.Mode == "submit" || (g.Mode == "key" && (g.Key == "Enter" || g.Key == "Space")) {
		args := pagejs.GestureArgs{Mode: g.Mode, Key: g.Key}
		l := o.l
		if g.On != nil {
			l = g.On
		}
		if l != nil {
			fp := l.FP()
			args.Sel, args.FP, args.Ref = l.Sel(), &fp, l.Node()
		}
		if _, err := o.s.exec(ctx, o.pg, ActionRealm, pagejs.Gesture, args, &r); err != nil {
			return err
		}
		reading = confirm.Reading{Text: r.Text, Kind: confirm.Kind(r.Kind), Submits: r.Submits, Fields: r.Fields, Frames: r.Frames, Near: r.Near}
	}
	v := confirm.Assess(reading, g.Intents...)
	if !v.Armed() {
		return nil
	}
	return o.ask(ctx, g, v, r)
}

// Confirmed reports whether the user allowed the Op's last guarded gesture.
func (o *Op) Confirmed() bool { return o.confirmedVia != "" }

// ConfirmedVia says where the user allowed the Op's last guarded gesture:
// ConfirmedInWindow, ConfirmedInClient, or "" when no yes was needed or
// given.
func (o *Op) ConfirmedVia() string { return o.confirmedVia }

func (o *Op) ask(ctx context.Context, g Gesture, v confirm.Verdict, r pagejs.GestureResult) error {
	s := o.s
	if s.opts.ConfirmMode == ConfirmOff {
		s.log.Warn("consequential action NOT confirmed: FIREFOX_MCP_CONFIRM=off", "categories", v.Categories)
		return nil
	}
	req := o.request(ctx, g, v, r)
	asker, via := o.asker(ctx)
	if asker == nil {
		return Errorf(errcode.ConfirmationUnavailable, "this action (%s) needs the user's yes, and no confirmation window is available; nothing was sent to the page. Fix: %s", categoryList(v.Categories), confirm.Fix)
	}
	start := time.Now()
	actx, cancel := ctx, context.CancelFunc(func() {})
	if via == ConfirmedInClient {
		actx, cancel = context.WithTimeout(ctx, elicitTimeout) // the window program times itself
	}
	a, err := asker.Ask(actx, req)
	cancel()
	s.log.Info("confirmation", "categories", v.Categories, "outcome", a.Outcome, "program", a.Program, "via", via, "ms", time.Since(start).Milliseconds())
	if err == nil && a.Outcome == confirm.Yes && ctx.Err() == nil {
		o.confirmedVia = via
		return nil
	}
	return answerError(ctx, v, a, err, via)
}

// elicitTimeout is how long the MCP client's answer is waited for: no
// answer in that time refuses (a test shortens it).
var elicitTimeout = confirm.AnswerTimeout

// asker is who asks about the gesture: the call's MCP client in mode
// elicit when the call carries one, else the window helper (nil: none).
func (o *Op) asker(ctx context.Context) (Asker, string) {
	if o.s.opts.ConfirmMode == ConfirmElicit {
		if e := Elicitation(ctx); e != nil {
			return e, ConfirmedInClient
		}
	}
	if o.s.opts.Confirm == nil {
		return nil, ""
	}
	return o.s.opts.Confirm, ConfirmedInWindow
}

// answerError is the error of an ask that did not end in a yes.
func answerError(ctx context.Context, v confirm.Verdict, a confirm.Answer, err error, via string) error {
	cats := categoryList(v.Categories)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return Errorf(errcode.ConfirmationUnavailable, "this action (%s) needs the user's yes, and the confirmation window could not be shown (%v); nothing was sent to the page. Fix: %s", cats, err, confirm.Fix)
	case a.Outcome == confirm.Unavailable:
		return Errorf(errcode.ConfirmationUnavailable, "this action (%s) needs the user's yes, and no window could be shown: %s. Nothing was sent to the page.", cats, Truncate(a.Detail, 600))
	case a.Outcome == confirm.Timeout && via == ConfirmedInClient:
		return Errorf(errcode.ConfirmationRefused, "the user did not answer the confirmation in the MCP client within %d s, which refuses this action (%s); nothing was sent to the page. Do not retry unless the user asks.", int(confirm.AnswerTimeout/time.Second), cats)
	case a.Outcome == confirm.Timeout:
		return Errorf(errcode.ConfirmationRefused, "the user did not answer within %d s, which refuses this action (%s); nothing was sent to the page. Do not retry unless the user asks.", int(confirm.AnswerTimeout/time.Second), cats)
	case via == ConfirmedInClient:
		return Errorf(errcode.ConfirmationRefused, "this action (%s) was refused in the MCP client (%s); nothing was sent to the page. Do not retry unless the user asks.", cats, Truncate(a.Detail, 300))
	}
	return Errorf(errcode.ConfirmationRefused, "the user refused this action (%s); nothing was sent to the page. Do not retry unless the user asks.", cats)
}

// request is what the window shows: the tab's origin and the element's
// frame from Firefox (the watcher's targets), the rest read in the page.
func (o *Op) request(ctx context.Context, g Gesture, v confirm.Verdict, r pagejs.GestureResult) confirm.Request {
	req := confirm.Request{Categories: v.Categories, Reasons: v.Reasons(), Gesture: gestureWords(g),
		Element: r.Text, FormTarget: r.Action, FormMethod: r.Method, Amounts: v.Amounts, Files: r.Files}
	if g.Dialog != nil {
		req.Element = g.Dialog.Text.Raw()
	}
	if !r.Submits {
		req.FormTarget, req.FormMethod = "", ""
	}
	if t, err := o.pg.sel.watch.Current(ctx); err == nil {
		req.Origin = originOf(t.URL)
	}
	if req.Origin == "" {
		req.Origin = "(the selected tab's address is not known)"
	}
	if o.l != nil {
		if origin, ok := o.l.InFrame(); ok {
			req.FrameOrigin = originOf(origin)
		}
	}
	if len(req.Reasons) == 0 {
		req.Reasons = []string{"the agent declared it (intent)"}
	} else if len(g.Intents) > 0 {
		req.Reasons = append(req.Reasons, "the agent declared it (intent)")
	}
	return req
}

func gestureWords(g Gesture) string {
	switch {
	case g.Dialog != nil:
		return "accept the page's " + g.Dialog.Type + " dialog, whose text is shown under On"
	case g.Mode == "key":
		return "press " + g.Key + " on the element below"
	case g.Mode == "submit":
		return "fill a field and submit its form (the form's button is below)"
	case g.Mode == "fill":
		return "fill a field"
	}
	return "click the element below"
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return Truncate(raw, 200)
	}
	return u.Scheme + "://" + u.Host
}

func categoryList(cs []confirm.Category) string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// ConfirmStatus is the lock's configuration as browser_status reports it.
type ConfirmStatus struct {
	Mode    string // window, elicit or off
	Window  bool   // a window can be shown
	Program string // zenity or kdialog
	Problem string // why no window can be shown
	// ClientElicitation: this call's MCP client declared elicitation (an
	// Asker came with the call); used only in mode elicit.
	ClientElicitation bool
	// AsksIn is where an armed gesture of this client is asked about:
	// ConfirmedInClient, ConfirmedInWindow, or "" (off, or no window).
	AsksIn    string
	Available bool // an armed gesture can be asked about (or is not asked: off)
}

// ConfirmStatus reports the lock's mode, whether a window can be shown,
// and, for the call whose context ctx is, whether its MCP client is asked.
func (s *Session) ConfirmStatus(ctx context.Context) ConfirmStatus {
	st := ConfirmStatus{Mode: s.opts.ConfirmMode, ClientElicitation: Elicitation(ctx) != nil}
	if st.Mode == "" {
		st.Mode = "window"
	}
	if c := s.opts.Confirm; c != nil {
		a := c.Availability()
		st.Window, st.Program, st.Problem = a.OK(), a.Program, a.Problem
	} else if st.Mode != ConfirmOff {
		st.Problem = "no confirmation window helper is running"
	}
	switch {
	case st.Mode == ConfirmOff:
	case st.Mode == ConfirmElicit && st.ClientElicitation:
		st.AsksIn = ConfirmedInClient
	case st.Window:
		st.AsksIn = ConfirmedInWindow
	}
	st.Available = st.Mode == ConfirmOff || st.AsksIn != ""
	return st
}
