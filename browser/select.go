package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

type selectOptionArgs struct {
	Element string   `json:"element"`
	Options []string `json:"options"`
}

func (s *Session) selectOption(ctx context.Context, a *selectOptionArgs, _ Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	var r pagejs.SelectOptionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.SelectOption, pagejs.SelectOptionArgs{Sel: l.sel, FP: l.fp, Options: a.Options}, &r)
	if err != nil {
		return Result{}, err
	}
	if len(r.Missing) > 0 {
		return Result{}, optionNotFound(a.Element, &r)
	}
	urlNow, nav := s.after(ctx, pg, r.URL)
	labels := make([]string, len(r.Selected))
	for i, o := range r.Selected {
		labels[i] = quote(o.Label, 80)
	}
	text := s.actionText("Selected "+plural(len(a.Options), "option", "options")+" in", a.Element, r.Trusted, info, urlNow, nav)
	if !nav {
		shows := strings.Join(labels, ", ")
		if len(labels) == 0 {
			shows = "nothing"
		}
		if r.SelectedTotal > len(r.Selected) {
			shows += fmt.Sprintf(" and %d more", r.SelectedTotal-len(r.Selected))
		}
		text += " It now shows " + shows + " (page text)."
		if !r.Kept {
			text += " The page's change handler changed the selection: it is not exactly what was asked for."
		}
	}
	return Result{Text: text, Structured: map[string]any{
		"element": a.Element, "trusted": r.Trusted, "selected": r.Selected, "selected_total": r.SelectedTotal,
		"kept": r.Kept, "url": urlNow, "navigated": nav,
	}}, nil
}

// optionNotFound names the options that matched nothing and lists (bounded)
// those the select offers; their text is the page's, so it is marked.
func optionNotFound(ref string, r *pagejs.SelectOptionResult) *Error {
	missing := make([]string, len(r.Missing))
	for i, m := range r.Missing {
		missing[i] = quote(m, 80)
	}
	var offered []string
	for _, o := range r.Available {
		item := quote(o.Label, 60)
		if o.Value != o.Label {
			item += " (value " + quote(o.Value, 40) + ")"
		}
		if o.Disabled {
			item += " disabled"
		}
		offered = append(offered, item)
	}
	list := strings.Join(offered, ", ")
	if r.Total > len(r.Available) {
		list += fmt.Sprintf(", … (%d of %d shown)", len(r.Available), r.Total)
	}
	if r.Total == 0 {
		list = "none: the select is empty"
	}
	u := newUntrusted()
	u.line(list)
	return &Error{
		Code:    CodeOptionNotFound,
		Message: fmt.Sprintf("%s has no option whose value or label is %s; nothing was changed. Its options, by label (page text):\n%s", ref, strings.Join(missing, ", "), u.String()),
		Details: map[string]any{"missing": r.Missing, "options": r.Available, "total_options": r.Total},
	}
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
