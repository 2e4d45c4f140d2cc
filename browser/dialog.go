package browser

import (
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// actionDialog turns the dialog_open an action's own evaluation ran into
// into that action's result: the click or key press happened, and the page
// answered it with a dialog. That is not a failure of the action; only
// later calls, which the dialog blocks, report dialog_open. ok is false
// when err is anything else.
func (s *Session) actionDialog(pg page, verb, what string, info ExecInfo, err error) (a acted, d opened, text string, ok bool) {
	de, isErr := AsError(err)
	if !isErr || de.Code != errcode.DialogOpen {
		return acted{}, opened{}, "", false
	}
	s.markDialog(pg.sel, true)
	dd, _ := de.Details["dialog"].(map[string]any)
	typ, _ := dd["type"].(string)
	dt, _ := dd["text"].(Page)
	text = fmt.Sprintf("%s %s (%s). The page opened %s dialog (its text is below). Answer it with handle_dialog %s; until then other page tools report dialog_open.\n%s",
		verb, what, trustNote(info.isolated, info), dialogName(typ), dialogHow(typ), Marked("Dialog text", dt.s, 300))
	return acted{Element: what, Trusted: info.isolated}, opened{Dialog: &dialogOut{Type: typ, Text: dt}}, text, true
}

// dialogName is "an alert", "a confirm", "a prompt" (with the right article).
func dialogName(typ string) string {
	switch typ {
	case "", "unknown":
		return "a"
	case "alert":
		return "an alert"
	}
	return "a " + typ
}

// dialogHow says how handle_dialog answers a dialog of that type.
func dialogHow(typ string) string {
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
