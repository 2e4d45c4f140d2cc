package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Output bounds of console_messages and network_requests.
const (
	MaxListChars  = 40_000 // characters of entries in one answer (exported for tests of the bound)
	maxEntryChars = 1000   // characters of one console message shown
)

var consoleTool = tool[consoleArgs, consoleOut]{
	Name: "console_messages", Title: "Console messages",
	Description: "The selected tab's console calls, uncaught exceptions and unhandled rejections with their source, newest last, a line per navigation; kept since the tab was first selected (last 1000). At most limit entries, 40,000 characters.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).consoleMessages,
}

type consoleArgs struct {
	Level string `json:"level" enum:"error,warning,info,debug,all" default:"all" desc:"this level and worse"`
	Limit int    `json:"limit" min:"1" max:"1000" default:"50" desc:"most entries"`
}

// consoleOut: the messages themselves are page text, in the text only.
type consoleOut struct {
	said
	TabID    string `json:"tab_id"`
	Level    string `json:"level"`
	Matching int    `json:"matching"`
	Shown    int    `json:"shown"`
	Evicted  uint64 `json:"evicted"`
}

var levelRank = map[string]int{"debug": 0, "info": 1, "warning": 2, "error": 3}

func (tb *Table) consoleMessages(ctx context.Context, a *consoleArgs, _ browser.Progress) (consoleOut, error) {
	op, err := tb.eng.Watching(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return consoleOut{}, err
	}
	level, limit := a.Level, a.Limit
	min := 0
	if level != "all" {
		min = levelRank[level]
	}
	all, evicted := op.Console()
	var picked []rdp.ConsoleEntry
	matched := 0
	for _, e := range all {
		if e.Kind == "navigation" || levelRank[e.Level] >= min {
			picked = append(picked, e)
			if e.Kind != "navigation" {
				matched++
			}
		}
	}
	picked, shown := lastEntries(picked, limit, func(e *rdp.ConsoleEntry) bool { return e.Kind != "navigation" },
		func(e *rdp.ConsoleEntry) int { return len(e.Text) + len(e.Source) + len(e.URL) })
	u := browser.NewUntrusted()
	for i := range picked {
		u.Line(consoleLine(&picked[i]))
	}
	head := fmt.Sprintf("Console of %s: %d of %s (level %s, newest last", op.TabID(), shown,
		browser.Plural(matched, "matching message", "matching messages"), level)
	if evicted > 0 {
		head += fmt.Sprintf("; %d older messages were dropped from the %d-entry buffer", evicted, rdp.MaxConsoleEntries)
	}
	head += ")."
	head += moreNote(shown, matched, limit, rdp.MaxConsoleEntries)
	out := consoleOut{TabID: op.TabID(), Level: level, Matching: matched, Shown: shown, Evicted: evicted}
	out.text = head + "\n" + u.String()
	return out, nil
}

// lastEntries keeps the newest entries: at most limit that count, within
// MaxListChars; it returns them oldest first and how many counted.
func lastEntries[T any](in []T, limit int, counts func(*T) bool, size func(*T) int) ([]T, int) {
	n, chars, start := 0, 0, len(in)
	for i := len(in) - 1; i >= 0; i-- {
		c := counts(&in[i])
		if c && n == limit {
			break
		}
		sz := min(size(&in[i]), maxEntryChars) + 40
		if chars+sz > MaxListChars && n > 0 {
			break
		}
		chars += sz
		if c {
			n++
		}
		start = i
	}
	return in[start:], n
}

// consoleLine renders one entry: [#seq] LEVEL what text (source:line:col).
func consoleLine(e *rdp.ConsoleEntry) string {
	if e.Kind == "navigation" {
		return "--- the tab navigated to " + browser.Quote(stripCredentials(e.URL), 300) + " ---"
	}
	var b strings.Builder
	b.WriteString("[#" + strconv.FormatUint(e.Seq, 10) + "] " + e.Level + " ")
	switch {
	case e.Kind == "console":
		b.WriteString("console." + e.Method + ": ")
	case e.Rejection:
		b.WriteString("unhandled rejection: ")
	case e.Level == "error":
		b.WriteString("uncaught: ")
	default:
		b.WriteString("browser: ")
	}
	b.WriteString(browser.Truncate(e.Text, maxEntryChars))
	if e.Source != "" {
		b.WriteString(" (" + browser.Truncate(stripCredentials(e.Source), 300))
		if e.Line > 0 {
			b.WriteString(":" + strconv.Itoa(e.Line))
			if e.Col > 0 {
				b.WriteString(":" + strconv.Itoa(e.Col))
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

// moreNote says why older entries were left out: the limit, or the
// character cap of one answer.
func moreNote(shown, matched, limit, max int) string {
	switch {
	case shown == matched:
		return ""
	case shown < limit:
		return " Older ones are left out: the answer was cut at 40,000 characters; narrow it (level, filter) to see them."
	case limit < max:
		return fmt.Sprintf(" Raise limit (up to %d) for older ones.", max)
	}
	return ""
}
