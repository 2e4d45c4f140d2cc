package browser

import (
	"context"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

type selectOptionArgs struct {
	Element string   `json:"element"`
	Options []string `json:"options"`
	Observe *bool    `json:"observe"`
}

func (s *Session) selectOption(ctx context.Context, a *selectOptionArgs, _ Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	var r pagejs.SelectOptionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.SelectOption, pagejs.SelectOptionArgs{Sel: l.sel, FP: l.fp, Options: a.Options, Ref: boundRef(l)}, &r)
	if err != nil {
		return Result{}, err
	}
	if len(r.Missing) > 0 {
		return Result{}, optionNotFound(a.Element, &r)
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, defaultSettleCap, observing(a.Observe))
	if err != nil {
		return Result{}, err
	}
	var extra []pageField
	note := ""
	if !nav {
		note = fmt.Sprintf(" It now shows %s, listed below.", plural(r.SelectedTotal, "option", "options"))
		if r.SelectedTotal > len(r.Selected) {
			note = fmt.Sprintf(" It now shows %d options; the first %d are listed below.", r.SelectedTotal, len(r.Selected))
		}
		if !r.Kept {
			note += " The page's change handler changed the selection: it is not exactly what was asked for."
		}
		for _, o := range r.Selected {
			extra = append(extra, pageField{"Option", o.Label, 80})
		}
	}
	text := s.actionText("Selected "+plural(len(a.Options), "option", "options")+" in", a.Element, r.Trusted, info, urlNow, nav, note, obs, extra...)
	res := Result{Text: text, Structured: map[string]any{
		"element": a.Element, "trusted": r.Trusted, "selected": optionItems(r.Selected), "selected_total": r.SelectedTotal,
		"kept": r.Kept, "url": pageStr(urlNow), "navigated": nav,
	}}
	obs.add(&res)
	return res, nil
}

// optionItems renders options for structuredContent (their text is the page's).
func optionItems(opts []pagejs.SelectOptionItem) []map[string]any {
	out := make([]map[string]any, len(opts))
	for i, o := range opts {
		out[i] = map[string]any{"value": pageStr(o.Value), "label": pageStr(o.Label)}
		if o.Disabled {
			out[i]["disabled"] = true
		}
	}
	return out
}

// optionNotFound names the options that matched nothing and lists (bounded)
// those the select offers; their text is the page's, so it goes inside the
// markers.
func optionNotFound(ref string, r *pagejs.SelectOptionResult) *Error {
	shown := fmt.Sprintf("its %s", plural(r.Total, "option", "options"))
	if r.Total > len(r.Available) {
		shown = fmt.Sprintf("the first %d of its %d options", len(r.Available), r.Total)
	}
	if r.Total == 0 {
		shown = "none: the select is empty"
	}
	e := &Error{
		Code: errcode.OptionNotFound,
		Message: fmt.Sprintf("%s has no option whose value or label is the %s given (below, as Missing); nothing was changed. Below too: %s (label, then its value when that differs).",
			ref, map[bool]string{true: "one", false: "ones"}[len(r.Missing) == 1], shown),
		Details: map[string]any{"missing": pageStrs(r.Missing), "options": optionItems(r.Available), "total_options": r.Total},
	}
	for _, m := range r.Missing {
		e.withPage("Missing", m, 80)
	}
	for _, o := range r.Available {
		label := "Option"
		if o.Disabled {
			label = "Option (disabled)"
		}
		e.withPage(label, o.Label, 60)
		if o.Value != o.Label {
			e.withPage("  value", o.Value, 40)
		}
	}
	return e
}

// listOptions turns fill's option_not_found on a select into the error
// select_option gives, with the valid options listed; it changes nothing.
func (s *Session) listOptions(ctx context.Context, pg page, l *locator, ref, value string, orig *Error) error {
	var r pagejs.SelectOptionResult
	if _, err := s.exec(ctx, pg, actionRealm, pagejs.SelectOption, pagejs.SelectOptionArgs{Sel: l.sel, FP: l.fp, Options: []string{value}}, &r); err != nil || len(r.Missing) == 0 {
		return orig
	}
	return optionNotFound(ref, &r)
}
