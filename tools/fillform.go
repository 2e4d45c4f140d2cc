package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

var fillFormTool = tool[fillFormArgs, fillFormOut]{
	Name: "fill_form", Title: "Fill form",
	Description: "Fill several fields at once: a string for text fields, textareas, editable regions and selects (value or label), true/false for checkboxes and radios. All are checked before any is written; a bad one fails the call, named. submit=true submits the last one's form. Ends with what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).fillForm,
}

type formField struct {
	Element string      `json:"element" min:"2" max:"16" desc:"ref"`
	Value   textOrCheck `json:"value" max:"100000" desc:"text, or true/false"`
}

type fillFormArgs struct {
	Fields      []formField `json:"fields" min:"1" max:"50" desc:"in order"`
	Submit      bool        `json:"submit" default:"false" desc:"then submit the form"`
	WaitAfterMS int         `json:"wait_after_ms" min:"0" max:"5000" default:"250" desc:"ms wait cap"`
	Observe     bool        `json:"observe" default:"true" desc:"false: omit what changed"`
}

type fillFormOut struct {
	said
	acted
	Submitted bool        `json:"submitted"`
	Fields    []filledOut `json:"fields,omitempty"`
}

// filledOut is what one field shows after fill_form (its text is the page's).
type filledOut struct {
	Element string        `json:"element"`
	Value   *browser.Page `json:"value,omitempty"`
	Checked *bool         `json:"checked,omitempty"`
	Shown   *browser.Page `json:"shown,omitempty"`
}

// fillForm checks every field's ref before the page script runs, which
// checks every field's element and value before it writes any.
func (tb *Table) fillForm(ctx context.Context, a *fillFormArgs, _ browser.Progress) (fillFormOut, error) {
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return fillFormOut{}, err
	}
	defer op.Release()
	args, err := formFields(op, a)
	if err != nil {
		return fillFormOut{}, err
	}
	if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
		return fillFormOut{}, err
	}
	if a.Submit {
		// The submission is the last field's form's: the lock reads it there.
		last, err := op.Locate(a.Fields[len(a.Fields)-1].Element)
		if err != nil {
			return fillFormOut{}, err
		}
		if err := op.Guard(ctx, browser.Gesture{Mode: "submit", On: last}); err != nil {
			return fillFormOut{}, err
		}
	}
	settles := (a.Submit || a.Observe) && a.WaitAfterMS > 0
	args.Unwatched = !settles
	op.Activate(ctx)
	var r pagejs.FillFormResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.FillForm, args, &r)
	if e, ok := browser.AsError(err); ok && e.Code == errcode.OptionNotFound {
		return fillFormOut{}, listFieldOptions(ctx, op, a, e)
	}
	if err != nil {
		return fillFormOut{}, err
	}
	urlNow, nav := r.URL, false
	var obs *browser.Observation
	if a.Submit || a.Observe {
		if urlNow, nav, obs, err = op.End(ctx, r.Before(), time.Duration(a.WaitAfterMS)*time.Millisecond, a.Observe); err != nil {
			return fillFormOut{}, err
		}
	}
	trusted := info.Trusted(r.Trusted)
	out := fillFormOut{acted: actedOn("", trusted, urlNow, nav), Submitted: a.Submit && r.Submitted}
	out.Fields, out.text = filledFields(a, &r, trusted, info, urlNow, nav, obs)
	out.text += confirmedNote(op)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

// formFields resolves every field's ref (the first becomes the Op's
// element): a stale or unknown one, a ref given twice, or one in another
// document than the first fails the call, naming the field.
func formFields(op *browser.Op, a *fillFormArgs) (pagejs.FillFormArgs, error) {
	args := pagejs.FillFormArgs{Submit: a.Submit}
	var first *browser.Locator
	seen := map[string]int{}
	for i, f := range a.Fields {
		name := fmt.Sprintf("field %d (%s)", i+1, f.Element)
		if j, dup := seen[f.Element]; dup {
			return args, &browser.Error{Code: errcode.InvalidArguments, Message: fmt.Sprintf("%s: field %d has the same ref; give each field once", name, j)}
		}
		seen[f.Element] = i + 1
		var l *browser.Locator
		var err error
		if first == nil {
			l, err = op.Use(f.Element)
			first = l
		} else {
			l, err = op.Locate(f.Element)
		}
		if e, ok := browser.AsError(err); ok {
			return args, &browser.Error{Code: e.Code, Message: name + ": " + e.Message, Details: e.Details}
		} else if err != nil {
			return args, err
		}
		if !first.SameDocument(l) {
			return args, &browser.Error{Code: errcode.InvalidArguments, Message: name + ": it is in another document (frame) than field 1; fill each frame's fields in a call of their own"}
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return args, err
		}
		args.Fields = append(args.Fields, pagejs.FormField{Sel: l.Sel(), FP: l.FP(), Ref: l.Node(), Name: f.Element, Value: v})
	}
	return args, nil
}

// filledFields shapes what each field shows now, and the answer's text: a
// field is listed (inside the markers) only where the page changed or
// limited what was asked for, or where a select shows an option.
func filledFields(a *fillFormArgs, r *pagejs.FillFormResult, trusted bool, info browser.ExecInfo, urlNow string, nav bool, obs *browser.Observation) ([]filledOut, string) {
	out := make([]filledOut, len(r.Fields))
	var extra []browser.PageField
	note := ""
	for i, f := range r.Fields {
		if i >= len(a.Fields) {
			break
		}
		want := a.Fields[i]
		o := filledOut{Element: want.Element, Checked: f.Checked}
		if f.Value != nil {
			v := browser.PageStr(*f.Value)
			o.Value = &v
		}
		if f.Shown != nil {
			s := browser.PageStr(*f.Shown)
			o.Shown = &s
		}
		switch {
		case f.Shown != nil && f.Kept != nil && !*f.Kept:
			note += fmt.Sprintf(" The page's change handler picked another option in %s than the one asked for: it shows the one below.", want.Element)
			extra = append(extra, browser.PageField{Label: want.Element + " shows", Value: *f.Shown, Max: 120})
		case f.Checked != nil && want.Value.Check != nil && *f.Checked != *want.Value.Check:
			note += fmt.Sprintf(" The page kept %s %s.", want.Element, map[bool]string{true: "checked", false: "unchecked"}[*f.Checked])
		case f.Value != nil && f.Shown == nil && want.Value.Check == nil && *f.Value != want.Value.Text:
			note += fmt.Sprintf(" The page changed or limited the value of %s: it holds the value below.", want.Element)
			extra = append(extra, browser.PageField{Label: want.Element + " value", Value: *f.Value, Max: 120})
		}
		out[i] = o
	}
	last := a.Fields[len(a.Fields)-1].Element
	switch {
	case a.Submit && r.Submitted:
		note = " Submitted the form of " + last + "." + note
	case a.Submit:
		note = " " + last + " is in no form: nothing was submitted." + note
	}
	verb := "Filled " + browser.Plural(len(a.Fields), "field", "fields") + ":"
	return out, actionText(verb, refList(a.Fields), trusted, info, urlNow, nav, note, obs, extra...)
}

// listFieldOptions is fill's option listing for the select field an
// option_not_found names ("field N (eK): …", as fillForm.js writes it): the
// error then lists that select's options; nothing was written.
func listFieldOptions(ctx context.Context, op *browser.Op, a *fillFormArgs, orig *browser.Error) error {
	n := 0
	for i, f := range a.Fields {
		if strings.HasPrefix(orig.Message, fmt.Sprintf("field %d (%s): ", i+1, f.Element)) {
			n = i + 1
		}
	}
	if n == 0 {
		return orig
	}
	f, ref := a.Fields[n-1], a.Fields[n-1].Element
	if _, err := op.Use(f.Element); err != nil {
		return orig
	}
	e, ok := browser.AsError(listOptions(ctx, op, f.Element, f.Value.Text, orig))
	if !ok || e == orig {
		return orig
	}
	e.Message = fmt.Sprintf("field %d (%s): %s", n, ref, e.Message) // (a new error, listOptions's own)
	return e
}

func refList(fields []formField) string {
	s := ""
	for i, f := range fields {
		if i > 0 {
			s += ", "
		}
		s += f.Element
	}
	return s
}
