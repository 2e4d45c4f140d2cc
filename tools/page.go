package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

var snapshotTool = tool[snapshotArgs, snapshotOut]{
	Name: "snapshot_page", Title: "Snapshot page",
	Description: "The selected page's visible actionable elements in document order (hidden file inputs too): controls, click targets without a role (`clickable`), drag items and drop targets, named images, headings; a line each: `[ref] role \"name\" …`; links end with `→ /path`; look-alikes and unnamed ones add near=\"text by it\"; frames' elements follow `--- frame … ---`. include_all_text adds the page text (each frame's under its line). Refs (e1, …) stay valid until the page navigates or the element changes or is replaced (then stale_element). Past max_elements, page with offset or filter with query." + untrustedNote,
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).snapshotPage,
}

type snapshotArgs struct {
	IncludeAllText bool    `json:"include_all_text" default:"false" desc:"add the visible page text"`
	MaxElements    int     `json:"max_elements" min:"1" limit:"max_elements" desc:"most elements to list"`
	MaxTextChars   int     `json:"max_text_chars" min:"0" limit:"max_text_chars" desc:"most text characters"`
	Offset         int     `json:"offset" min:"0" max:"1000000" default:"0" desc:"skip this many (matching) elements"`
	Query          *string `json:"query" min:"1" max:"200" desc:"keep elements whose role, tag, name, value or link has this (any case)"`
}

type snapshotOut struct {
	said
	TabID          string       `json:"tab_id"`
	Generation     uint64       `json:"generation"`
	Title          browser.Page `json:"title"`
	URL            browser.Page `json:"url"`
	Elements       int          `json:"elements"`
	TotalElements  int          `json:"total_elements"`
	Truncated      bool         `json:"truncated"`
	Offset         int          `json:"offset"`
	Frames         int          `json:"frames"`
	Query          string       `json:"query,omitempty"`
	AllElements    *int         `json:"all_elements,omitempty"`
	NextOffset     *int         `json:"next_offset,omitempty"`
	TextChars      *int         `json:"text_chars,omitempty"`
	TotalTextChars *int         `json:"total_text_chars,omitempty"`
	TextTruncated  *bool        `json:"text_truncated,omitempty"`
	InertElements  int          `json:"inert_elements,omitempty"`
}

func (tb *Table) snapshotPage(ctx context.Context, a *snapshotArgs, _ browser.Progress) (snapshotOut, error) {
	args := pagejs.SnapshotArgs{MaxElements: a.MaxElements, MaxTextChars: a.MaxTextChars, IncludeAllText: a.IncludeAllText, Offset: a.Offset}
	if a.Query != nil {
		args.Query = *a.Query
	}
	snap, err := tb.eng.Snapshot(ctx, args)
	if err != nil {
		return snapshotOut{}, err
	}
	return tb.snapshotResult(&snap, args), nil
}

// snapshotResult renders a snapshot: the header, the element lines and page
// text between the untrusted-content markers, and the truncation lines.
func (tb *Table) snapshotResult(snap *browser.Snapshot, args pagejs.SnapshotArgs) snapshotOut {
	withText, r := args.IncludeAllText, snap.Result
	u := browser.NewUntrusted()
	u.Grow(48*len(snap.Lines) + 1024) // ≈35 bytes per element line on typical pages
	u.Field("Page", r.Title, 200)
	u.Field("URL", r.URL, 500)
	for _, l := range snap.Lines {
		u.Line(l)
	}
	text := ""
	if r.Text != nil {
		text = *r.Text
	}
	if withText && text != "" {
		u.Line("--- page text ---")
		u.Text(text)
	}
	for _, f := range snap.FrameTexts { // (each frame's text under its line)
		u.Line(f.Line)
		u.Text(f.Text)
		u.Line("--- end of frame ---")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Snapshot of %s, generation %d: %s.", snap.TabID, snap.Generation, shownElements(args, snap.Shown, snap.Total, snap.All))
	if snap.Inert > 0 {
		b.WriteString(" " + browser.InertNote(snap.Inert))
	}
	b.WriteString("\n")
	b.WriteString(u.String())
	next := args.Offset + snap.Shown
	truncated := next < snap.Total
	if truncated {
		fmt.Fprintf(&b, "\n[truncated: %s shown, in document order; next: snapshot_page %s]",
			shownRange(args.Offset, snap.Shown, snap.Total), nextCall(args, next))
	}
	if snap.FramesSkipped != "" {
		b.WriteString("\n[frames not shown: " + snap.FramesSkipped + "]")
	}
	textCut := withText && browser.UTF16Len(text) < r.TextTotal
	if textCut {
		fmt.Fprintf(&b, "\n[text truncated: %d of %d characters shown; raise max_text_chars (limit %d)]",
			browser.UTF16Len(text), r.TextTotal, tb.opts.MaxTextChars)
	}
	st := snapshotOut{
		TabID: snap.TabID, Generation: snap.Generation, Title: browser.PageTitle(r.Title), URL: browser.PageURL(r.URL),
		Elements: snap.Shown, TotalElements: snap.Total, Truncated: truncated, Offset: args.Offset, Frames: snap.Frames,
		InertElements: snap.Inert,
	}
	if args.Query != "" {
		st.Query, st.AllElements = args.Query, &snap.All
	}
	if truncated {
		st.NextOffset = &next
	}
	if withText {
		chars := browser.UTF16Len(text)
		st.TextChars, st.TotalTextChars, st.TextTruncated = &chars, &r.TextTotal, &textCut
	}
	st.text = b.String()
	return st
}

// shownElements says how many elements the snapshot lists, and of how many.
func shownElements(a pagejs.SnapshotArgs, n, total, all int) string {
	out := browser.Plural(n, "element", "elements")
	if a.Query != "" {
		out += fmt.Sprintf(" (%d of the page's %d match %s)", total, all, strconv.Quote(a.Query))
	}
	if a.Offset > 0 || n < total {
		out += " (" + shownRange(a.Offset, n, total) + ")"
	}
	return out
}

// shownRange names the listed elements by position: "501–1000 of 3000".
func shownRange(offset, n, total int) string {
	if n == 0 {
		return fmt.Sprintf("none from offset %d of %d", offset, total)
	}
	return fmt.Sprintf("%d–%d of %d", offset+1, offset+n, total)
}

// nextCall is the exact snapshot_page arguments that continue where this
// snapshot stopped, as JSON.
func nextCall(a pagejs.SnapshotArgs, next int) string {
	type call struct {
		Offset         int    `json:"offset"`
		MaxElements    int    `json:"max_elements"`
		Query          string `json:"query,omitempty"`
		IncludeAllText bool   `json:"include_all_text,omitempty"`
	}
	c := call{Offset: next, MaxElements: a.MaxElements, Query: a.Query, IncludeAllText: a.IncludeAllText}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprintf(`{"offset":%d}`, next)
	}
	return string(b)
}

func trustNote(trusted bool, info browser.ExecInfo) string {
	if trusted {
		return "trusted input"
	}
	if info.Reason() != "" {
		return "synthetic page-script event, not trusted: " + info.Reason()
	}
	return "synthetic page-script event, not trusted"
}

// actionText is an action's result text; the URL it navigated to and the
// page-derived fields in extra follow inside markers. With an observation
// of the new page, its elements follow (addObs).
func actionText(verb, ref string, trusted bool, info browser.ExecInfo, urlNow string, navigated bool, note string, obs *browser.Observation, extra ...browser.PageField) string {
	t := fmt.Sprintf("%s %s (%s).%s", verb, ref, trustNote(trusted, info), note)
	u := browser.NewUntrusted()
	if navigated {
		t += " The page changed (its URL is below): all earlier refs are now stale"
		if obs != nil {
			t += "; the new page's elements follow."
		} else {
			t += ", take a new snapshot."
		}
		u.Field("URL", urlNow, 300)
	}
	for _, f := range extra {
		u.Field(f.Label, f.Value, f.Max)
	}
	if !u.Empty() {
		t += "\n" + u.String()
	}
	return t
}

var clickTool = tool[clickArgs, clickOut]{
	Name: "click", Title: "Click element",
	Description: "Click a ref: trusted when available (default actions included), else a page-script click. Refuses disabled, changed, covered and inert elements and file inputs (use upload_files). Waits for quiet (at most wait_after_ms), then reports any navigation (refs go stale), download, tab or dialog it opened, and what changed (at most 30 lines).",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).click,
}

type clickArgs struct {
	Element     string  `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	WaitAfterMS int     `json:"wait_after_ms" min:"0" max:"5000" default:"250" desc:"most ms to wait for quiet"`
	Observe     bool    `json:"observe" default:"true" desc:"false: omit what changed"`
	Intent      *string `json:"intent" enum:"payment,deletion,secret_change,submission" desc:"the user confirms it"`
}

type clickOut struct {
	said
	acted
	checked
	opened
	OpenedTabs []string `json:"opened_tabs,omitempty"`
}

func (tb *Table) click(ctx context.Context, a *clickArgs, _ browser.Progress) (clickOut, error) {
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return clickOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachPointer); err != nil {
		return clickOut{}, err
	}
	if err := op.Guard(ctx, browser.Gesture{Mode: "click", Intents: intents(a.Intent)}); err != nil {
		return clickOut{}, err
	}
	l := op.Element()
	openers := op.ActivateWithOpeners(ctx)
	var r pagejs.ActionResult
	wait := time.Duration(a.WaitAfterMS) * time.Millisecond
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Click, pagejs.ClickArgs{Sel: l.Sel(), FP: l.FP(), Ref: l.Node(), At: op.Point(), Watch: wait > 0}, &r)
	if out, ok := dialogAnswer(op, "Clicked", a.Element, info, err); ok {
		out.text += confirmedNote(op)
		return clickOut{said: out.said, acted: out.acted, opened: out.opened}, nil
	}
	if err != nil {
		return clickOut{}, err
	}
	urlNow, nav, obs, tabs, err := op.EndOpened(ctx, r.Before(), wait, a.Observe, openers)
	if err != nil {
		return clickOut{}, err
	}
	// A dialog the page opened after the click (a timer, a request's
	// answer) does not make the click fail: it is reported as the click's.
	// The observation asked already when it could.
	if err := noDialogSince(ctx, op, obs); err != nil {
		if out, ok := dialogAnswer(op, "Clicked", a.Element, info, err); ok {
			return clickOut{said: out.said, acted: out.acted, opened: out.opened}, nil
		}
		return clickOut{}, err
	}
	trusted := info.Trusted(r.Trusted)
	out := clickOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info)}
	note := confirmedNote(op) + refNote(l, info)
	if len(tabs) > 0 {
		out.OpenedTabs = tabs
		note += " The click opened " + strings.Join(tabs, ", ") + " (not selected; select_tab to work in it, close_tab to close it)."
		obs.DropTabs() // said here, with close_tab
	}
	out.text = actionText("Clicked", a.Element, trusted, info, urlNow, nav, note, obs, frameFields(l)...)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

// noDialogSince is dialog_open when the tab shows a dialog, unless obs
// (an observation just made) saw none.
func noDialogSince(ctx context.Context, op *browser.Op, obs *browser.Observation) error {
	if obs.SawNoDialog() {
		return nil
	}
	return op.NoDialog(ctx)
}

var fillTool = tool[fillArgs, fillOut]{
	Name: "fill", Title: "Fill field",
	Description: "Set the value of a text field, textarea, select (option value or label) or editable region at once, as React and friends notice; passwords are never echoed; a custom select (sl-select): click it, then the option. submit=true submits the form. Ends with what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).fill,
}

type fillArgs struct {
	Element     string  `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	Value       string  `json:"value" max:"100000" desc:"the new value"`
	Submit      bool    `json:"submit" default:"false" desc:"then submit its form"`
	WaitAfterMS int     `json:"wait_after_ms" min:"0" max:"5000" default:"250" desc:"ms wait cap"`
	Observe     bool    `json:"observe" default:"true" desc:"false: omit what changed"`
	Intent      *string `json:"intent" enum:"payment,deletion,secret_change,submission" desc:"the user confirms it"`
}

type fillOut struct {
	said
	acted
	checked
	Submitted bool          `json:"submitted"`
	Value     *browser.Page `json:"value,omitempty"`
	Shown     *browser.Page `json:"shown,omitempty"`
}

func (tb *Table) fill(ctx context.Context, a *fillArgs, _ browser.Progress) (fillOut, error) {
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return fillOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
		return fillOut{}, err
	}
	l := op.Element()
	submit := a.Submit
	if submit || a.Intent != nil {
		mode := map[bool]string{true: "submit", false: "fill"}[submit]
		if err := op.Guard(ctx, browser.Gesture{Mode: mode, Intents: intents(a.Intent)}); err != nil {
			return fillOut{}, err
		}
	}
	settles := (submit || a.Observe) && a.WaitAfterMS > 0 // (op.End below)
	op.Activate(ctx)
	var r pagejs.ActionResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Fill, pagejs.FillArgs{Sel: l.Sel(), FP: l.FP(), Value: a.Value, Submit: submit, Ref: l.Node(), Unwatched: !settles}, &r)
	if e, ok := browser.AsError(err); ok && e.Code == errcode.OptionNotFound {
		return fillOut{}, listOptions(ctx, op, a.Element, a.Value, e)
	}
	if err != nil {
		return fillOut{}, err
	}
	urlNow, nav := r.URL, false
	var obs *browser.Observation
	if submit || a.Observe {
		if urlNow, nav, obs, err = op.End(ctx, r.Before(), time.Duration(a.WaitAfterMS)*time.Millisecond, a.Observe); err != nil {
			return fillOut{}, err
		}
	}
	verb := "Filled"
	if submit {
		verb = "Filled and submitted the form of"
	}
	trusted := info.Trusted(r.Trusted)
	st := fillOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info), Submitted: submit}
	extra := frameFields(l)
	note := confirmedNote(op) + refNote(l, info)
	if r.Value != nil {
		v := browser.PageStr(*r.Value)
		st.Value = &v
		switch {
		case r.Shown != nil: // a select: value was matched by option value or label
			shown := browser.PageStr(*r.Shown)
			st.Shown = &shown
			note += " The select now shows the option below."
			if r.Kept != nil && !*r.Kept {
				note += " The page's change handler picked another option than the one asked for; the select shows the one below."
			}
			extra = append(extra, browser.PageField{Label: "Shows", Value: *r.Shown, Max: 200})
		case *r.Value != a.Value:
			note += " The page changed or limited the value: the field now holds the value below."
			extra = append(extra, browser.PageField{Label: "Value", Value: *r.Value, Max: 200})
		}
	}
	st.text = actionText(verb, a.Element, trusted, info, urlNow, nav, note, obs, extra...)
	addObs(obs, &st.said, &st.observed)
	return st, nil
}

var typeTextTool = tool[typeTextArgs, typeTextOut]{
	Name: "type_text", Title: "Type text",
	Description: "Type text key by key after the field's content, trusted where available; rich editors continue the last paragraph, newlines are Enter. Prefer fill unless the page reacts to each key. Ends with what changed.",
	Annotations: Annotations{OpenWorld: true},
	Run:         (*Table).typeText,
}

type typeTextArgs struct {
	Element     string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	Text        string `json:"text" min:"1" max:"10000" desc:"text to type"`
	DelayMS     int    `json:"delay_ms" min:"0" max:"1000" default:"0" desc:"ms between keys"`
	WaitAfterMS int    `json:"wait_after_ms" min:"0" max:"5000" default:"250" desc:"ms wait cap"`
	Observe     bool   `json:"observe" default:"true" desc:"false: omit what changed"`
}

type typeTextOut struct {
	said
	acted
	checked
	Characters int `json:"characters"`
}

// typeChunk is how many characters one evaluation types when there is no
// delay between characters; cancellation is checked between chunks.
const typeChunk = 200

func (tb *Table) typeText(ctx context.Context, a *typeTextArgs, p browser.Progress) (typeTextOut, error) {
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return typeTextOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
		return typeTextOut{}, err
	}
	l := op.Element()
	delay := a.DelayMS
	size := typeChunk
	if delay > 0 {
		size = 1
	}
	runes := []rune(a.Text)
	limit := time.Duration(0)
	if a.Observe {
		limit = time.Duration(a.WaitAfterMS) * time.Millisecond
	}
	op.Activate(ctx)
	var r pagejs.ActionResult
	var info browser.ExecInfo
	for i := 0; i < len(runes); i += size {
		if i > 0 {
			if err := browser.Sleep(ctx, time.Duration(delay)*time.Millisecond); err != nil {
				return typeTextOut{}, fmt.Errorf("after %d of %d characters: %w", i, len(runes), err)
			}
		}
		chunk := string(runes[i:min(i+size, len(runes))])
		info, err = op.Run(ctx, browser.ActionRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: l.Sel(), FP: l.FP(), Text: chunk, FirstChunk: i == 0, Ref: l.Node(), Unwatched: limit == 0}, &r)
		if err != nil {
			if i > 0 && ctx.Err() == nil && op.Sync() {
				// The typing made the page navigate: the element is gone
				// with its document, whatever the next chunk found.
				err = browser.Errorf(errcode.TargetReplaced, "the page navigated while typing; take a new snapshot")
			}
			if e, ok := browser.AsError(err); ok && i > 0 {
				e.Message = fmt.Sprintf("%s (after %d of %d characters were typed)", e.Message, i, len(runes))
			}
			return typeTextOut{}, err
		}
		p.Report(float64(min(i+size, len(runes))), float64(len(runes)), "typing")
	}
	urlNow, nav, obs, err := op.End(ctx, r.Before(), limit, a.Observe)
	if err != nil {
		return typeTextOut{}, err
	}
	trusted := info.Trusted(r.Trusted)
	out := typeTextOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info), Characters: len(runes)}
	out.text = actionText(fmt.Sprintf("Typed %s into", browser.Plural(len(runes), "character", "characters")), a.Element, trusted, info, urlNow, nav, refNote(l, info), obs, frameFields(l)...)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

var pressKeyTool = tool[pressKeyArgs, pressKeyOut]{
	Name: "press_key", Title: "Press key",
	Description: "Press a key on a ref or the focused element: a named key or one character (see key), with modifiers joined by + (Control+k, Shift+Tab). Tab/window-closing shortcuts are refused. Trusted where available. Ends with the focus and what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).pressKey,
}

type pressKeyArgs struct {
	Key     string  `json:"key" min:"1" max:"40" desc:"e.g. Enter, a, Control+k, Shift+Tab"`
	Element *string `json:"element" min:"2" max:"16" desc:"ref; default: the focused element"`
	Observe bool    `json:"observe" default:"true" desc:"false: omit what changed"`
	Intent  *string `json:"intent" enum:"payment,deletion,secret_change,submission" desc:"the user confirms it"`
}

type pressKeyOut struct {
	said
	Key string `json:"key,omitempty"`
	acted
	checked
	opened
	Focused *browser.Page `json:"focused,omitempty"`
}

func (tb *Table) pressKey(ctx context.Context, a *pressKeyArgs, _ browser.Progress) (pressKeyOut, error) {
	combo, err := parseKey(a.Key)
	if err != nil {
		return pressKeyOut{}, err
	}
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return pressKeyOut{}, err
	}
	defer op.Release()
	args := pagejs.PressKeyArgs{Key: combo.Key, Mods: combo.Mods}
	what := "the focused element"
	var l *browser.Locator
	if a.Element != nil {
		if l, err = op.Use(*a.Element); err != nil {
			return pressKeyOut{}, err
		}
		if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
			return pressKeyOut{}, err
		}
		fp := l.FP()
		args.Sel, args.FP, args.Ref = l.Sel(), &fp, l.Node()
		what = *a.Element
	} else {
		op.UseFocus(ctx) // the focused element may be inside a frame
	}
	if err := op.Guard(ctx, browser.Gesture{Mode: "key", Key: combo.Key, Intents: intents(a.Intent)}); err != nil {
		return pressKeyOut{}, err
	}
	op.Activate(ctx)
	var r pagejs.ActionResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.PressKey, args, &r)
	if out, ok := dialogAnswer(op, "Pressed "+a.Key+" on", what, info, err); ok {
		out.text += confirmedNote(op)
		return pressKeyOut{said: out.said, acted: out.acted, opened: out.opened}, nil
	}
	if err != nil {
		return pressKeyOut{}, err
	}
	op.ExpectDownloads() // (Enter on a link that downloads)
	urlNow, nav, obs, err := op.End(ctx, r.Before(), browser.DefaultSettleCap, a.Observe)
	if err != nil {
		return pressKeyOut{}, err
	}
	extra := frameFields(l)
	if r.Focused != "" && !nav {
		extra = append(extra, browser.PageField{Label: "Focus", Value: r.Focused, Max: 120})
	}
	trusted := info.Trusted(r.Trusted)
	focused := browser.PageStr(r.Focused)
	out := pressKeyOut{Key: combo.String(), acted: actedOn("", trusted, urlNow, nav), Focused: &focused}
	if l != nil {
		out.checked = checkedRef(l, info)
	}
	note := confirmedNote(op) + refNote(l, info)
	out.text = actionText("Pressed "+combo.String()+" on", what, trusted, info, urlNow, nav, note, obs, extra...)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

var navigateTool = tool[navigateArgs, navigateOut]{
	Name: "navigate", Title: "Navigate",
	Description: "Load an http(s) URL in the selected tab, or go back, forward or reload (history). Refs go stale, except within the same document. Reports the final URL and status; navigation_failed with Firefox's reason; dialog_open for a dialog while loading or a beforeunload prompt. Ends with the new page's elements.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).navigate,
}

type navigateArgs struct {
	URL       *string  `json:"url" min:"8" max:"8192" desc:"absolute http(s) URL"`
	History   *string  `json:"history" enum:"back,forward,reload" desc:"instead of url"`
	Wait      string   `json:"wait" enum:"none,dom,complete" default:"dom" desc:"dom: interactive; complete: loaded; none"`
	TimeoutMS int      `json:"timeout_ms" min:"0" max:"120000" default:"30000" desc:"then navigation_timeout"`
	Observe   bool     `json:"observe" default:"true" desc:"false: omit what changed"`
	_         struct{} `oneof:"url,history" msg:"give exactly one of url (to load a page) or history (back, forward or reload)"`
}

// navigateOut is navigate's result, by url or history.
type navigateOut struct {
	said
	History    string        `json:"history,omitempty"`
	URL        browser.Page  `json:"url"`
	Generation uint64        `json:"generation"`
	Waited     string        `json:"waited"`
	Index      *int          `json:"index,omitempty"`
	Count      *int          `json:"count,omitempty"`
	Title      *browser.Page `json:"title,omitempty"`
	Status     int           `json:"status,omitempty"`
	observed
}

// waits are navigate's wait state and timeout.
func (a *navigateArgs) waits() (wait string, timeout time.Duration) {
	return a.Wait, time.Duration(a.TimeoutMS) * time.Millisecond
}

// checkURL accepts only absolute http(s) URLs without credentials.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case hostFirst(raw, u, err):
		// "example.com/jobs", "localhost:8080/x": a host with no scheme.
		first, other := "https://", "http://"
		if loopback(raw) {
			first, other = other, first
		}
		return nil, browser.Errorf(errcode.InvalidArguments, "url needs its scheme: %s (or %s)", browser.Quote(first+raw, 300), other)
	case err != nil:
		return nil, browser.Errorf(errcode.InvalidArguments, "url is not a valid URL: %v", err)
	case u.Scheme == "":
		return nil, browser.Errorf(errcode.InvalidArguments, "url must be absolute, like https://example.com/path")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, browser.Errorf(errcode.InvalidArguments, "only http and https URLs can be opened, not %q", browser.Truncate(u.Scheme, 20)+":")
	case u.Host == "" || u.Opaque != "":
		return nil, browser.Errorf(errcode.InvalidArguments, "url must be absolute, like https://example.com/path")
	case u.User != nil:
		return nil, browser.Errorf(errcode.InvalidArguments, "url must not carry a user name or password")
	}
	return u, nil
}

// hostFirst tells whether raw (parsed as u, or failing with err) is a host
// written without a scheme: a first path segment with a dot
// ("example.com/jobs"), or a host and a port ("localhost:8080/x", which
// parses as a scheme, and "127.0.0.1:8080", which does not parse).
func hostFirst(raw string, u *url.URL, err error) bool {
	if err == nil && u.Scheme == "" && u.Host == "" {
		first, _, _ := strings.Cut(u.Path, "/")
		return strings.Contains(first, ".") && !strings.HasPrefix(first, ".")
	}
	if err == nil && (u.Opaque == "" || u.Host != "") {
		return false
	}
	v, perr := url.Parse("https://" + raw)
	if perr != nil || v.Host == "" || v.Port() == "" || v.User != nil {
		return false
	}
	port, aerr := strconv.Atoi(v.Port())
	h := v.Hostname()
	return aerr == nil && port > 0 && port <= 65535 && (strings.Contains(h, ".") || h == "localhost" || strings.Contains(h, ":"))
}

// loopback tells whether raw, a URL without its scheme, names this machine
// (where servers mostly speak plain http).
func loopback(raw string) bool {
	v, err := url.Parse("http://" + raw)
	if err != nil {
		return false
	}
	h := v.Hostname()
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1"
}

func (tb *Table) navigate(ctx context.Context, a *navigateArgs, p browser.Progress) (navigateOut, error) {
	if a.History != nil {
		return tb.navigateHistory(ctx, a, p)
	}
	u, err := checkURL(*a.URL)
	if err != nil {
		return navigateOut{}, err
	}
	wait, timeout := a.waits()
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return navigateOut{}, err
	}
	defer op.Release()
	nav, err := op.Navigate(ctx, u, wait, timeout)
	if err != nil {
		return navigateOut{}, err
	}
	blk := browser.NewUntrusted()
	blk.Field("URL", nav.URL, 500)
	text := fmt.Sprintf("Navigated %s (generation %d); the final URL is below.\n", op.TabID(), nav.Generation)
	if wait == "none" {
		text = fmt.Sprintf("Started loading the URL below in %s (not waited for; generation %d).\n", op.TabID(), nav.Generation)
	}
	st := navigateOut{URL: browser.PageURL(nav.URL), Generation: nav.Generation, Waited: wait}
	if nav.Title != "" {
		t := browser.PageTitle(nav.Title)
		st.Title = &t
		blk.Field("Title", nav.Title, 200)
	}
	if nav.Status > 0 {
		st.Status = nav.Status
		if nav.Status >= 400 {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" The server answered HTTP %d: the page is an error page.\n", nav.Status)
		} else {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" HTTP %d.\n", nav.Status)
		}
	}
	st.text = text + blk.String()
	if wait != "none" && a.Observe {
		addObs(op.ObserveNavigation(ctx), &st.said, &st.observed)
	}
	return st, nil
}

var waitForTool = tool[waitForArgs, waitForOut]{
	Name: "wait_for", Title: "Wait for condition",
	Description: "Wait until the page shows text, matches a CSS selector or its URL contains a string or matches a glob, or no longer does (state=absent), across navigations. Never met while a dialog blocks the page. Once met, lists the matching elements and what changed.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).waitFor,
}

type waitForArgs struct {
	Text        *string  `json:"text" min:"1" max:"1000" desc:"visible text, any case"`
	Selector    *string  `json:"selector" min:"1" max:"1000" desc:"CSS selector"`
	URLContains *string  `json:"url_contains" min:"1" max:"2048" desc:"URL substring, e.g. /checkout (decoded or not)"`
	URL         *string  `json:"url" min:"1" max:"2048" desc:"whole-URL glob: ** any, * any but /, e.g. **/orders/*"`
	State       string   `json:"state" enum:"present,absent" default:"present" desc:"absent: until it no longer holds"`
	TimeoutMS   int      `json:"timeout_ms" min:"0" max:"120000" default:"30000" desc:"then wait_timeout; 0 checks once"`
	PollMS      int      `json:"poll_ms" min:"50" max:"2000" default:"250" desc:"ms between checks"`
	Observe     bool     `json:"observe" default:"true" desc:"false: omit what changed"`
	_           struct{} `oneof:"text,selector,url_contains,url" msg:"give exactly one of text, selector, url_contains or url"`
}

type waitForOut struct {
	said
	Met       bool  `json:"met"`
	ElapsedMS int64 `json:"elapsed_ms"`
	Polls     int   `json:"polls"`
	observed
}

// condition is the page script's form of a wait_for call, and how the
// result names it.
func (a *waitForArgs) condition() (args pagejs.WaitForArgs, what string) {
	switch {
	case a.Text != nil:
		args.Text, what = *a.Text, "text "+browser.Quote(*a.Text, 100)
	case a.Selector != nil:
		args.Selector, what = *a.Selector, "selector "+browser.Quote(*a.Selector, 100)
	case a.URL != nil:
		args.URL, what = *a.URL, "URL matching "+browser.Quote(*a.URL, 100)
	default:
		args.URLContains, what = *a.URLContains, "URL containing "+browser.Quote(*a.URLContains, 100)
	}
	args.State = a.State
	return args, what
}

func (tb *Table) waitFor(ctx context.Context, a *waitForArgs, p browser.Progress) (waitForOut, error) {
	args, what := a.condition()
	timeout, poll := time.Duration(a.TimeoutMS)*time.Millisecond, time.Duration(a.PollMS)*time.Millisecond
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return waitForOut{}, err
	}
	defer op.Release()
	start := time.Now()
	deadline := start.Add(timeout)
	checks := 0
	for {
		r, waited, err := op.Check(ctx, args, min(poll, time.Until(deadline)), deadline.Add(poll))
		if err != nil {
			return waitForOut{}, err
		}
		if checks++; r != nil && r.Checks > 1 {
			checks += r.Checks - 1
		}
		if r != nil && r.Met {
			elapsed := time.Since(start)
			op.Sync()
			var obs *browser.Observation
			if a.Observe {
				var match func(*pagejs.Element) bool
				if a.State == "present" {
					match = waitMatch(args.Text, r.Matched)
				}
				obs = op.Observe(ctx, match)
			}
			// Never met under a dialog: the observation asked already when
			// it could.
			if err := noDialogSince(ctx, op, obs); err != nil {
				return waitForOut{}, err
			}
			out := waitForOut{Met: true, ElapsedMS: elapsed.Milliseconds(), Polls: checks}
			out.text = fmt.Sprintf("Condition met after %d ms: %s is %s.", elapsed.Milliseconds(), what, a.State)
			addObs(obs, &out.said, &out.observed)
			return out, nil
		}
		if !time.Now().Before(deadline) {
			return waitForOut{}, browser.Errorf(errcode.WaitTimeout, "%s was not %s within %d ms (%s)", what, a.State, timeout.Milliseconds(), browser.Plural(checks, "check", "checks"))
		}
		p.Report(float64(time.Since(start).Milliseconds()), float64(timeout.Milliseconds()), "waiting for "+what)
		if waited {
			continue // the check itself waited for the page to change
		}
		if err := op.PauseForChange(ctx, min(poll, time.Until(deadline))); err != nil {
			return waitForOut{}, err
		}
	}
}

var handleDialogTool = tool[handleDialogArgs, handleDialogOut]{
	Name: "handle_dialog", Title: "Answer a page dialog",
	Description: "Answer the dialog the selected page shows: accept is OK (for beforeunload: leave), dismiss is Cancel (stay); prompt_text answers a prompt.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).handleDialog,
}

type handleDialogOut struct {
	said
	Action string       `json:"action"`
	Type   string       `json:"type"`
	Text   browser.Page `json:"text"`
}

type handleDialogArgs struct {
	Action     string  `json:"action" enum:"accept,dismiss" desc:"accept or dismiss"`
	PromptText *string `json:"prompt_text" max:"10000" desc:"typed into a prompt"`
}

func (tb *Table) handleDialog(ctx context.Context, a *handleDialogArgs, _ browser.Progress) (handleDialogOut, error) {
	// No page-operation lock: the call that raised the dialog may still hold
	// it while its evaluation is held back.
	op, err := tb.eng.Watching(ctx)
	if err != nil {
		return handleDialogOut{}, err
	}
	d, err := op.AnswerDialog(ctx, a.Action, a.PromptText)
	if err != nil {
		return handleDialogOut{}, err
	}
	verb := map[string]string{"accept": "Accepted", "dismiss": "Dismissed"}[a.Action]
	out := handleDialogOut{Action: a.Action, Type: d.Type, Text: browser.PageStrN(d.Text.Raw(), 2000)}
	out.text = fmt.Sprintf("%s the %s dialog; its text was:\n%s", verb, d.Type, browser.Marked("Dialog text", d.Text.Raw(), 200))
	if op.Confirmed() {
		out.text += "\n" + confirmedSentence(op) // (the sentence every allowed action's answer carries)
	}
	return out, nil
}

// waitMatch picks the elements a met wait_for condition names: those whose
// selector the page matched (selector), or whose name or value holds the
// text (text).
func waitMatch(text string, sels []pagejs.Sel) func(*pagejs.Element) bool {
	if len(sels) > 0 {
		want := make(map[string]bool, len(sels))
		for _, sel := range sels {
			want[strings.Join(sel, "\x00")] = true
		}
		return func(e *pagejs.Element) bool { return want[strings.Join(e.Sel, "\x00")] }
	}
	needle := strings.ToLower(strings.Join(strings.Fields(text), " "))
	if needle == "" {
		return nil
	}
	return func(e *pagejs.Element) bool {
		if strings.Contains(strings.ToLower(e.Name), needle) {
			return true
		}
		return e.Value != nil && strings.Contains(strings.ToLower(*e.Value), needle)
	}
}
