package confirm

import (
	"regexp"
	"slices"
	"strings"
)

// Category is a kind of consequential action.
type Category string

// The categories, as the intent argument names them.
const (
	Payment      Category = "payment"       // money leaves the user
	Deletion     Category = "deletion"      // something is destroyed for good
	SecretChange Category = "secret_change" // a password, key, token or second factor changes
	Submission   Category = "submission"    // the user's files or personal data are sent
)

// Categories lists them in the order a window names them.
var Categories = []Category{Payment, Deletion, SecretChange, Submission}

// Scope is what part of the engine's reading a row looks at.
type Scope uint8

const (
	// Text: the words of the control the gesture activates (for Enter in a
	// field or fill's submit, the form's submit button), or of a dialog
	// the gesture accepts.
	Text Scope = iota
	// Amount: an amount with a currency in that same text.
	Amount
	// Field: each field of the form the gesture submits, described as
	// "type=… autocomplete=… name=… id=… files=N" (FieldDesc).
	Field
	// Frame: each frame of another origin inside the form the gesture
	// submits, described as "title=… name=… allow=… src=…" (FrameDesc).
	Frame
)

// Row is one signal of the vocabulary: where it looks, what it matches and
// why that makes the action consequential.
type Row struct {
	Category Category
	Scope    Scope
	Pattern  *regexp.Regexp
	Reason   string
}

func words(c Category, pattern, reason string) Row {
	return Row{c, Text, regexp.MustCompile(`(?i)\b(?:` + pattern + `)\b`), reason}
}

func field(c Category, pattern, reason string) Row {
	return Row{c, Field, regexp.MustCompile(`(?i)` + pattern), reason}
}

// amountPattern finds an amount with a currency next to it: a symbol or an
// ISO code before or after the number.
var amountPattern = regexp.MustCompile(`(?i)(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK|PLN)\b)\s?\d[\d.,' ]*\d|\d(?:[\d.,' ]*\d)?\s?(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK|PLN|kr|zł)\b)`)

// Vocabulary is the table that arms the lock: a gesture is consequential
// when any row matches what the engine read at that moment. The model's
// intent can add a category; nothing removes a row's. A new signal is a new
// row; TestVocabularyRows holds one case that must match and one that must
// not for every row.
var Vocabulary = []Row{
	words(Payment, `pay(?:\s+now)?`, "the control says it pays (\"Pay €49.00\", \"Pay now\")"),
	words(Payment, `buy(?:\s+now)?`, "the control says it buys"),
	words(Payment, `place\s+(?:your\s+|my\s+)?order|complete\s+(?:your\s+|my\s+)?(?:order|purchase)|confirm\s+(?:order|purchase|payment)`, "the control places an order"),
	words(Payment, `purchase`, "the control says it purchases"),
	words(Payment, `subscribe`, "the control starts a subscription"),
	words(Payment, `donate`, "the control gives money away"),
	words(Payment, `check\s?out`, "the control goes through checkout"),
	{Payment, Amount, amountPattern, "the control names an amount with its currency"},
	field(Payment, `\bautocomplete=\S*\bcc-`, "the form holds card fields (autocomplete cc-…)"),
	field(Payment, `\b(?:name|id)=\S*(?:card.?num|cc.?num|cvc|cvv|csc|card.?code|security.?code)`, "the form holds a card number or security code field"),
	{Payment, Frame, regexp.MustCompile(`(?i)card|payment|\bpay\b|cvc|stripe|braintree|adyen|checkout`), "the form holds a payment frame of another origin (card fields as Stripe Elements puts them)"},

	words(Deletion, `delete|remove|erase`, "the control deletes"),
	words(Deletion, `close\s+(?:my\s+|your\s+|the\s+)?account|deactivate\s+(?:my\s+|your\s+)?account`, "the control closes an account"),
	words(Deletion, `cancel\s+(?:my\s+|your\s+|the\s+)?subscription`, "the control cancels a subscription"),
	words(Deletion, `permanently|irreversibl[ey]|cannot\s+be\s+undone`, "the text says it cannot be undone"),

	field(SecretChange, `\bautocomplete=\S*\bnew-password`, "the form sets a new password (autocomplete new-password)"),
	words(SecretChange, `(?:change|reset|update|set)\s+(?:your\s+|my\s+|the\s+)?password`, "the control changes a password"),
	words(SecretChange, `revoke`, "the control revokes a key, token or session"),
	words(SecretChange, `(?:regenerate|rotate|roll|reset)\s+(?:(?:the|your|my|api|access|secret|personal|new)\s+)*(?:key|token|secret)s?`, "the control replaces a key or token"),
	words(SecretChange, `two[-\s]factor|2fa|mfa|authenticator\s+app`, "the control changes two-factor settings"),

	field(Submission, `\btype=file\b.*\bfiles=[1-9]`, "the form carries files (put there by upload_files)"),
	words(Submission, `submit\s+(?:my\s+|your\s+|the\s+)?application|send\s+(?:my\s+|your\s+|the\s+)?application`, "the control sends an application"),
	words(Submission, `send`, "the control sends the user's data"),
}

// Kind is what a Reading's Text is the words of.
type Kind string

const (
	// KindButton: a button-like control (button, submit or image input,
	// role=button or menuitem, summary), or the form's submit button for a
	// submission. "" counts as one.
	KindButton Kind = "button"
	// KindLink: a link (a[href], role=link).
	KindLink Kind = "link"
	// KindTarget: a click target without a control's role (a card, a tile:
	// a div or span that listens for clicks).
	KindTarget Kind = "target"
)

// labelWords is the most words a link's or click target's text has when it
// is a label ("Delete account", "Pay €49"); longer, it is content (a card's
// title, company, salary and tags).
const labelWords = 8

// Gate is a reading the vocabulary's rows of one scope do not look at,
// with why.
type Gate struct {
	Scope  Scope
	Test   func(r Reading) bool
	Reason string
}

// Gates: what a row of Text or Amount scope does not read. The dialog's
// text, the form's fields and frames, and the model's intent still arm.
// TestVocabularyGates holds a case each way for every gate.
var Gates = []Gate{
	{Text, func(r Reading) bool {
		return r.Kind != "" && r.Kind != KindButton && len(strings.Fields(r.Text)) > labelWords
	},
		"a card's or long link's words describe its content (a job's title, company and salary; an e-mail's subject), not what the click does"},
	{Amount, func(r Reading) bool { return r.Kind == KindLink || r.Kind == KindTarget },
		"a price on a link or a card says what it leads to (a product, a job's salary); a payment is a button's"},
}

// gated reports whether a gate keeps rows of scope sc from r's text.
func gated(sc Scope, r Reading) bool {
	for _, g := range Gates {
		if g.Scope == sc && g.Test(r) {
			return true
		}
	}
	return false
}

// Reading is what the engine read at the gesture: the tab and frame it
// acts in, from Firefox, and the page's own fields, from the isolated realm.
type Reading struct {
	Text    string   // the control's words (see Text)
	Kind    Kind     // what Text is the words of ("" counts as KindButton)
	Dialog  string   // a dialog's text, when the gesture answers one
	Submits bool     // the gesture submits the form whose fields follow
	Fields  []string // FieldDesc of each field of that form
	Frames  []string // FrameDesc of each frame of another origin in it
	Near    string   // the form's text, where amounts are also looked for (shown, never armed on)
}

// Match is one row that matched, with what it matched.
type Match struct {
	Row  *Row
	What string
}

// Verdict is what Assess decided.
type Verdict struct {
	Categories []Category
	Matches    []Match
	Amounts    []string
}

// Armed reports whether the lock is armed.
func (v Verdict) Armed() bool { return len(v.Categories) > 0 }

// Reasons are the matched rows' reasons, in table order, once each.
func (v Verdict) Reasons() []string {
	var out []string
	for _, m := range v.Matches {
		if !slices.Contains(out, m.Row.Reason) {
			out = append(out, m.Row.Reason)
		}
	}
	return out
}

// Assess applies the vocabulary to r, then adds the intents the caller
// declared. Fields and frames count only when the gesture submits their
// form: a button of a form that does not submit it ("Apply coupon" of type
// button) sends nothing.
func Assess(r Reading, intents ...Category) Verdict {
	var v Verdict
	for i := range Vocabulary {
		row := &Vocabulary[i]
		for _, s := range row.subjects(r) {
			if m := row.Pattern.FindString(s); m != "" {
				v.Matches = append(v.Matches, Match{Row: row, What: m})
				v.add(row.Category)
				break
			}
		}
	}
	for _, c := range intents {
		v.add(c)
	}
	for _, s := range []string{r.Text, r.Near} {
		for _, a := range amountPattern.FindAllString(s, 8) {
			if a = strings.TrimSpace(a); !slices.Contains(v.Amounts, a) && len(v.Amounts) < 8 {
				v.Amounts = append(v.Amounts, a)
			}
		}
	}
	return v
}

func (v *Verdict) add(c Category) {
	if !slices.Contains(v.Categories, c) {
		v.Categories = append(v.Categories, c)
		slices.SortFunc(v.Categories, func(a, b Category) int {
			return slices.Index(Categories, a) - slices.Index(Categories, b)
		})
	}
}

// subjects are the strings of r a row looks at.
func (row *Row) subjects(r Reading) []string {
	switch row.Scope {
	case Text:
		if gated(Text, r) {
			return []string{r.Dialog}
		}
		return []string{r.Text, r.Dialog}
	case Amount:
		if gated(Amount, r) {
			return nil
		}
		return []string{r.Text}
	case Field:
		if r.Submits {
			return r.Fields
		}
	case Frame:
		if r.Submits {
			return r.Frames
		}
	}
	return nil
}

// ParseCategory checks an intent argument.
func ParseCategory(s string) (Category, bool) {
	c := Category(s)
	return c, slices.Contains(Categories, c)
}
