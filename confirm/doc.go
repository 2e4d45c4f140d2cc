// Package confirm is the lock on consequential actions: a payment, an
// irreversible deletion, a change of a secret, sending the user's files or
// personal data. The engine (package browser) reads the page at the moment
// of a gesture and Assess applies Vocabulary, one table of words and fields
// with a reason per row; when a row matches, or the model declared an
// intent, the user answers in a window the MCP client cannot reach.
//
// The window is zenity, else kdialog, started without a shell by the
// helper: a process the server starts before its sandbox (the sandboxed
// server cannot start programs), over a SOCK_SEQPACKET socketpair with one
// typed JSON Request and one Answer per question ([Client], [Helper]).
//
// With FIREFOX_MCP_CONFIRM=elicit the same question can go through the MCP
// client instead ([Elicitation], over package mcp's elicitor, for a call
// whose client declared the capability): [ElicitText] is the window's text
// for a message, [ElicitSchema] one required boolean, and only accept with
// allow=true is a yes ([ElicitOutcome]). An accept can come from software;
// the mode is the operator's declaration that their client shows the
// request to a person.
//
// # Trust boundary
//
// The helper runs outside the sandbox and treats every request as hostile:
// one datagram of at most [MaxMessage] bytes, exactly one object, unknown
// fields refused, categories from the fixed list; anything malformed ends
// it. It builds the window's argv itself ([Argv]): page strings are shown
// as plain text (zenity --no-markup; for kdialog, which renders text that
// looks like HTML, angle brackets are replaced), each on its own line,
// cleaned of control and format characters and cut to [MaxField] runes
// ([Clean]), so a page cannot forge a line such as the site's. The window
// programs get only [WindowEnv] from the helper's environment.
//
// IMPORTANT: the vocabulary is the floor. The model's intent argument can
// add a category; nothing a page, an argument or the configuration says
// removes one. Refusal is the default: zenity's Refuse button has the focus,
// no answer within [AnswerTimeout] refuses, and one answer covers one
// action.
//
// # Limitations
//
//   - kdialog offers no choice of default button: its Yes has the focus.
//   - Fields and frames arm the lock only for a gesture that submits their
//     form (a submit control, Enter in a field, fill's submit); a script
//     that submits the form from a plain button is caught by the words of
//     that button only.
//   - A question whose caller gave up (a cancelled tool call) leaves its
//     window up until it is answered or times out; that answer is dropped.
//
// # Example
//
//	v := confirm.Assess(confirm.Reading{Text: "Pay €49.00"})
//	if v.Armed() {
//		a, err := client.Ask(ctx, confirm.Request{Categories: v.Categories, Reasons: v.Reasons(),
//			Origin: "https://shop.example", Gesture: "click", Element: "Pay €49.00", Amounts: v.Amounts})
//		// a.Outcome: confirm.Yes, No, Timeout or Unavailable
//	}
package confirm
