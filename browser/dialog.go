package browser

import (
	"cmp"
	"context"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// DialogName is "an alert", "a confirm", "a prompt" (with the right article),
// for sentences about a dialog of that type.
func DialogName(typ string) string {
	switch typ {
	case "", "unknown":
		return "a"
	case "alert":
		return "an alert"
	}
	return "a " + typ
}

// DialogHow says how handle_dialog answers a dialog of that type.
func DialogHow(typ string) string {
	switch typ {
	case "alert":
		return `(action "accept" closes it)`
	case "prompt":
		return `(action "accept" with prompt_text to answer, or "dismiss" to cancel)`
	case "beforeunload":
		return `(action "accept" leaves the page, "dismiss" stays on it)`
	}
	return `(action "accept" for OK, or "dismiss" for Cancel)`
}

// AnswerDialog answers the dialog the Op's tab shows: action "accept" (OK;
// for beforeunload: leave) or "dismiss" (Cancel: stay), text typed into a
// prompt. It returns the dialog as it was: its kind and text. no_dialog
// when none is open. Accepting is guarded (Guard): a dialog whose text
// arms the lock waits for the user's yes.
func (o *Op) AnswerDialog(ctx context.Context, action string, text *string, intents ...confirm.Category) (Dialog, error) {
	s, pg := o.s, o.pg
	st, err := s.readyDialog(ctx, pg)
	if err != nil {
		return Dialog{}, err
	}
	if !st.Open {
		return Dialog{}, Errorf(errcode.NoDialog, "the selected tab has no open dialog")
	}
	if action == "accept" && (st.Type == "confirm" || st.Type == "prompt") {
		// Accepting a confirm or a prompt is the page's own question answered yes: its
		// text ("This permanently deletes your account") arms the lock too.
		d := Dialog{Type: dialogKind(st.Type), Text: PageStr(st.Text)}
		if err := o.Guard(ctx, Gesture{Dialog: &d, Intents: intents}); err != nil {
			return Dialog{}, err
		}
	}
	var r pagejs.DialogAnswerResult
	if err := s.chrome(ctx, pg, pagejs.DialogAnswer, pagejs.DialogAnswerArgs{BrowserID: pg.sel.tab.BrowserID, Action: action, Text: text}, &r); err != nil {
		return Dialog{}, err
	}
	if !r.Answered {
		return Dialog{}, Errorf(errcode.NoDialog, "the dialog closed before it could be answered")
	}
	s.markDialog(pg.sel, false)
	return Dialog{Type: dialogKind(cmp.Or(r.Type, st.Type)), Text: PageStr(st.Text)}, nil
}
