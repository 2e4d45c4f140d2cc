package tools

import (
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// dialogAnswered is an action's answer when the page answered the action
// with a dialog.
type dialogAnswered struct {
	said
	acted
	opened
}

// dialogAnswer turns the dialog_open an action's own evaluation ran into
// into that action's result: the click or key press happened, and the page
// answered it with a dialog. That is not a failure of the action; only
// later calls, which the dialog blocks, report dialog_open. ok is false
// when err is anything else.
func dialogAnswer(op *browser.Op, verb, what string, info browser.ExecInfo, err error) (dialogAnswered, bool) {
	d, ok := op.DialogOpened(err)
	if !ok {
		return dialogAnswered{}, false
	}
	text := fmt.Sprintf("%s %s (%s). The page opened %s dialog (its text is below). Answer it with handle_dialog %s; until then other page tools report dialog_open.\n%s",
		verb, what, trustNote(info.Isolated(), info), browser.DialogName(d.Type), browser.DialogHow(d.Type), browser.Marked("Dialog text", d.Text.Raw(), 300))
	return dialogAnswered{said: said{text: text}, acted: acted{Element: what, Trusted: info.Isolated()},
		opened: opened{Dialog: &dialogOut{Type: d.Type, Text: d.Text}}}, true
}
