package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Elicitor sends one elicitation/create request to the MCP client and
// returns its action ("accept", "decline" or "cancel") and, on accept, its
// content object. Package mcp's *Elicitor is one.
type Elicitor interface {
	Elicit(ctx context.Context, message string, schema json.RawMessage) (action string, content json.RawMessage, err error)
}

// ElicitProgram is the Answer's Program when the MCP client was asked.
const ElicitProgram = "mcp-client"

// ElicitSchema is the form the MCP client shows: one required boolean,
// false by default. Only allow=true on accept is a yes.
var ElicitSchema = json.RawMessage(`{"type":"object","properties":{"allow":{"type":"boolean","title":"Allow this one action",` +
	`"description":"true allows this one action once; false (the default) refuses it","default":false}},"required":["allow"]}`)

// Elicitation asks through the MCP client (FIREFOX_MCP_CONFIRM=elicit,
// for a client that declared the capability): the same question as the
// window, as an elicitation request.
type Elicitation struct{ Client Elicitor }

// Ask sends r's question and reads the answer. Only accept with allow=true
// is Yes; decline, cancel, accept without allow=true, a malformed answer or
// an error is No (Detail says which); ctx's deadline is Timeout; ctx
// cancelled otherwise is ctx's error.
func (e Elicitation) Ask(ctx context.Context, r Request) (Answer, error) {
	action, content, err := e.Client.Elicit(ctx, ElicitText(&r), ElicitSchema)
	a := Answer{ID: r.ID, Outcome: No, Program: ElicitProgram}
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		a.Outcome = Timeout
	case err != nil && ctx.Err() != nil:
		return Answer{}, ctx.Err()
	case err != nil:
		a.Detail = "the MCP client gave no valid answer: " + Clean(err.Error(), MaxField)
	default:
		a.Outcome, a.Detail = ElicitOutcome(action, content)
	}
	return a, nil
}

// ElicitOutcome reads an elicitation's answer: Yes only for accept whose
// content's allow is the JSON value true; No otherwise, with the reason.
func ElicitOutcome(action string, content json.RawMessage) (Outcome, string) {
	if action != "accept" {
		return No, "the user answered " + Clean(action, 20) + " in the MCP client"
	}
	var form map[string]json.RawMessage
	if json.Unmarshal(content, &form) != nil {
		return No, "the MCP client accepted without the form's content"
	}
	if string(form["allow"]) != "true" {
		return No, "the user left allow unset or false in the MCP client"
	}
	return Yes, ""
}

// ElicitText is the elicitation's message: that this is the confirmation
// of a consequential action and declining is safe, then what the window
// shows (page strings cleaned and cut alike; angle brackets replaced, as
// some clients render the message as markup).
func ElicitText(r *Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CONFIRMATION of a consequential action (%s). An AI agent is about to act in your Firefox through firefox-rdp-mcp, "+
		"and this one action needs your yes. Declining is the safe answer: nothing reaches the page.\n\n", strings.TrimSuffix(strings.TrimPrefix(Title(r), "firefox-rdp-mcp: allow "), "?"))
	describe(&b, r)
	fmt.Fprintf(&b, "\nAllow this one action? Only allow = true, accepted, lets it run; declining, cancelling or no answer within %d s refuses it.",
		int(AnswerTimeout/time.Second))
	return strings.NewReplacer("<", "‹", ">", "›").Replace(b.String())
}
