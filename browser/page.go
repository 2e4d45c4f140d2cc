package browser

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

type snapshotArgs struct {
	IncludeAllText *bool   `json:"include_all_text"`
	MaxElements    *int    `json:"max_elements"`
	MaxTextChars   *int    `json:"max_text_chars"`
	Offset         *int    `json:"offset"`
	Query          *string `json:"query"`
}

func (s *Session) snapshotPage(ctx context.Context, a *snapshotArgs, _ Progress) (Result, error) {
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	maxEl, maxText := s.opts.Config.MaxElements, s.opts.Config.MaxTextChars
	if a.MaxElements != nil {
		maxEl = *a.MaxElements
	}
	if a.MaxTextChars != nil {
		maxText = *a.MaxTextChars
	}
	withText := a.IncludeAllText != nil && *a.IncludeAllText
	args := pagejs.SnapshotArgs{MaxElements: maxEl, MaxTextChars: maxText, IncludeAllText: withText}
	if a.Offset != nil {
		args.Offset = *a.Offset
	}
	if a.Query != nil {
		args.Query = *a.Query
	}

	// Reading is safe to repeat: when the page navigates under the walk,
	// read the new document once more.
	var (
		pg      page
		r       pagejs.SnapshotResult
		gen     uint64
		out     snapLines
		skipped string
	)
	for attempt := 0; ; attempt++ {
		var err error
		if pg, err = s.selected(ctx); err != nil {
			return Result{}, err
		}
		var (
			top    *docSnap
			frames map[int64]*docSnap
		)
		top, frames, skipped = s.readAll(ctx, pg, args)
		r, err = top.r, top.err
		if err == nil {
			s.mu.Lock()
			if s.sel != pg.sel || s.syncLocked(pg.sel) {
				err = errorf(CodeTargetReplaced, "the page navigated while it was being read; take the snapshot again")
			} else {
				gen = s.generation
				out = s.renderLocked(pg, gen, top, frames, args)
				if frames == nil && args.Offset == 0 && args.Query == "" {
					// The agent's view, for the next delta: the whole top
					// document (a page or a filter of it is not a view of it).
					s.rememberLocked(pg.sel, gen, &r, s.boundWalkInfoLocked(pg.sel, top))
				}
			}
			s.mu.Unlock()
		}
		if err == nil {
			break
		}
		if e, ok := AsError(s.classify(ctx, err)); attempt > 0 || !ok || e.Code != CodeTargetReplaced {
			return Result{}, err
		}
		if _, err := s.current(ctx, pg); err != nil { // wait for the new document
			return Result{}, err
		}
	}

	return s.snapshotResult(tabID(pg.sel.tab.BrowserID), gen, out, skipped, &r, args), nil
}

// snapshotResult renders a snapshot: the header, the element lines and page
// text between the untrusted-content markers, and the truncation lines.
func (s *Session) snapshotResult(tab string, gen uint64, out snapLines, skipped string, r *pagejs.SnapshotResult, args pagejs.SnapshotArgs) Result {
	withText := args.IncludeAllText
	u := newUntrusted()
	u.grow(48*len(out.lines) + 1024) // ≈33 bytes per element line on typical pages
	u.field("Page", r.Title, 200)
	u.field("URL", r.URL, 500)
	for _, l := range out.lines {
		u.line(l)
	}
	text := ""
	if r.Text != nil {
		text = *r.Text
	}
	if withText && text != "" {
		u.line("--- page text ---")
		u.text(text)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Snapshot of %s, generation %d: %s.\n", tab, gen, shownElements(args, out.shown, out.total, out.all))
	b.WriteString(u.String())
	next := args.Offset + out.shown
	truncated := next < out.total
	if truncated {
		fmt.Fprintf(&b, "\n[truncated: %s shown, in document order; next: snapshot_page %s]",
			shownRange(args.Offset, out.shown, out.total), nextCall(args, next))
	}
	if skipped != "" {
		b.WriteString("\n[frames not shown: " + skipped + "]")
	}
	textCut := withText && utf16Len(text) < r.TextTotal
	if textCut {
		fmt.Fprintf(&b, "\n[text truncated: %d of %d characters shown; raise max_text_chars (limit %d)]",
			utf16Len(text), r.TextTotal, s.opts.Config.MaxTextChars)
	}
	st := map[string]any{
		"tab_id": tab, "generation": gen, "title": pageStr(r.Title), "url": pageStr(r.URL),
		"elements": out.shown, "total_elements": out.total, "truncated": truncated, "offset": args.Offset, "frames": out.frames,
	}
	if args.Query != "" {
		st["query"], st["all_elements"] = args.Query, out.all
	}
	if truncated {
		st["next_offset"] = next
	}
	if withText {
		st["text_chars"], st["total_text_chars"], st["text_truncated"] = utf16Len(text), r.TextTotal, textCut
	}
	return Result{Text: b.String(), Structured: st}
}

// shownElements says how many elements the snapshot lists, and of how many.
func shownElements(a pagejs.SnapshotArgs, n, total, all int) string {
	out := plural(n, "element", "elements")
	if a.Query != "" {
		out += fmt.Sprintf(" (%d of the page's %d match %s)", total, all, strconv.Quote(a.Query))
	}
	if a.Offset > 0 || n < total {
		out += " (" + shownRange(a.Offset, n, total) + ")"
	}
	return out
}

// shownRange names the listed elements by position: "501–1000 of 3000".
func shownRange(offset, n, total int) string {
	if n == 0 {
		return fmt.Sprintf("none from offset %d of %d", offset, total)
	}
	return fmt.Sprintf("%d–%d of %d", offset+1, offset+n, total)
}

// nextCall is the exact snapshot_page arguments that continue where this
// snapshot stopped, as JSON.
func nextCall(a pagejs.SnapshotArgs, next int) string {
	type call struct {
		Offset         int    `json:"offset"`
		MaxElements    int    `json:"max_elements"`
		Query          string `json:"query,omitempty"`
		IncludeAllText bool   `json:"include_all_text,omitempty"`
	}
	c := call{Offset: next, MaxElements: a.MaxElements, Query: a.Query, IncludeAllText: a.IncludeAllText}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprintf(`{"offset":%d}`, next)
	}
	return string(b)
}

// snapshot reads the page. It walks the DOM in the page realm first, which
// is much faster than walking it through Xray wrappers (measured on the
// 3,000-element fixture with its text, per call: ≈100 ms against ≈215 ms,
// ≈72 ms resident: see callResident). The page
// can lie there, but a lie only makes a later action fail its fingerprint
// check in the isolated realm. A page that breaks the walk outright (say, by
// replacing JSON.stringify) gets it redone in the isolated realm.
func (s *Session) snapshot(ctx context.Context, pg page, args pagejs.SnapshotArgs) (pagejs.SnapshotResult, error) {
	var r pagejs.SnapshotResult
	kind := pageRealm
	if s.opts.ReadInIsolatedRealm {
		kind = readRealm
	}
	err := s.execSnapshot(ctx, pg, kind, args, &r)
	// A page that does not answer or a tab without a document is no better
	// in the isolated realm: those errors stand.
	stands := errors.Is(err, rdp.ErrUnresponsive) || errors.Is(err, rdp.ErrNoTarget) || errors.Is(err, rdp.ErrTabClosed)
	if kind == pageRealm && !s.opts.PageRealmOnly && ctx.Err() == nil && !stands && (err != nil || r.Elements == nil || r.URL == "") {
		if e, ok := AsError(err); !ok || e.Code == CodePageScriptFailed || e.Code == CodeInvalidSelector {
			s.log.Info("page-realm snapshot unusable; reading through the isolated realm", "error", err)
			r = pagejs.SnapshotResult{}
			_, err = s.exec(ctx, pg, readRealm, pagejs.Snapshot, args, &r)
		}
	}
	if err == nil && r.Elements == nil {
		err = errorf(CodePageScriptFailed, "the page returned an unreadable snapshot")
	}
	return r, err
}

// elementLine renders one element compactly: [ref] role "name" states.
func elementLine(ref string, e *pagejs.Element) string {
	return "[" + ref + "] " + elementBody(e)
}

// elementBody is an element's line without "[ref] ".
func elementBody(e *pagejs.Element) string {
	var b strings.Builder
	role := e.Role
	switch {
	case role != "":
	case e.Tag == "input" && e.Type == "file":
		role = "file"
	case e.Tag == "input" && e.Type != "":
		role = e.Type
	default:
		role = e.Tag
	}
	b.WriteString(role)
	if e.Name != "" {
		b.WriteString(" " + quote(e.Name, 80))
	}
	if e.Value != nil && *e.Value != "" {
		b.WriteString(" value=" + quote(*e.Value, 60))
	}
	flag := func(on bool, s string) {
		if on {
			b.WriteString(" " + s)
		}
	}
	flag(e.Checked != nil && *e.Checked, "checked")
	flag(e.Mixed, "mixed")
	flag(e.Selected != nil && *e.Selected, "selected")
	flag(e.Expanded != nil, map[bool]string{true: "expanded", false: "collapsed"}[e.Expanded != nil && *e.Expanded])
	flag(e.Disabled, "disabled")
	flag(e.Readonly, "readonly")
	flag(e.Required, "required")
	flag(e.Multiple, "multiple")
	if e.Accept != "" {
		b.WriteString(" accept=" + quote(e.Accept, 60))
	}
	if e.Href != "" {
		b.WriteString(" → " + linkTarget(e.Href))
	}
	return b.String()
}

// linkTarget shows where a link goes, compactly: the snapshot's href is
// already origin-relative for the page's own origin. Tracking parameters
// (utm_*, ref, trk, fbclid, …) are left out: they do not tell two
// destinations apart (the fingerprint keeps the whole target). Plain URLs
// are shown bare; anything with spaces, quotes or control characters is
// quoted.
func linkTarget(href string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		href = href[:i] + dropTracking(href[i:])
	}
	for i := 0; i < len(href); i++ {
		if c := href[i]; c <= ' ' || c == '"' || c == '\\' || c >= 0x7f {
			return quote(href, 120)
		}
	}
	return truncate(href, 120)
}

// dropTracking removes tracking parameters from "?query#fragment".
func dropTracking(q string) string {
	frag := ""
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q, frag = q[:i], q[i:]
	}
	var kept []string
	for _, p := range strings.Split(strings.TrimPrefix(q, "?"), "&") {
		name, _, _ := strings.Cut(p, "=")
		if p == "" || trackingParam(strings.ToLower(name)) {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return frag
	}
	return "?" + strings.Join(kept, "&") + frag
}

func trackingParam(name string) bool {
	switch name {
	case "ref", "ref_src", "refid", "trk", "trkinfo", "trackingid", "fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid", "mc_eid", "_hsenc", "_hsmi":
		return true
	}
	return strings.HasPrefix(name, "utm_")
}

// acting takes the page-operation lock and resolves ref in the selected
// tab; release gives the lock back.
func (s *Session) acting(ctx context.Context, ref string) (pg page, l *locator, release func(), err error) {
	if err := s.lock(ctx); err != nil {
		return page{}, nil, nil, err
	}
	if pg, err = s.selected(ctx); err == nil {
		if l, err = s.target(pg, ref); err == nil {
			pg = inFrame(pg, l)
		}
	}
	if err != nil {
		s.unlock()
		return page{}, nil, nil, err
	}
	return pg, l, s.unlock, nil
}

// target resolves a ref of the selected tab's current generation.
func (s *Session) target(pg page, ref string) (*locator, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.refs.lookup(ref)
	if err != nil {
		return nil, err
	}
	if l.generation != pg.generation || l.browserID != pg.sel.tab.BrowserID {
		return nil, errorf(CodeStaleElement, "%s is from an earlier state of the page; take a new snapshot", ref)
	}
	return l, nil
}

// after reports, once an action ran, where the page is and whether it
// navigated (which starts a new generation: refs stop working).
func (s *Session) after(ctx context.Context, pg page, before string) (urlNow string, navigated bool) {
	return s.afterSeen(ctx, pg, before, "")
}

// afterSeen is after given the URL the document showed a moment ago (seen,
// read in the realm after would read it in; "": unknown), which stands when
// the document did not change since.
func (s *Session) afterSeen(ctx context.Context, pg page, before, seen string) (urlNow string, navigated bool) {
	if pg.frame != nil {
		return s.frameAfter(ctx, pg)
	}
	navigated = s.sync(pg.sel)
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var info pagejs.PageInfoResult
	if seen != "" && !navigated {
		urlNow = seen
	} else if _, err := s.exec(cctx, pg, readRealm, pagejs.PageInfo, struct{}{}, &info); err == nil {
		urlNow = info.URL
	} else if t, err := pg.sel.watch.Current(cctx); err == nil {
		urlNow = t.URL
	}
	if !navigated && urlNow != "" && before != "" && urlNow != before {
		// Same-document URL change (history.pushState): the application
		// changed "page", so refs start over too.
		s.mu.Lock()
		if s.sel == pg.sel {
			s.newGenerationLocked()
		}
		s.mu.Unlock()
		navigated = true
	}
	if !navigated {
		navigated = s.sync(pg.sel)
	}
	return urlNow, navigated
}

func trustNote(trusted bool, info execInfo) string {
	if trusted {
		return "trusted input"
	}
	if info.reason != "" {
		return "synthetic page-script event, not trusted: " + info.reason
	}
	return "synthetic page-script event, not trusted"
}

// actionText is an action's result text; the URL it navigated to and the
// page-derived fields in extra follow inside markers. With an observation
// of the new page, its elements follow (obs.add).
func (s *Session) actionText(verb, ref string, trusted bool, info execInfo, urlNow string, navigated bool, note string, obs *observation, extra ...pageField) string {
	t := fmt.Sprintf("%s %s (%s).%s", verb, ref, trustNote(trusted, info), note)
	u := newUntrusted()
	if navigated {
		t += " The page changed (its URL is below): all earlier refs are now stale"
		if obs != nil {
			t += "; the new page's elements follow."
		} else {
			t += ", take a new snapshot."
		}
		u.field("URL", urlNow, 300)
	}
	for _, f := range extra {
		u.field(f.label, f.value, f.max)
	}
	if !u.empty() {
		t += "\n" + u.String()
	}
	return t
}

type clickArgs struct {
	Element     string `json:"element"`
	WaitAfterMS *int   `json:"wait_after_ms"`
	Observe     *bool  `json:"observe"`
}

func (s *Session) click(ctx context.Context, a *clickArgs, _ Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	s.activate(ctx, pg)
	openers, known := s.openers(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.Click, pagejs.ClickArgs{Sel: l.sel, FP: l.fp, Ref: boundRef(l)}, &r)
	if res, ok := s.actionDialog(pg, "Clicked", a.Element, info, err); ok {
		return res, nil
	}
	if err != nil {
		return Result{}, err
	}
	wait := defaultSettleCap
	if a.WaitAfterMS != nil {
		wait = time.Duration(*a.WaitAfterMS) * time.Millisecond
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, wait, observing(a.Observe))
	if err != nil {
		return Result{}, err
	}
	// A dialog the page opened after the click (a timer, a request's
	// answer) does not make the click fail: it is reported as the click's.
	if err := s.noDialog(ctx, pg); err != nil {
		if res, ok := s.actionDialog(pg, "Clicked", a.Element, info, err); ok {
			return res, nil
		}
		return Result{}, err
	}
	st := withRef(map[string]any{"element": a.Element, "trusted": r.Trusted, "url": pageStr(urlNow), "navigated": nav}, l, info)
	note := refNote(l, info)
	if tabs := s.clickOpened(ctx, pg, openers, known); len(tabs) > 0 {
		st["opened_tabs"] = tabs
		note += " The click opened " + strings.Join(tabs, ", ") + " (not selected; select_tab to work in it, close_tab to close it)."
		obs.dropTabs() // said here, with close_tab
	}
	res := Result{Text: s.actionText("Clicked", a.Element, r.Trusted, info, urlNow, nav, note, obs, frameFields(l)...), Structured: st}
	obs.add(&res)
	return res, nil
}

type fillArgs struct {
	Element string `json:"element"`
	Value   string `json:"value"`
	Submit  *bool  `json:"submit"`
	Observe *bool  `json:"observe"`
}

func (s *Session) fill(ctx context.Context, a *fillArgs, _ Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	submit := a.Submit != nil && *a.Submit
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.Fill, pagejs.FillArgs{Sel: l.sel, FP: l.fp, Value: a.Value, Submit: submit, Ref: boundRef(l)}, &r)
	if e, ok := AsError(err); ok && e.Code == CodeOptionNotFound {
		return Result{}, s.listOptions(ctx, pg, l, a.Element, a.Value, e)
	}
	if err != nil {
		return Result{}, err
	}
	urlNow, nav := r.URL, false
	var obs *observation
	if submit || observing(a.Observe) {
		if urlNow, nav, obs, err = s.endAction(ctx, pg, r.URL, defaultSettleCap, observing(a.Observe)); err != nil {
			return Result{}, err
		}
	}
	verb := "Filled"
	if submit {
		verb = "Filled and submitted the form of"
	}
	st := withRef(map[string]any{"element": a.Element, "trusted": r.Trusted, "submitted": submit, "url": pageStr(urlNow), "navigated": nav}, l, info)
	extra := frameFields(l)
	note := refNote(l, info)
	if r.Value != nil {
		st["value"] = pageStr(*r.Value)
		switch {
		case r.Shown != nil: // a select: value was matched by option value or label
			st["shown"] = pageStr(*r.Shown)
			note += " The select now shows the option below."
			if r.Kept != nil && !*r.Kept {
				note += " The page's change handler picked another option than the one asked for; the select shows the one below."
			}
			extra = append(extra, pageField{"Shows", *r.Shown, 200})
		case *r.Value != a.Value:
			note += " The page changed or limited the value: the field now holds the value below."
			extra = append(extra, pageField{"Value", *r.Value, 200})
		}
	}
	res := Result{Text: s.actionText(verb, a.Element, r.Trusted, info, urlNow, nav, note, obs, extra...), Structured: st}
	obs.add(&res)
	return res, nil
}

type typeTextArgs struct {
	Element string `json:"element"`
	Text    string `json:"text"`
	DelayMS *int   `json:"delay_ms"`
	Observe *bool  `json:"observe"`
}

// typeChunk is how many characters one evaluation types when there is no
// delay between characters; cancellation is checked between chunks.
const typeChunk = 200

func (s *Session) typeText(ctx context.Context, a *typeTextArgs, p Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	delay := 0
	if a.DelayMS != nil {
		delay = *a.DelayMS
	}
	size := typeChunk
	if delay > 0 {
		size = 1
	}
	runes := []rune(a.Text)
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	var info execInfo
	for i := 0; i < len(runes); i += size {
		if i > 0 {
			if err := sleep(ctx, time.Duration(delay)*time.Millisecond); err != nil {
				return Result{}, fmt.Errorf("after %d of %d characters: %w", i, len(runes), err)
			}
		}
		chunk := string(runes[i:min(i+size, len(runes))])
		info, err = s.exec(ctx, pg, actionRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: l.sel, FP: l.fp, Text: chunk, FirstChunk: i == 0, Ref: boundRef(l)}, &r)
		if err != nil {
			if i > 0 && ctx.Err() == nil && s.sync(pg.sel) {
				// The typing made the page navigate: the element is gone
				// with its document, whatever the next chunk found.
				err = errorf(CodeTargetReplaced, "the page navigated while typing; take a new snapshot")
			}
			if e, ok := AsError(err); ok && i > 0 {
				e.Message = fmt.Sprintf("%s (after %d of %d characters were typed)", e.Message, i, len(runes))
			}
			return Result{}, err
		}
		p.Report(float64(min(i+size, len(runes))), float64(len(runes)), "typing")
	}
	limit := time.Duration(0)
	if observing(a.Observe) {
		limit = defaultSettleCap
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, limit, observing(a.Observe))
	if err != nil {
		return Result{}, err
	}
	res := Result{
		Text:       s.actionText(fmt.Sprintf("Typed %s into", plural(len(runes), "character", "characters")), a.Element, r.Trusted, info, urlNow, nav, refNote(l, info), obs, frameFields(l)...),
		Structured: withRef(map[string]any{"element": a.Element, "trusted": r.Trusted, "characters": len(runes), "url": pageStr(urlNow), "navigated": nav}, l, info),
	}
	obs.add(&res)
	return res, nil
}

type pressKeyArgs struct {
	Key     string  `json:"key"`
	Element *string `json:"element"`
	Observe *bool   `json:"observe"`
}

func (s *Session) pressKey(ctx context.Context, a *pressKeyArgs, _ Progress) (Result, error) {
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	combo, err := parseKey(a.Key)
	if err != nil {
		return Result{}, err
	}
	pg, err := s.selected(ctx)
	if err != nil {
		return Result{}, err
	}
	args := pagejs.PressKeyArgs{Key: combo.Key, Mods: combo.Mods}
	what := "the focused element"
	var l *locator
	if a.Element != nil {
		l, err = s.target(pg, *a.Element)
		if err != nil {
			return Result{}, err
		}
		pg = inFrame(pg, l)
		fp := l.fp
		args.Sel, args.FP, args.Ref = l.sel, &fp, boundRef(l)
		what = *a.Element
	}
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.PressKey, args, &r)
	if res, ok := s.actionDialog(pg, "Pressed "+a.Key+" on", what, info, err); ok {
		return res, nil
	}
	if err != nil {
		return Result{}, err
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, defaultSettleCap, observing(a.Observe))
	if err != nil {
		return Result{}, err
	}
	extra := frameFields(l)
	if r.Focused != "" && !nav {
		extra = append(extra, pageField{"Focus", r.Focused, 120})
	}
	text := s.actionText("Pressed "+combo.String()+" on", what, r.Trusted, info, urlNow, nav, refNote(l, info), obs, extra...)
	st := map[string]any{"key": combo.String(), "trusted": r.Trusted, "focused": pageStr(r.Focused), "url": pageStr(urlNow), "navigated": nav}
	if l != nil {
		st = withRef(st, l, info)
	}
	res := Result{Text: text, Structured: st}
	obs.add(&res)
	return res, nil
}

type navigateArgs struct {
	URL       *string `json:"url"`
	History   *string `json:"history"`
	Wait      *string `json:"wait"`
	TimeoutMS *int    `json:"timeout_ms"`
	Observe   *bool   `json:"observe"`
}

// settledGeneration takes in the navigations the watch saw during a
// navigation (the generation it started already covers them) and returns
// the current generation.
func (s *Session) settledGeneration(pg page) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == pg.sel {
		s.syncLocked(pg.sel)
		pg.sel.navs = pg.sel.watch.Navigations()
	}
	return s.generation
}

// waits are navigate's wait state and timeout, defaults applied.
func (a *navigateArgs) waits() (wait string, timeout time.Duration) {
	wait, timeout = "dom", 30*time.Second
	if a.Wait != nil {
		wait = *a.Wait
	}
	if a.TimeoutMS != nil {
		timeout = time.Duration(*a.TimeoutMS) * time.Millisecond
	}
	return wait, timeout
}

// checkURL accepts only absolute http(s) URLs without credentials.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, errorf(CodeInvalidArguments, "url is not a valid URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errorf(CodeInvalidArguments, "only http and https URLs can be opened, not %q", truncate(u.Scheme, 20)+":")
	case u.Host == "" || u.Opaque != "":
		return nil, errorf(CodeInvalidArguments, "url must be absolute, like https://example.com/path")
	case u.User != nil:
		return nil, errorf(CodeInvalidArguments, "url must not carry a user name or password")
	}
	return u, nil
}

func (s *Session) navigate(ctx context.Context, a *navigateArgs, p Progress) (Result, error) {
	if (a.URL == nil) == (a.History == nil) {
		return Result{}, errorf(CodeInvalidArguments, "give exactly one of url (to load a page) or history (back, forward or reload)")
	}
	if a.History != nil {
		return s.navigateHistory(ctx, a, p)
	}
	u, err := checkURL(*a.URL)
	if err != nil {
		return Result{}, err
	}
	wait, timeout := a.waits()
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	pg, err := s.selected(ctx)
	if err != nil {
		return Result{}, err
	}
	before, sameDoc, err := s.startNavigation(ctx, pg, u)
	if err != nil {
		return Result{}, err
	}
	// Refs die with the old document, whatever happens next.
	s.mu.Lock()
	if s.sel == pg.sel {
		s.newGenerationLocked()
		pg.sel.navs = pg.sel.watch.Navigations()
	}
	s.mu.Unlock()

	final, title := u.String(), ""
	var load pagejs.LoadStateResult
	if wait != "none" {
		t, err := s.waitNavigation(ctx, pg, u, before, sameDoc, wait, timeout)
		if err != nil {
			return Result{}, err
		}
		if !sameDoc {
			final, title = t.URL, t.Title
		}
		if load, err = s.loadState(ctx, pg); err != nil {
			return Result{}, err
		}
	}
	gen := s.settledGeneration(pg)
	blk := newUntrusted()
	blk.field("URL", final, 500)
	text := fmt.Sprintf("Navigated %s (generation %d); the final URL is below.\n", tabID(pg.sel.tab.BrowserID), gen)
	if wait == "none" {
		text = fmt.Sprintf("Started loading the URL below in %s (not waited for; generation %d).\n", tabID(pg.sel.tab.BrowserID), gen)
	}
	st := map[string]any{"url": pageStr(final), "generation": gen, "waited": wait}
	if title != "" {
		st["title"] = pageStr(title)
		blk.field("Title", title, 200)
	}
	if load.Status > 0 {
		st["status"] = load.Status
		if load.Status >= 400 {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" The server answered HTTP %d: the page is an error page.\n", load.Status)
		} else {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" HTTP %d.\n", load.Status)
		}
	}
	res := Result{Text: text + blk.String(), Structured: st}
	if wait != "none" && observing(a.Observe) {
		_, serr := s.settle(ctx, pg, defaultSettleCap)
		obs := s.observe(ctx, pg, observeOpts{navigated: true}, serr)
		obs.add(&res)
	}
	return res, nil
}

// startNavigation asks the selected tab to load u and returns the
// navigation count from before. The request goes to the current document's
// target; if that document is replaced before the request lands (a load
// already under way), it goes to the new one (loading a URL twice is
// harmless). A tab with no document the debugger can reach is loaded from
// the parent process instead; a target that does not answer is a page stuck
// in a script.
func (s *Session) startNavigation(ctx context.Context, pg page, u *url.URL) (before uint64, sameDoc bool, err error) {
	for attempt := 0; ; attempt++ {
		t, err := s.current(ctx, pg)
		if e, ok := AsError(err); ok && e.Code == CodeTargetGone && ctx.Err() == nil {
			// No document to ask: load the URL from the parent process.
			before = pg.sel.watch.Navigations()
			cctx, cancel := context.WithTimeout(ctx, ackTimeout)
			defer cancel()
			var r pagejs.TabResult
			err := s.chrome(cctx, pg, pagejs.TabNavigate, pagejs.TabNavigateArgs{BrowserID: pg.sel.tab.BrowserID, URL: u.String()}, &r)
			return before, false, err
		}
		if err != nil {
			return 0, false, err
		}
		before = pg.sel.watch.Navigations()
		sameDoc = sameDocument(t.URL, u)
		rctx, cancel := context.WithTimeout(ctx, ackTimeout)
		err = pg.c.Request(rctx, t.Actor, map[string]any{"type": "navigateTo", "url": u.String()}, nil)
		cancel()
		if err == nil {
			return before, sameDoc, nil
		}
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return 0, false, pageUnresponsive()
		}
		if e, ok := AsError(s.classify(ctx, err)); attempt > 0 || !ok || e.Code != CodeTargetReplaced {
			return 0, false, err
		}
	}
}

// waitNavigation waits (up to timeout) for the navigation started after
// the count before to reach wait ("dom" or "complete"), while watching for a
// dialog that blocks the page (an alert while loading, a beforeunload
// prompt) and for a page that stopped answering: either ends the wait at
// once with dialog_open or page_unresponsive.
func (s *Session) waitNavigation(ctx context.Context, pg page, u *url.URL, before uint64, sameDoc bool, wait string, timeout time.Duration) (rdp.Target, error) {
	wctx, cancel := context.WithTimeoutCause(ctx, timeout, errNavigationTimeout)
	defer cancel()
	sctx, stop := context.WithCancelCause(wctx)
	defer stop(nil)
	done := make(chan struct{})
	defer close(done)
	go s.watchPage(sctx, pg, done, stop)
	var t rdp.Target
	var err error
	if sameDoc {
		err = s.pollURL(sctx, pg, u.String())
	} else {
		state := map[string]string{"dom": "interactive", "complete": "complete"}[wait]
		t, err = s.waitLoaded(sctx, pg, before, u.String(), state)
	}
	if err == nil {
		return t, nil
	}
	var e *Error
	switch {
	case ctx.Err() != nil:
		return t, ctx.Err()
	case errors.As(context.Cause(sctx), &e):
		return t, e
	case wctx.Err() != nil:
		return t, errorf(CodeNavigationTimeout, "the page did not become %s within %v; it may still be loading (check with wait_for or snapshot_page)", wait, timeout)
	}
	return t, err
}

var errNavigationTimeout = errors.New("navigation timeout")

// loadState reads how the navigation ended: Firefox's error page for a load
// that failed is navigation_failed, with the reason it gives.
func (s *Session) loadState(ctx context.Context, pg page) (pagejs.LoadStateResult, error) {
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var r pagejs.LoadStateResult
	if _, err := s.exec(cctx, pg, readRealm, pagejs.LoadState, struct{}{}, &r); err != nil {
		if e, ok := AsError(err); ok && e.Code == CodeDialogOpen {
			return r, e
		}
		s.log.Debug("load state unavailable", "error", err)
		return pagejs.LoadStateResult{}, nil // the navigation itself succeeded
	}
	if reason, failed := loadFailure(r.DocumentURI); failed {
		return r, errorf(CodeNavigationFailed, "Firefox could not load %s: %s. The tab shows Firefox's error page", quote(r.URL, 300), reason)
	}
	return r, nil
}

// netErrors are the reasons Firefox names in an error page's address
// (about:neterror?e=<code>&u=…), in words.
var netErrors = map[string]string{
	"connectionFailure":       "the connection was refused (nothing listens at that address)",
	"netTimeout":              "the connection timed out",
	"dnsNotFound":             "the server's name could not be resolved",
	"netReset":                "the connection was reset",
	"netInterrupt":            "the connection was interrupted",
	"netOffline":              "Firefox is offline",
	"deniedPortAccess":        "Firefox blocks that port",
	"malformedURI":            "the address is not valid",
	"unknownProtocolFound":    "the protocol is not known",
	"redirectLoop":            "the page redirects in a loop",
	"unknownSocketType":       "the server did not answer as expected",
	"proxyConnectFailure":     "the proxy refused the connection",
	"proxyResolveFailure":     "the proxy could not be found",
	"nssFailure2":             "the secure connection failed",
	"nssBadCert":              "the server's certificate is not trusted",
	"contentEncodingError":    "the page's content encoding is broken",
	"corruptedContentErrorv2": "Firefox refused the response as corrupted (it does so for a redirect to a scheme web pages may not reach, such as file: or about:)",
	"httpErrorPage":           "the server answered with an error",
	"blockedByPolicy":         "an enterprise policy blocks the page",
}

// loadFailure reports whether documentURI is one of Firefox's error pages,
// and the reason it names.
func loadFailure(documentURI string) (string, bool) {
	u, err := url.Parse(documentURI)
	if err != nil || u.Scheme != "about" {
		return "", false
	}
	switch u.Opaque {
	case "neterror", "certerror", "blocked":
	default:
		return "", false
	}
	code := u.Query().Get("e")
	if r, ok := netErrors[code]; ok {
		return r, true
	}
	if u.Opaque == "certerror" {
		return "the server's certificate is not trusted", true
	}
	if u.Opaque == "blocked" {
		return "Firefox blocked the page", true
	}
	if ok, _ := regexp.MatchString(`^[A-Za-z0-9]{1,40}$`, code); ok {
		return "Firefox reports " + code, true
	}
	return "Firefox shows an error page", true
}

// sameDocument reports whether going to u from current only changes the
// fragment, which loads no new document.
func sameDocument(current string, u *url.URL) bool {
	cu, err := url.Parse(current)
	if err != nil || u.Fragment == "" && u.RawFragment == "" {
		return false
	}
	a, b := *cu, *u
	a.Fragment, a.RawFragment, b.Fragment, b.RawFragment = "", "", "", ""
	return a.String() == b.String()
}

// redirectGrace is how long a navigation that ended on another URL than
// the one requested waits for one more navigation: a load that was already
// under way ends first, and ours follows; a redirect has nothing after it.
const redirectGrace = 500 * time.Millisecond

// waitLoaded waits for the navigation that follows the count before to
// reach state, and for the document at want, or at its redirect target.
func (s *Session) waitLoaded(ctx context.Context, pg page, before uint64, want, state string) (rdp.Target, error) {
	w := pg.sel.watch
	for {
		if err := waitNavigated(ctx, w, before); err != nil {
			return rdp.Target{}, err
		}
		t, err := w.WaitReady(ctx, state)
		if err != nil || t.URL == want {
			return t, err
		}
		before = w.Navigations()
		gctx, cancel := context.WithTimeout(ctx, redirectGrace)
		err = waitNavigated(gctx, w, before)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return rdp.Target{}, ctx.Err()
			}
			return t, nil // nothing followed: a redirect
		}
	}
}

func waitNavigated(ctx context.Context, w *rdp.TabWatch, before uint64) error {
	for w.Navigations() == before {
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) pollURL(ctx context.Context, pg page, want string) error {
	for {
		var info pagejs.PageInfoResult
		if _, err := s.exec(ctx, pg, readRealm, pagejs.PageInfo, struct{}{}, &info); err == nil && info.URL == want {
			return nil
		}
		if err := sleep(ctx, 30*time.Millisecond); err != nil {
			return err
		}
	}
}

type waitForArgs struct {
	Text        *string `json:"text"`
	Selector    *string `json:"selector"`
	URLContains *string `json:"url_contains"`
	State       *string `json:"state"`
	TimeoutMS   *int    `json:"timeout_ms"`
	PollMS      *int    `json:"poll_ms"`
	Observe     *bool   `json:"observe"`
}

func (s *Session) waitFor(ctx context.Context, a *waitForArgs, p Progress) (Result, error) {
	n := 0
	var args pagejs.WaitForArgs
	what := ""
	for _, c := range []struct {
		v    *string
		dst  *string
		desc string
	}{{a.Text, &args.Text, "text"}, {a.Selector, &args.Selector, "selector"}, {a.URLContains, &args.URLContains, "URL containing"}} {
		if c.v != nil {
			n++
			*c.dst = *c.v
			what = c.desc + " " + quote(*c.v, 100)
		}
	}
	if n != 1 {
		return Result{}, errorf(CodeInvalidArguments, "give exactly one of text, selector or url_contains")
	}
	state := "present"
	if a.State != nil {
		state = *a.State
	}
	args.State = state
	timeout, poll := 30*time.Second, 250*time.Millisecond
	if a.TimeoutMS != nil {
		timeout = time.Duration(*a.TimeoutMS) * time.Millisecond
	}
	if a.PollMS != nil {
		poll = time.Duration(*a.PollMS) * time.Millisecond
	}
	if err := s.lock(ctx); err != nil {
		return Result{}, err
	}
	defer s.unlock()
	pg, err := s.selected(ctx)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	deadline := start.Add(timeout)
	for polls := 1; ; polls++ {
		// A dialog blocks the page: whatever the page shows, the condition
		// is not what the agent waits for, and polling cannot change that.
		if err := s.noDialog(ctx, pg); err != nil {
			return Result{}, err
		}
		var r pagejs.WaitForResult
		pctx, cancel := context.WithDeadline(ctx, deadline.Add(poll))
		_, err := s.exec(pctx, pg, readRealm, pagejs.WaitFor, args, &r)
		if err == nil {
			r.Met = s.waitFrames(pctx, pg, args, r.Met)
		}
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			// A poll cut short by the deadline is simply not met; mid-navigation
			// the document is briefly unavailable: poll on.
			if !errors.Is(err, context.DeadlineExceeded) {
				if e, ok := AsError(s.classify(ctx, err)); !ok || (e.Code != CodeTargetReplaced && e.Code != CodePageScriptFailed) {
					return Result{}, err
				}
			}
		} else if r.Met {
			if err := s.noDialog(ctx, pg); err != nil {
				return Result{}, err
			}
			elapsed := time.Since(start)
			s.sync(pg.sel)
			res := Result{
				Text:       fmt.Sprintf("Condition met after %d ms: %s is %s.", elapsed.Milliseconds(), what, state),
				Structured: map[string]any{"met": true, "elapsed_ms": elapsed.Milliseconds(), "polls": polls},
			}
			if observing(a.Observe) {
				var match func(*pagejs.Element) bool
				if state == "present" {
					match = waitMatch(args.Text, r.Matched)
				}
				obs := s.observe(ctx, pg, observeOpts{match: match}, nil)
				obs.add(&res)
			}
			return res, nil
		}
		if !time.Now().Before(deadline) {
			return Result{}, errorf(CodeWaitTimeout, "%s was not %s within %d ms (%s)", what, state, timeout.Milliseconds(), plural(polls, "check", "checks"))
		}
		p.Report(float64(time.Since(start).Milliseconds()), float64(timeout.Milliseconds()), "waiting for "+what)
		if err := s.pauseForChange(ctx, pg, min(poll, time.Until(deadline))); err != nil {
			return Result{}, err
		}
	}
}

type handleDialogArgs struct {
	Action     string  `json:"action"`
	PromptText *string `json:"prompt_text"`
}

func (s *Session) handleDialog(ctx context.Context, a *handleDialogArgs, _ Progress) (Result, error) {
	// No page-operation lock: the call that raised the dialog may still hold
	// it while its evaluation is held back.
	pg, err := s.selectedTab(ctx)
	if err != nil {
		return Result{}, err
	}
	st, err := s.readyDialog(ctx, pg)
	if err != nil {
		return Result{}, err
	}
	if !st.Open {
		return Result{}, errorf(CodeNoDialog, "the selected tab has no open dialog")
	}
	var r pagejs.DialogAnswerResult
	if err := s.chrome(ctx, pg, pagejs.DialogAnswer, pagejs.DialogAnswerArgs{BrowserID: pg.sel.tab.BrowserID, Action: a.Action, Text: a.PromptText}, &r); err != nil {
		return Result{}, err
	}
	if !r.Answered {
		return Result{}, errorf(CodeNoDialog, "the dialog closed before it could be answered")
	}
	s.markDialog(pg.sel, false)
	r.Type = cmp.Or(r.Type, st.Type)
	verb := map[string]string{"accept": "Accepted", "dismiss": "Dismissed"}[a.Action]
	kind := dialogKind(r.Type)
	return Result{
		Text:       fmt.Sprintf("%s the %s dialog; its text was:\n%s", verb, kind, marked("Dialog text", st.Text, 200)),
		Structured: map[string]any{"action": a.Action, "type": kind, "text": pageStrN(st.Text, 2000)},
	}, nil
}

// noDialog returns dialog_open when the selected tab shows a dialog; a
// check that cannot be made is not an error (the next step will tell).
func (s *Session) noDialog(ctx context.Context, pg page) error {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	st, err := s.readyDialog(cctx, pg)
	if err == nil && st.Open {
		return dialogError(st)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// utf16Len counts UTF-16 code units, the unit page scripts measure text in.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
