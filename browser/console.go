package browser

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// maxKeptTabs bounds the tabs whose console and network buffers are kept
// after another tab is selected; the least recently selected goes first.
const maxKeptTabs = 8

// keptWatches holds one extra handle on the watch of each tab selected on
// this connection, so its buffers (rdp.TabWatch.Console, Network) survive
// selecting another tab and coming back. Guarded by Session.mu.
type keptWatches struct {
	m     map[int64]*keptWatch
	clock uint64
	max   int // 0 = maxKeptTabs (tests set less)
}

type keptWatch struct {
	h    tabWatch
	used uint64
}

// keep makes sure sel's tab has a kept handle, and marks it used.
func (k *keptWatches) keep(sel *selection) {
	if sel == nil || sel.watch == nil {
		return
	}
	if k.m == nil {
		k.m = map[int64]*keptWatch{}
	}
	k.clock++
	id := sel.tab.BrowserID
	if kw := k.m[id]; kw != nil && kw.h.Err() == nil {
		kw.used = k.clock
		return
	} else if kw != nil {
		kw.h.Close()
		delete(k.m, id)
	}
	h, err := sel.watch.Clone()
	if err != nil {
		return
	}
	k.m[id] = &keptWatch{h: h, used: k.clock}
	for bid, kw := range k.m {
		if kw.h.Err() != nil { // tab closed
			kw.h.Close()
			delete(k.m, bid)
		}
	}
	max := k.max
	if max == 0 {
		max = maxKeptTabs
	}
	for len(k.m) > max {
		var oldest int64
		var at uint64 = ^uint64(0)
		for bid, kw := range k.m {
			if kw.used < at {
				oldest, at = bid, kw.used
			}
		}
		k.m[oldest].h.Close()
		delete(k.m, oldest)
	}
}

func (k *keptWatches) closeAll() {
	for _, kw := range k.m {
		kw.h.Close()
	}
	k.m = nil
}

// Output bounds of console_messages and network_requests.
const (
	maxListChars  = 40_000 // characters of entries in one answer
	maxEntryChars = 1000   // characters of one console message shown
)

var consoleTool = tool[consoleArgs, consoleOut]{
	Name: "console_messages", Title: "Console messages",
	Description: "The selected tab's console calls, uncaught exceptions and unhandled rejections with their source, newest last, a line per navigation; kept since the tab was first selected (last 1000). At most limit entries, 40,000 characters.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Session).consoleMessages,
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

func (s *Session) consoleMessages(ctx context.Context, a *consoleArgs, _ Progress) (consoleOut, error) {
	pg, err := s.selectedTab(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return consoleOut{}, err
	}
	level, limit := a.Level, a.Limit
	min := 0
	if level != "all" {
		min = levelRank[level]
	}
	all, evicted := pg.sel.watch.Console()
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
	u := NewUntrusted()
	for i := range picked {
		u.Line(consoleLine(&picked[i]))
	}
	head := fmt.Sprintf("Console of %s: %d of %s (level %s, newest last", TabID(pg.sel.tab.BrowserID), shown,
		Plural(matched, "matching message", "matching messages"), level)
	if evicted > 0 {
		head += fmt.Sprintf("; %d older messages were dropped from the %d-entry buffer", evicted, rdp.MaxConsoleEntries)
	}
	head += ")."
	head += moreNote(shown, matched, limit, rdp.MaxConsoleEntries)
	out := consoleOut{TabID: TabID(pg.sel.tab.BrowserID), Level: level, Matching: matched, Shown: shown, Evicted: evicted}
	out.text = head + "\n" + u.String()
	return out, nil
}

// lastEntries keeps the newest entries: at most limit that count, within
// maxListChars; it returns them oldest first and how many counted.
func lastEntries[T any](in []T, limit int, counts func(*T) bool, size func(*T) int) ([]T, int) {
	n, chars, start := 0, 0, len(in)
	for i := len(in) - 1; i >= 0; i-- {
		c := counts(&in[i])
		if c && n == limit {
			break
		}
		sz := min(size(&in[i]), maxEntryChars) + 40
		if chars+sz > maxListChars && n > 0 {
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
		return "--- the tab navigated to " + Quote(stripCredentials(e.URL), 300) + " ---"
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
	b.WriteString(Truncate(e.Text, maxEntryChars))
	if e.Source != "" {
		b.WriteString(" (" + Truncate(stripCredentials(e.Source), 300))
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
