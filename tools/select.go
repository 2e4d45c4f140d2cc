package tools

import (
	"context"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

var selectOptionTool = tool[selectOptionArgs, selectOptionOut]{
	Name: "select_option", Title: "Select options",
	Description: "Choose options of a <select> by value or label (several for a multiple one). An unknown option changes nothing and lists the valid ones. Ends with what changed.",
	Annotations: Annotations{Destructive: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).selectOption,
}

type selectOptionArgs struct {
	Element string   `json:"element" min:"2" max:"16" desc:"select ref"`
	Options []string `json:"options" min:"1" max:"100" itemmax:"1000" desc:"values or labels"`
	Observe bool     `json:"observe" default:"true" desc:"false: omit what changed"`
}

type selectOptionOut struct {
	said
	acted
	Selected      []optionOut `json:"selected"`
	SelectedTotal int         `json:"selected_total"`
	Kept          bool        `json:"kept"`
}

// optionOut is an option of a select (its text is the page's).
type optionOut struct {
	Value    browser.Page `json:"value"`
	Label    browser.Page `json:"label"`
	Disabled bool         `json:"disabled,omitempty"`
}

func (tb *Table) selectOption(ctx context.Context, a *selectOptionArgs, _ browser.Progress) (selectOptionOut, error) {
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return selectOptionOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
		return selectOptionOut{}, err
	}
	l := op.Element()
	var r pagejs.SelectOptionResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.SelectOption, pagejs.SelectOptionArgs{Sel: l.Sel(), FP: l.FP(), Options: a.Options, Ref: l.Node()}, &r)
	if err != nil {
		return selectOptionOut{}, err
	}
	if len(r.Missing) > 0 {
		return selectOptionOut{}, optionNotFound(a.Element, &r)
	}
	urlNow, nav, obs, err := op.End(ctx, r.Before(), browser.DefaultSettleCap, a.Observe)
	if err != nil {
		return selectOptionOut{}, err
	}
	var extra []browser.PageField
	note := ""
	if !nav {
		note = fmt.Sprintf(" It now shows %s, listed below.", browser.Plural(r.SelectedTotal, "option", "options"))
		if r.SelectedTotal > len(r.Selected) {
			note = fmt.Sprintf(" It now shows %d options; the first %d are listed below.", r.SelectedTotal, len(r.Selected))
		}
		if !r.Kept {
			note += " The page's change handler changed the selection: it is not exactly what was asked for."
		}
		for _, o := range r.Selected {
			extra = append(extra, browser.PageField{Label: "Option", Value: o.Label, Max: 80})
		}
	}
	trusted := info.Trusted(r.Trusted)
	out := selectOptionOut{acted: actedOn(a.Element, trusted, urlNow, nav), Selected: optionItems(r.Selected), SelectedTotal: r.SelectedTotal, Kept: r.Kept}
	out.text = actionText("Selected "+browser.Plural(len(a.Options), "option", "options")+" in", a.Element, trusted, info, urlNow, nav, note, obs, extra...)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

// optionItems renders options for structuredContent (their text is the page's).
func optionItems(opts []pagejs.SelectOptionItem) []optionOut {
	out := make([]optionOut, len(opts))
	for i, o := range opts {
		out[i] = optionOut{Value: browser.PageStr(o.Value), Label: browser.PageStr(o.Label), Disabled: o.Disabled}
	}
	return out
}

// optionNotFound names the options that matched nothing and lists (bounded)
// those the select offers; their text is the page's, so it goes inside the
// markers.
func optionNotFound(ref string, r *pagejs.SelectOptionResult) *browser.Error {
	shown := fmt.Sprintf("its %s", browser.Plural(r.Total, "option", "options"))
	if r.Total > len(r.Available) {
		shown = fmt.Sprintf("the first %d of its %d options", len(r.Available), r.Total)
	}
	if r.Total == 0 {
		shown = "none: the select is empty"
	}
	e := &browser.Error{
		Code: errcode.OptionNotFound,
		Message: fmt.Sprintf("%s has no option whose value or label is the %s given (below, as Missing); nothing was changed. Below too: %s (label, then its value when that differs).",
			ref, map[bool]string{true: "one", false: "ones"}[len(r.Missing) == 1], shown),
		// The page's option texts are in the text only (no output schema
		// declares error fields).
		Details: map[string]any{"missing_count": len(r.Missing), "total_options": r.Total},
	}
	for _, m := range r.Missing {
		e.WithPage("Missing", m, 80)
	}
	for _, o := range r.Available {
		label := "Option"
		if o.Disabled {
			label = "Option (disabled)"
		}
		e.WithPage(label, o.Label, 60)
		if o.Value != o.Label {
			e.WithPage("  value", o.Value, 40)
		}
	}
	return e
}

// listOptions turns fill's option_not_found on a select into the error
// select_option gives, with the valid options listed; it changes nothing.
func listOptions(ctx context.Context, op *browser.Op, ref, value string, orig *browser.Error) error {
	l := op.Element()
	var r pagejs.SelectOptionResult
	if _, err := op.Run(ctx, browser.ActionRealm, pagejs.SelectOption, pagejs.SelectOptionArgs{Sel: l.Sel(), FP: l.FP(), Options: []string{value}}, &r); err != nil || len(r.Missing) == 0 {
		return orig
	}
	return optionNotFound(ref, &r)
}
