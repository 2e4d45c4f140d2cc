package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Table is the tool table over one engine session: what tools/list shows,
// and each call's arguments decoded, run and answered.
type Table struct {
	eng   *browser.Session
	opts  browser.Options
	log   *slog.Logger
	tools []toolDef
	byKey map[string]*toolDef
}

// New makes the table over eng, with the limits of eng's options in the
// schemas.
func New(eng *browser.Session) *Table {
	opts := eng.Options()
	tb := &Table{eng: eng, opts: opts, log: opts.Logger, tools: toolTable(), byKey: map[string]*toolDef{}}
	if tb.log == nil {
		tb.log = slog.New(slog.DiscardHandler)
	}
	lim := limits{"max_elements": opts.MaxElements, "max_text_chars": opts.MaxTextChars}
	for i := range tb.tools {
		t := &tb.tools[i]
		sc, err := schemaOf(t.in, lim)
		if err != nil {
			panic(err) // checked when the table was built
		}
		t.schema = sc
		b, err := json.Marshal(t.schema)
		if err != nil {
			panic(err) // the schema was parsed from JSON at start-up
		}
		t.InputSchema = b
		tb.byKey[t.Name] = t
	}
	return tb
}

// Tools lists the tools, with the configured limits in their schemas.
func (tb *Table) Tools() []Tool {
	out := make([]Tool, len(tb.tools))
	for i, t := range tb.tools {
		out[i] = t.Tool
	}
	return out
}

// Call runs one tool. An unknown name is reported as ok == false, so the
// caller can answer with a protocol error; every other failure is a *browser.Error.
func (tb *Table) Call(ctx context.Context, name string, args json.RawMessage, p browser.Progress) (res Result, err error, ok bool) {
	t := tb.byKey[name]
	if t == nil {
		return Result{}, nil, false
	}
	if p == nil {
		p = noProgress{}
	}
	start := time.Now()
	var note string
	var auto *browser.AutoSelected
	// Arguments are checked before a tab is chosen: a bad call changes nothing.
	err = t.check(tb, args)
	if err == nil && !tablessTools[name] {
		note, auto, err = tb.eng.AutoSelect(ctx, p)
	}
	if err == nil {
		res, err = t.run(ctx, tb, args, p)
		err = tb.afterStart(ctx, t, auto, err, func() error { res, err = t.run(ctx, tb, args, p); return err })
	}
	if err == nil && note != "" {
		res = withAutoNote(res, note, auto)
	}
	err = tb.eng.Classify(ctx, err)
	if e, isErr := browser.AsError(err); isErr && note != "" {
		err = e.Prefixed(note, "URL", auto.URL, 200)
	}
	if e, isErr := browser.AsError(err); isErr {
		tb.log.Debug("tool failed", "tool", name, "code", e.Code, "ms", time.Since(start).Milliseconds())
	} else {
		tb.log.Debug("tool done", "tool", name, "ms", time.Since(start).Milliseconds())
	}
	return res, err, true
}

// Answer runs one tool and shapes a failure as a tool error result: its
// text (page-derived values inside markers) and {"error":{code, message,
// retryable, …}}. It is where every tool error takes its final form. An
// unknown name is ok == false.
func (tb *Table) Answer(ctx context.Context, name string, args json.RawMessage, p browser.Progress) (res Result, ok bool) {
	res, err, ok := tb.Call(ctx, name, args, p)
	if !ok || err == nil {
		return res, ok
	}
	e, _ := browser.AsError(err)
	return Result{Text: e.Text(), Structured: e.Structured(), IsError: true}, true
}

// afterStart handles a failure of the first call on a Firefox that was
// still starting (auto.Starting): its first page can be slow to answer
// while the browser finishes starting. A read-only tool is run once more
// (again runs it); an action is not, as it may have taken effect, and its
// page_unresponsive says the browser was starting, not that a script loops.
func (tb *Table) afterStart(ctx context.Context, t *toolDef, auto *browser.AutoSelected, err error, again func() error) error {
	if err == nil || auto == nil || !auto.Starting || ctx.Err() != nil {
		return err
	}
	e, ok := browser.AsError(tb.eng.Classify(ctx, err))
	if !ok || (e.Code != errcode.PageUnresponsive && e.Code != errcode.TargetReplaced && e.Code != errcode.RDPTimeout) {
		return err
	}
	if t.Annotations.ReadOnly {
		tb.log.Info("retrying the first call on a Firefox that was starting", "tool", t.Name, "code", e.Code)
		if err = again(); err == nil {
			return nil
		}
		if e, ok = browser.AsError(tb.eng.Classify(ctx, err)); !ok || e.Code != errcode.PageUnresponsive {
			return err
		}
	}
	if e.Code == errcode.PageUnresponsive {
		return &browser.Error{Code: e.Code, Message: "Firefox was still starting and its first page did not answer in time; call again in a few seconds", Details: e.Details}
	}
	return err
}

type noProgress struct{}

func (noProgress) Report(float64, float64, string) {}

// withAutoNote adds to a result which tab Call selected for it.
func withAutoNote(res Result, note string, auto *browser.AutoSelected) Result {
	res.Text = note + "\n" + browser.Marked("URL", auto.URL, 200) + "\n" + res.Text
	if a, ok := res.Structured.(answerer); ok {
		a.answer().AutoSelected = auto
	}
	return res
}
