package confirm

import (
	"slices"
	"testing"
)

// rowCases holds, for every row of Vocabulary (by its reason), a reading
// that must arm it and one, as close as possible, that must not.
var rowCases = map[string]struct{ hit, miss Reading }{
	"the control says it pays (\"Pay €49.00\", \"Pay now\")": {Reading{Text: "Pay now"}, Reading{Text: "PayPal account settings"}},
	"the control says it buys":                               {Reading{Text: "Buy now"}, Reading{Text: "Buyer protection"}},
	"the control places an order":                            {Reading{Text: "Place order"}, Reading{Text: "Order history"}},
	"the control says it purchases":                          {Reading{Text: "Complete purchase"}, Reading{Text: "Purchases"}},
	"the control starts a subscription":                      {Reading{Text: "Subscribe"}, Reading{Text: "Subscriptions"}},
	"the control gives money away":                           {Reading{Text: "Donate"}, Reading{Text: "Donations report"}},
	"the control goes through checkout":                      {Reading{Text: "Checkout"}, Reading{Text: "Checked out books"}},
	"the control names an amount with its currency":          {Reading{Text: "€49.00"}, Reading{Text: "49 items", Near: "Total €49.00"}},
	"the form holds card fields (autocomplete cc-…)": {
		Reading{Submits: true, Fields: []string{"type=text autocomplete=section-a,billing,cc-number"}},
		Reading{Submits: false, Fields: []string{"type=text autocomplete=cc-number"}}},
	"the form holds a card number or security code field": {
		Reading{Submits: true, Fields: []string{"type=tel name=cardnumber"}},
		Reading{Submits: true, Fields: []string{"type=text name=discount-code"}}},
	"the form holds a payment frame of another origin (card fields as Stripe Elements puts them)": {
		Reading{Submits: true, Frames: []string{"title=Secure card payment input frame name=__privateStripeFrame4"}},
		Reading{Submits: true, Frames: []string{"title=reCAPTCHA name=a-xyz"}}},
	"the control deletes":                {Reading{Text: "Delete my account"}, Reading{Text: "Deleted items"}},
	"the control closes an account":      {Reading{Text: "Close my account"}, Reading{Text: "Close"}},
	"the control cancels a subscription": {Reading{Text: "Cancel subscription"}, Reading{Text: "Cancel"}},
	"the text says it cannot be undone":  {Reading{Dialog: "This permanently deletes your data"}, Reading{Dialog: "Leave this page?"}},
	"the form sets a new password (autocomplete new-password)": {
		Reading{Submits: true, Fields: []string{"type=password autocomplete=new-password"}},
		Reading{Submits: true, Fields: []string{"type=password autocomplete=current-password"}}},
	"the control changes a password":              {Reading{Text: "Change password"}, Reading{Text: "Forgot your password?"}},
	"the control revokes a key, token or session": {Reading{Text: "Revoke"}, Reading{Text: "Review"}},
	"the control replaces a key or token":         {Reading{Text: "Regenerate API key"}, Reading{Text: "Regenerate response"}},
	"the control changes two-factor settings":     {Reading{Text: "Disable two-factor authentication"}, Reading{Text: "Factor in shipping"}},
	"the form carries files (put there by upload_files)": {
		Reading{Submits: true, Fields: []string{"type=file name=resume files=1"}},
		Reading{Submits: true, Fields: []string{"type=file name=resume files=0"}}},
	"the control sends an application":  {Reading{Text: "Submit application"}, Reading{Text: "Applications"}},
	"the control sends the user's data": {Reading{Text: "Send"}, Reading{Text: "Resend code"}},
}

// TestVocabularyRows: every row arms on its case and stays quiet on its
// near miss, and every row has its case.
func TestVocabularyRows(t *testing.T) {
	for i := range Vocabulary {
		row := &Vocabulary[i]
		c, ok := rowCases[row.Reason]
		if !ok {
			t.Errorf("row %q has no test case", row.Reason)
			continue
		}
		if !matched(Assess(c.hit), row) {
			t.Errorf("row %q did not match %+v", row.Reason, c.hit)
		}
		if matched(Assess(c.miss), row) {
			t.Errorf("row %q matched its near miss %+v", row.Reason, c.miss)
		}
		if !slices.Contains(Categories, row.Category) {
			t.Errorf("row %q: category %q", row.Reason, row.Category)
		}
	}
	if len(rowCases) != len(Vocabulary) {
		t.Errorf("%d cases for %d rows: a case names a row that is gone", len(rowCases), len(Vocabulary))
	}
}

func matched(v Verdict, row *Row) bool {
	return slices.ContainsFunc(v.Matches, func(m Match) bool { return m.Row == row })
}

// TestNoFalseAlarms: what people do all day on forms asks nothing.
func TestNoFalseAlarms(t *testing.T) {
	quiet := []Reading{
		{Text: "Search", Submits: true, Fields: []string{"type=search name=q"}},
		{Text: "Filter", Submits: true, Fields: []string{"type=checkbox name=remote", "type=text name=location"}},
		{Text: "Apply filters"},
		{Text: "Apply coupon", Submits: true, Fields: []string{"type=text name=coupon autocomplete=off"}, Near: "Subtotal €49.00"},
		{Text: "Add to cart", Submits: true, Fields: []string{"type=number name=qty"}, Near: "$19.99"},
		{Text: "Next", Submits: true, Fields: []string{"type=text autocomplete=street-address", "type=text autocomplete=postal-code"}},
		{Text: "Save draft", Submits: false, Fields: []string{"type=file name=resume files=1"}},
		{Text: "Sign in", Submits: true, Fields: []string{"type=email autocomplete=username", "type=password autocomplete=current-password"}},
		{Text: "Load more"},
		{Dialog: "Leave site? Changes you made may not be saved."},
	}
	for _, r := range quiet {
		if v := Assess(r); v.Armed() {
			t.Errorf("%+v armed %v: %v", r, v.Categories, v.Reasons())
		}
	}
}

// TestIntentOnlyAdds: an intent arms where the vocabulary did not, and
// never takes away what it found.
func TestIntentOnlyAdds(t *testing.T) {
	if v := Assess(Reading{Text: "Next"}, Submission); !slices.Equal(v.Categories, []Category{Submission}) {
		t.Errorf("intent: %v", v.Categories)
	}
	v := Assess(Reading{Text: "Pay €49.00"}, Deletion)
	if !slices.Equal(v.Categories, []Category{Payment, Deletion}) || !slices.Equal(v.Amounts, []string{"€49.00"}) {
		t.Errorf("vocabulary and intent: %v %v", v.Categories, v.Amounts)
	}
}

// TestVocabularyGates: each gate keeps its rows from the words it names,
// and only those: the same words on a button, or a short label, still arm;
// a dialog, the form's fields and the intent arm whatever the gate.
func TestVocabularyGates(t *testing.T) {
	card := "Senior Go Engineer Acme Corp Berlin · Remote €55k Go Kubernetes Delete nothing, send your CV"
	cases := map[string]struct{ quiet, armed []Reading }{
		Gates[0].Reason: {
			quiet: []Reading{{Kind: KindTarget, Text: card}, {Kind: KindLink, Text: "Re: please send the report and remove the old draft before Friday"}},
			armed: []Reading{{Kind: KindTarget, Text: "Delete draft"}, {Kind: KindLink, Text: "Close my account"},
				{Kind: KindButton, Text: card}, {Text: card}, {Kind: KindTarget, Text: card, Dialog: "This permanently deletes it"},
				{Kind: KindTarget, Text: card, Submits: true, Fields: []string{"type=tel name=cardnumber"}}},
		},
		Gates[1].Reason: {
			quiet: []Reading{{Kind: KindTarget, Text: "Wireless Mouse €19.99"}, {Kind: KindLink, Text: "Wireless Mouse €19.99"}, {Kind: KindTarget, Text: "€55k"}},
			armed: []Reading{{Kind: KindButton, Text: "€49.00"}, {Text: "Continue · $12.00"}, {Kind: KindTarget, Text: "Pay €49"}},
		},
	}
	for _, g := range Gates {
		c, ok := cases[g.Reason]
		if !ok {
			t.Errorf("gate %q has no test case", g.Reason)
			continue
		}
		for _, r := range c.quiet {
			if v := Assess(r); v.Armed() {
				t.Errorf("gate %q: %+v armed %v", g.Reason, r, v.Reasons())
			}
		}
		for _, r := range c.armed {
			if !Assess(r).Armed() {
				t.Errorf("gate %q: %+v did not arm", g.Reason, r)
			}
		}
	}
	if v := Assess(Reading{Kind: KindTarget, Text: card}, Payment); !v.Armed() {
		t.Error("the intent did not arm a gated reading")
	}
	if len(cases) != len(Gates) {
		t.Errorf("%d cases for %d gates", len(cases), len(Gates))
	}
}
