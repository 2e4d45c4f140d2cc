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

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

var snapshotTool = tool[snapshotArgs, snapshotOut]{
	Name: "snapshot_page", Title: "Snapshot page",
	Description: "The selected page's visible actionable elements in document order (file inputs even when hidden), a line each: `[ref] role \"name\" …`; links end with `→ /path`; frames' elements follow a `--- frame … ---` line. include_all_text adds the page text. Refs (e1, …) stay valid until the page navigates or the element changes or is replaced (then stale_element, never a look-alike). Past max_elements, page with offset (the truncation line gives the next call) or filter with query." + untrustedNote,
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Session).snapshotPage,
}

type snapshotArgs struct {
	IncludeAllText bool    `json:"include_all_text" default:"false" desc:"add the visible page text"`
	MaxElements    int     `json:"max_elements" min:"1" limit:"max_elements" desc:"most elements to list"`
	MaxTextChars   int     `json:"max_text_chars" min:"0" limit:"max_text_chars" desc:"most text characters"`
	Offset         int     `json:"offset" min:"0" max:"1000000" default:"0" desc:"skip this many (matching) elements"`
	Query          *string `json:"query" min:"1" max:"200" desc:"keep elements whose role, tag, name, value or link has this (any case)"`
}

type snapshotOut struct {
	said
	TabID          string `json:"tab_id"`
	Generation     uint64 `json:"generation"`
	Title          Page   `json:"title"`
	URL            Page   `json:"url"`
	Elements       int    `json:"elements"`
	TotalElements  int    `json:"total_elements"`
	Truncated      bool   `json:"truncated"`
	Offset         int    `json:"offset"`
	Frames         int    `json:"frames"`
	Query          string `json:"query,omitempty"`
	AllElements    *int   `json:"all_elements,omitempty"`
	NextOffset     *int   `json:"next_offset,omitempty"`
	TextChars      *int   `json:"text_chars,omitempty"`
	TotalTextChars *int   `json:"total_text_chars,omitempty"`
	TextTruncated  *bool  `json:"text_truncated,omitempty"`
}

func (s *Session) snapshotPage(ctx context.Context, a *snapshotArgs, _ Progress) (snapshotOut, error) {
	if err := s.lock(ctx); err != nil {
		return snapshotOut{}, err
	}
	defer s.unlock()
	args := pagejs.SnapshotArgs{MaxElements: a.MaxElements, MaxTextChars: a.MaxTextChars, IncludeAllText: a.IncludeAllText, Offset: a.Offset}
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
			return snapshotOut{}, err
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
				err = Errorf(errcode.TargetReplaced, "the page navigated while it was being read; take the snapshot again")
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
		if e, ok := AsError(s.classify(ctx, err)); attempt > 0 || !ok || e.Code != errcode.TargetReplaced {
			return snapshotOut{}, err
		}
		if _, err := s.current(ctx, pg); err != nil { // wait for the new document
			return snapshotOut{}, err
		}
	}

	return s.snapshotResult(TabID(pg.sel.tab.BrowserID), gen, out, skipped, &r, args), nil
}

// snapshotResult renders a snapshot: the header, the element lines and page
// text between the untrusted-content markers, and the truncation lines.
func (s *Session) snapshotResult(tab string, gen uint64, out snapLines, skipped string, r *pagejs.SnapshotResult, args pagejs.SnapshotArgs) snapshotOut {
	withText := args.IncludeAllText
	u := NewUntrusted()
	u.Grow(48*len(out.lines) + 1024) // ≈35 bytes per element line on typical pages
	u.Field("Page", r.Title, 200)
	u.Field("URL", r.URL, 500)
	for _, l := range out.lines {
		u.Line(l)
	}
	text := ""
	if r.Text != nil {
		text = *r.Text
	}
	if withText && text != "" {
		u.Line("--- page text ---")
		u.Text(text)
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
	textCut := withText && UTF16Len(text) < r.TextTotal
	if textCut {
		fmt.Fprintf(&b, "\n[text truncated: %d of %d characters shown; raise max_text_chars (limit %d)]",
			UTF16Len(text), r.TextTotal, s.opts.MaxTextChars)
	}
	st := snapshotOut{
		TabID: tab, Generation: gen, Title: PageStr(r.Title), URL: PageStr(r.URL),
		Elements: out.shown, TotalElements: out.total, Truncated: truncated, Offset: args.Offset, Frames: out.frames,
	}
	if args.Query != "" {
		st.Query, st.AllElements = args.Query, &out.all
	}
	if truncated {
		st.NextOffset = &next
	}
	if withText {
		chars := UTF16Len(text)
		st.TextChars, st.TotalTextChars, st.TextTruncated = &chars, &r.TextTotal, &textCut
	}
	st.text = b.String()
	return st
}

// shownElements says how many elements the snapshot lists, and of how many.
func shownElements(a pagejs.SnapshotArgs, n, total, all int) string {
	out := Plural(n, "element", "elements")
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
	kind := PageRealm
	if s.opts.ReadInIsolatedRealm {
		kind = ReadRealm
	}
	err := s.execSnapshot(ctx, pg, kind, args, &r)
	// A page that does not answer or a tab without a document is no better
	// in the isolated realm: those errors stand.
	stands := errors.Is(err, rdp.ErrUnresponsive) || errors.Is(err, rdp.ErrNoTarget) || errors.Is(err, rdp.ErrTabClosed)
	if kind == PageRealm && !s.opts.PageRealmOnly && ctx.Err() == nil && !stands && (err != nil || r.Elements == nil || r.URL == "") {
		if e, ok := AsError(err); !ok || e.Code == errcode.PageScriptFailed || e.Code == errcode.InvalidSelector {
			s.log.Info("page-realm snapshot unusable; reading through the isolated realm", "error", err)
			r = pagejs.SnapshotResult{}
			_, err = s.exec(ctx, pg, ReadRealm, pagejs.Snapshot, args, &r)
		}
	}
	if err == nil && r.Elements == nil {
		err = Errorf(errcode.PageScriptFailed, "the page returned an unreadable snapshot")
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
		b.WriteString(" " + Quote(e.Name, 80))
	}
	if e.Value != nil && *e.Value != "" {
		b.WriteString(" value=" + Quote(*e.Value, 60))
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
		b.WriteString(" accept=" + Quote(e.Accept, 60))
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
			return Quote(href, 120)
		}
	}
	return Truncate(href, 120)
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
func (s *Session) acting(ctx context.Context, ref string) (pg page, l *Locator, release func(), err error) {
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
func (s *Session) target(pg page, ref string) (*Locator, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.refs.lookup(ref)
	if err != nil {
		return nil, err
	}
	if l.generation != pg.generation || l.browserID != pg.sel.tab.BrowserID {
		return nil, Errorf(errcode.StaleElement, "%s is from an earlier state of the page; take a new snapshot", ref)
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
	} else if _, err := s.exec(cctx, pg, ReadRealm, pagejs.PageInfo, struct{}{}, &info); err == nil {
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

func trustNote(trusted bool, info ExecInfo) string {
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
func (s *Session) actionText(verb, ref string, trusted bool, info ExecInfo, urlNow string, navigated bool, note string, obs *Observation, extra ...PageField) string {
	t := fmt.Sprintf("%s %s (%s).%s", verb, ref, trustNote(trusted, info), note)
	u := NewUntrusted()
	if navigated {
		t += " The page changed (its URL is below): all earlier refs are now stale"
		if obs != nil {
			t += "; the new page's elements follow."
		} else {
			t += ", take a new snapshot."
		}
		u.Field("URL", urlNow, 300)
	}
	for _, f := range extra {
		u.Field(f.Label, f.Value, f.Max)
	}
	if !u.Empty() {
		t += "\n" + u.String()
	}
	return t
}

var clickTool = tool[clickArgs, clickOut]{
	Name: "click", Title: "Click element",
	Description: "Click a ref: trusted when available (default actions such as following links), else a page-script click (the result says which). Refuses disabled, changed and file-input elements (use upload_files). Waits until the page is quiet (at most wait_after_ms), then reports any navigation (refs go stale), tab or dialog it opened, and what changed since your last view (at most 30 snapshot lines).",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Session).click,
}

type clickArgs struct {
	Element     string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	WaitAfterMS int    `json:"wait_after_ms" min:"0" max:"5000" default:"250" desc:"most ms to wait for quiet"`
	Observe     bool   `json:"observe" default:"true" desc:"false: omit what changed"`
}

type clickOut struct {
	said
	acted
	checked
	opened
	OpenedTabs []string `json:"opened_tabs,omitempty"`
}

func (s *Session) click(ctx context.Context, a *clickArgs, _ Progress) (clickOut, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return clickOut{}, err
	}
	defer release()
	s.activate(ctx, pg)
	openers, known := s.openers(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, ActionRealm, pagejs.Click, pagejs.ClickArgs{Sel: l.sel, FP: l.fp, Ref: boundRef(l)}, &r)
	if ac, d, text, ok := s.actionDialog(pg, "Clicked", a.Element, info, err); ok {
		return clickOut{said: said{text: text}, acted: ac, opened: d}, nil
	}
	if err != nil {
		return clickOut{}, err
	}
	wait := time.Duration(a.WaitAfterMS) * time.Millisecond
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, wait, a.Observe)
	if err != nil {
		return clickOut{}, err
	}
	// A dialog the page opened after the click (a timer, a request's
	// answer) does not make the click fail: it is reported as the click's.
	if err := s.noDialog(ctx, pg); err != nil {
		if ac, d, text, ok := s.actionDialog(pg, "Clicked", a.Element, info, err); ok {
			return clickOut{said: said{text: text}, acted: ac, opened: d}, nil
		}
		return clickOut{}, err
	}
	trusted := info.Trusted(r.Trusted)
	out := clickOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info)}
	note := refNote(l, info)
	if tabs := s.clickOpened(ctx, pg, openers, known); len(tabs) > 0 {
		out.OpenedTabs = tabs
		note += " The click opened " + strings.Join(tabs, ", ") + " (not selected; select_tab to work in it, close_tab to close it)."
		obs.dropTabs() // said here, with close_tab
	}
	out.text = s.actionText("Clicked", a.Element, trusted, info, urlNow, nav, note, obs, frameFields(l)...)
	obs.add(&out.said, &out.observed)
	return out, nil
}

var fillTool = tool[fillArgs, fillOut]{
	Name: "fill", Title: "Fill field",
	Description: "Set the value of a text field, textarea, select (option value or label) or editable region at once, as React and friends notice; passwords are never echoed; for a custom select (sl-select) click it, then the option. submit=true submits the form. Ends with what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Session).fill,
}

type fillArgs struct {
	Element string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	Value   string `json:"value" max:"100000" desc:"the new value"`
	Submit  bool   `json:"submit" default:"false" desc:"then submit its form"`
	Observe bool   `json:"observe" default:"true" desc:"false: omit what changed"`
}

type fillOut struct {
	said
	acted
	checked
	Submitted bool  `json:"submitted"`
	Value     *Page `json:"value,omitempty"`
	Shown     *Page `json:"shown,omitempty"`
}

func (s *Session) fill(ctx context.Context, a *fillArgs, _ Progress) (fillOut, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return fillOut{}, err
	}
	defer release()
	submit := a.Submit
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, ActionRealm, pagejs.Fill, pagejs.FillArgs{Sel: l.sel, FP: l.fp, Value: a.Value, Submit: submit, Ref: boundRef(l)}, &r)
	if e, ok := AsError(err); ok && e.Code == errcode.OptionNotFound {
		return fillOut{}, s.listOptions(ctx, pg, l, a.Element, a.Value, e)
	}
	if err != nil {
		return fillOut{}, err
	}
	urlNow, nav := r.URL, false
	var obs *Observation
	if submit || a.Observe {
		if urlNow, nav, obs, err = s.endAction(ctx, pg, r.URL, defaultSettleCap, a.Observe); err != nil {
			return fillOut{}, err
		}
	}
	verb := "Filled"
	if submit {
		verb = "Filled and submitted the form of"
	}
	trusted := info.Trusted(r.Trusted)
	st := fillOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info), Submitted: submit}
	extra := frameFields(l)
	note := refNote(l, info)
	if r.Value != nil {
		v := PageStr(*r.Value)
		st.Value = &v
		switch {
		case r.Shown != nil: // a select: value was matched by option value or label
			shown := PageStr(*r.Shown)
			st.Shown = &shown
			note += " The select now shows the option below."
			if r.Kept != nil && !*r.Kept {
				note += " The page's change handler picked another option than the one asked for; the select shows the one below."
			}
			extra = append(extra, PageField{"Shows", *r.Shown, 200})
		case *r.Value != a.Value:
			note += " The page changed or limited the value: the field now holds the value below."
			extra = append(extra, PageField{"Value", *r.Value, 200})
		}
	}
	st.text = s.actionText(verb, a.Element, trusted, info, urlNow, nav, note, obs, extra...)
	obs.add(&st.said, &st.observed)
	return st, nil
}

var typeTextTool = tool[typeTextArgs, typeTextOut]{
	Name: "type_text", Title: "Type text",
	Description: "Type text key by key after the field's content, trusted where available; rich editors continue the last paragraph, newlines are Enter. Prefer fill unless the page reacts to each key. Ends with what changed.",
	Annotations: Annotations{OpenWorld: true},
	Run:         (*Session).typeText,
}

type typeTextArgs struct {
	Element string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	Text    string `json:"text" min:"1" max:"10000" desc:"text to type"`
	DelayMS int    `json:"delay_ms" min:"0" max:"1000" default:"0" desc:"ms between keys"`
	Observe bool   `json:"observe" default:"true" desc:"false: omit what changed"`
}

type typeTextOut struct {
	said
	acted
	checked
	Characters int `json:"characters"`
}

// typeChunk is how many characters one evaluation types when there is no
// delay between characters; cancellation is checked between chunks.
const typeChunk = 200

func (s *Session) typeText(ctx context.Context, a *typeTextArgs, p Progress) (typeTextOut, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return typeTextOut{}, err
	}
	defer release()
	delay := a.DelayMS
	size := typeChunk
	if delay > 0 {
		size = 1
	}
	runes := []rune(a.Text)
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	var info ExecInfo
	for i := 0; i < len(runes); i += size {
		if i > 0 {
			if err := Sleep(ctx, time.Duration(delay)*time.Millisecond); err != nil {
				return typeTextOut{}, fmt.Errorf("after %d of %d characters: %w", i, len(runes), err)
			}
		}
		chunk := string(runes[i:min(i+size, len(runes))])
		info, err = s.exec(ctx, pg, ActionRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: l.sel, FP: l.fp, Text: chunk, FirstChunk: i == 0, Ref: boundRef(l)}, &r)
		if err != nil {
			if i > 0 && ctx.Err() == nil && s.sync(pg.sel) {
				// The typing made the page navigate: the element is gone
				// with its document, whatever the next chunk found.
				err = Errorf(errcode.TargetReplaced, "the page navigated while typing; take a new snapshot")
			}
			if e, ok := AsError(err); ok && i > 0 {
				e.Message = fmt.Sprintf("%s (after %d of %d characters were typed)", e.Message, i, len(runes))
			}
			return typeTextOut{}, err
		}
		p.Report(float64(min(i+size, len(runes))), float64(len(runes)), "typing")
	}
	limit := time.Duration(0)
	if a.Observe {
		limit = defaultSettleCap
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, limit, a.Observe)
	if err != nil {
		return typeTextOut{}, err
	}
	trusted := info.Trusted(r.Trusted)
	out := typeTextOut{acted: actedOn(a.Element, trusted, urlNow, nav), checked: checkedRef(l, info), Characters: len(runes)}
	out.text = s.actionText(fmt.Sprintf("Typed %s into", Plural(len(runes), "character", "characters")), a.Element, trusted, info, urlNow, nav, refNote(l, info), obs, frameFields(l)...)
	obs.add(&out.said, &out.observed)
	return out, nil
}

var pressKeyTool = tool[pressKeyArgs, pressKeyOut]{
	Name: "press_key", Title: "Press key",
	Description: "Press a key on a ref or the focused element: a named key (Enter, Tab, Escape, Space, Backspace, Delete, Insert, arrows such as ArrowDown, Home, End, PageUp, PageDown, F1-F12) or one character, with modifiers joined by + (Control+k, Shift+Tab). Tab- and window-closing shortcuts are refused. Trusted where available. Ends with the focus and what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Session).pressKey,
}

type pressKeyArgs struct {
	Key     string  `json:"key" min:"1" max:"40" desc:"e.g. Enter, a, Control+k, Shift+Tab"`
	Element *string `json:"element" min:"2" max:"16" desc:"ref; default: the focused element"`
	Observe bool    `json:"observe" default:"true" desc:"false: omit what changed"`
}

type pressKeyOut struct {
	said
	Key string `json:"key,omitempty"`
	acted
	checked
	opened
	Focused *Page `json:"focused,omitempty"`
}

func (s *Session) pressKey(ctx context.Context, a *pressKeyArgs, _ Progress) (pressKeyOut, error) {
	if err := s.lock(ctx); err != nil {
		return pressKeyOut{}, err
	}
	defer s.unlock()
	combo, err := parseKey(a.Key)
	if err != nil {
		return pressKeyOut{}, err
	}
	pg, err := s.selected(ctx)
	if err != nil {
		return pressKeyOut{}, err
	}
	args := pagejs.PressKeyArgs{Key: combo.Key, Mods: combo.Mods}
	what := "the focused element"
	var l *Locator
	if a.Element != nil {
		l, err = s.target(pg, *a.Element)
		if err != nil {
			return pressKeyOut{}, err
		}
		pg = inFrame(pg, l)
		fp := l.fp
		args.Sel, args.FP, args.Ref = l.sel, &fp, boundRef(l)
		what = *a.Element
	}
	s.activate(ctx, pg)
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, ActionRealm, pagejs.PressKey, args, &r)
	if ac, d, text, ok := s.actionDialog(pg, "Pressed "+a.Key+" on", what, info, err); ok {
		return pressKeyOut{said: said{text: text}, acted: ac, opened: d}, nil
	}
	if err != nil {
		return pressKeyOut{}, err
	}
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, defaultSettleCap, a.Observe)
	if err != nil {
		return pressKeyOut{}, err
	}
	extra := frameFields(l)
	if r.Focused != "" && !nav {
		extra = append(extra, PageField{"Focus", r.Focused, 120})
	}
	trusted := info.Trusted(r.Trusted)
	focused := PageStr(r.Focused)
	out := pressKeyOut{Key: combo.String(), acted: actedOn("", trusted, urlNow, nav), Focused: &focused}
	if l != nil {
		out.checked = checkedRef(l, info)
	}
	out.text = s.actionText("Pressed "+combo.String()+" on", what, trusted, info, urlNow, nav, refNote(l, info), obs, extra...)
	obs.add(&out.said, &out.observed)
	return out, nil
}

var navigateTool = tool[navigateArgs, navigateOut]{
	Name: "navigate", Title: "Navigate",
	Description: "Load an http(s) URL in the selected tab, or go back, forward or reload (history). Refs go stale. Reports the final URL and HTTP status; navigation_failed with Firefox's reason; dialog_open at once for a dialog while loading or a beforeunload prompt. Ends with the new page's elements (at most 30).",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Session).navigate,
}

type navigateArgs struct {
	URL       *string  `json:"url" min:"8" max:"8192" desc:"absolute http(s) URL"`
	History   *string  `json:"history" enum:"back,forward,reload" desc:"instead of url"`
	Wait      string   `json:"wait" enum:"none,dom,complete" default:"dom" desc:"dom: interactive; complete: loaded; none"`
	TimeoutMS int      `json:"timeout_ms" min:"0" max:"120000" default:"30000" desc:"then navigation_timeout"`
	Observe   bool     `json:"observe" default:"true" desc:"false: omit what changed"`
	_         struct{} `oneof:"url,history" msg:"give exactly one of url (to load a page) or history (back, forward or reload)"`
}

// navigateOut is navigate's result, by url or history.
type navigateOut struct {
	said
	History    string `json:"history,omitempty"`
	URL        Page   `json:"url"`
	Generation uint64 `json:"generation"`
	Waited     string `json:"waited"`
	Index      *int   `json:"index,omitempty"`
	Count      *int   `json:"count,omitempty"`
	Title      *Page  `json:"title,omitempty"`
	Status     int    `json:"status,omitempty"`
	observed
}

// navigationGeneration starts a new generation once a navigation (by url
// or history) was asked for: refs die with the old page state, whatever
// happens next.
func (s *Session) navigationGeneration(pg page) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel == pg.sel {
		s.newGenerationLocked()
		pg.sel.navs = pg.sel.watch.Navigations()
	}
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

// waits are navigate's wait state and timeout.
func (a *navigateArgs) waits() (wait string, timeout time.Duration) {
	return a.Wait, time.Duration(a.TimeoutMS) * time.Millisecond
}

// checkURL accepts only absolute http(s) URLs without credentials.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, Errorf(errcode.InvalidArguments, "url is not a valid URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, Errorf(errcode.InvalidArguments, "only http and https URLs can be opened, not %q", Truncate(u.Scheme, 20)+":")
	case u.Host == "" || u.Opaque != "":
		return nil, Errorf(errcode.InvalidArguments, "url must be absolute, like https://example.com/path")
	case u.User != nil:
		return nil, Errorf(errcode.InvalidArguments, "url must not carry a user name or password")
	}
	return u, nil
}

func (s *Session) navigate(ctx context.Context, a *navigateArgs, p Progress) (navigateOut, error) {
	if a.History != nil {
		return s.navigateHistory(ctx, a, p)
	}
	u, err := checkURL(*a.URL)
	if err != nil {
		return navigateOut{}, err
	}
	wait, timeout := a.waits()
	if err := s.lock(ctx); err != nil {
		return navigateOut{}, err
	}
	defer s.unlock()
	pg, err := s.selected(ctx)
	if err != nil {
		return navigateOut{}, err
	}
	before, sameDoc, err := s.startNavigation(ctx, pg, u)
	if err != nil {
		return navigateOut{}, err
	}
	s.navigationGeneration(pg)

	final, title := u.String(), ""
	var load pagejs.LoadStateResult
	if wait != "none" {
		t, err := s.waitNavigation(ctx, pg, u, before, sameDoc, wait, timeout)
		if err != nil {
			return navigateOut{}, err
		}
		if !sameDoc {
			final, title = t.URL, t.Title
		}
		if load, err = s.loadState(ctx, pg); err != nil {
			return navigateOut{}, err
		}
	}
	gen := s.settledGeneration(pg)
	blk := NewUntrusted()
	blk.Field("URL", final, 500)
	text := fmt.Sprintf("Navigated %s (generation %d); the final URL is below.\n", TabID(pg.sel.tab.BrowserID), gen)
	if wait == "none" {
		text = fmt.Sprintf("Started loading the URL below in %s (not waited for; generation %d).\n", TabID(pg.sel.tab.BrowserID), gen)
	}
	st := navigateOut{URL: PageStr(final), Generation: gen, Waited: wait}
	if title != "" {
		t := PageStr(title)
		st.Title = &t
		blk.Field("Title", title, 200)
	}
	if load.Status > 0 {
		st.Status = load.Status
		if load.Status >= 400 {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" The server answered HTTP %d: the page is an error page.\n", load.Status)
		} else {
			text = strings.TrimSuffix(text, "\n") + fmt.Sprintf(" HTTP %d.\n", load.Status)
		}
	}
	st.text = text + blk.String()
	if wait != "none" && a.Observe {
		s.observeNavigation(ctx, pg, &st)
	}
	return st, nil
}

// observeNavigation ends a navigation's answer with the new page's
// elements, once it is quiet (at most the default settle cap).
func (s *Session) observeNavigation(ctx context.Context, pg page, st *navigateOut) {
	_, serr := s.settle(ctx, pg, defaultSettleCap)
	obs := s.observe(ctx, pg, observeOpts{navigated: true}, serr)
	obs.add(&st.said, &st.observed)
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
		if e, ok := AsError(err); ok && e.Code == errcode.TargetGone && ctx.Err() == nil {
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
		if e, ok := AsError(s.classify(ctx, err)); attempt > 0 || !ok || e.Code != errcode.TargetReplaced {
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
		return t, Errorf(errcode.NavigationTimeout, "the page did not become %s within %v; it may still be loading (check with wait_for or snapshot_page)", wait, timeout)
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
	if _, err := s.exec(cctx, pg, ReadRealm, pagejs.LoadState, struct{}{}, &r); err != nil {
		if e, ok := AsError(err); ok && e.Code == errcode.DialogOpen {
			return r, e
		}
		s.log.Debug("load state unavailable", "error", err)
		return pagejs.LoadStateResult{}, nil // the navigation itself succeeded
	}
	if reason, failed := loadFailure(r.DocumentURI); failed {
		return r, Errorf(errcode.NavigationFailed, "Firefox could not load %s: %s. The tab shows Firefox's error page", Quote(r.URL, 300), reason)
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

// waitNavigated waits until w counts a navigation past before, woken by
// the watch's change notification, until ctx ends.
func waitNavigated(ctx context.Context, w tabWatch, before uint64) error {
	for ch := w.Changed(); w.Navigations() == before; ch = w.Changed() {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (s *Session) pollURL(ctx context.Context, pg page, want string) error {
	for {
		var info pagejs.PageInfoResult
		if _, err := s.exec(ctx, pg, ReadRealm, pagejs.PageInfo, struct{}{}, &info); err == nil && info.URL == want {
			return nil
		}
		if err := Sleep(ctx, 30*time.Millisecond); err != nil {
			return err
		}
	}
}

var waitForTool = tool[waitForArgs, waitForOut]{
	Name: "wait_for", Title: "Wait for condition",
	Description: "Wait until the page shows text, matches a CSS selector or has a URL containing a string, or no longer does (state=absent), across navigations; re-checks on each page change. Never met while a dialog blocks the page (dialog_open). Once met, lists the matching elements and what changed.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Session).waitFor,
}

type waitForArgs struct {
	Text        *string  `json:"text" min:"1" max:"1000" desc:"visible text"`
	Selector    *string  `json:"selector" min:"1" max:"1000" desc:"CSS selector"`
	URLContains *string  `json:"url_contains" min:"1" max:"2048" desc:"URL substring, e.g. /checkout"`
	State       string   `json:"state" enum:"present,absent" default:"present" desc:"absent: until it no longer holds"`
	TimeoutMS   int      `json:"timeout_ms" min:"0" max:"120000" default:"30000" desc:"then wait_timeout; 0 checks once"`
	PollMS      int      `json:"poll_ms" min:"50" max:"2000" default:"250" desc:"ms between checks"`
	Observe     bool     `json:"observe" default:"true" desc:"false: omit what changed"`
	_           struct{} `oneof:"text,selector,url_contains" msg:"give exactly one of text, selector or url_contains"`
}

type waitForOut struct {
	said
	Met       bool  `json:"met"`
	ElapsedMS int64 `json:"elapsed_ms"`
	Polls     int   `json:"polls"`
	observed
}

// condition is the page script's form of a wait_for call, and how the
// result names it.
func (a *waitForArgs) condition() (args pagejs.WaitForArgs, what string) {
	switch {
	case a.Text != nil:
		args.Text, what = *a.Text, "text "+Quote(*a.Text, 100)
	case a.Selector != nil:
		args.Selector, what = *a.Selector, "selector "+Quote(*a.Selector, 100)
	default:
		args.URLContains, what = *a.URLContains, "URL containing "+Quote(*a.URLContains, 100)
	}
	args.State = a.State
	return args, what
}

func (s *Session) waitFor(ctx context.Context, a *waitForArgs, p Progress) (waitForOut, error) {
	args, what := a.condition()
	timeout, poll := time.Duration(a.TimeoutMS)*time.Millisecond, time.Duration(a.PollMS)*time.Millisecond
	if err := s.lock(ctx); err != nil {
		return waitForOut{}, err
	}
	defer s.unlock()
	pg, err := s.selected(ctx)
	if err != nil {
		return waitForOut{}, err
	}
	start := time.Now()
	deadline := start.Add(timeout)
	for polls := 1; ; polls++ {
		r, err := s.checkCondition(ctx, pg, args, deadline.Add(poll))
		if err != nil {
			return waitForOut{}, err
		}
		if r != nil && r.Met {
			if err := s.noDialog(ctx, pg); err != nil {
				return waitForOut{}, err
			}
			elapsed := time.Since(start)
			s.sync(pg.sel)
			out := waitForOut{Met: true, ElapsedMS: elapsed.Milliseconds(), Polls: polls}
			out.text = fmt.Sprintf("Condition met after %d ms: %s is %s.", elapsed.Milliseconds(), what, a.State)
			if a.Observe {
				var match func(*pagejs.Element) bool
				if a.State == "present" {
					match = waitMatch(args.Text, r.Matched)
				}
				obs := s.observe(ctx, pg, observeOpts{match: match}, nil)
				obs.add(&out.said, &out.observed)
			}
			return out, nil
		}
		if !time.Now().Before(deadline) {
			return waitForOut{}, Errorf(errcode.WaitTimeout, "%s was not %s within %d ms (%s)", what, a.State, timeout.Milliseconds(), Plural(polls, "check", "checks"))
		}
		p.Report(float64(time.Since(start).Milliseconds()), float64(timeout.Milliseconds()), "waiting for "+what)
		if err := s.pauseForChange(ctx, pg, min(poll, time.Until(deadline))); err != nil {
			return waitForOut{}, err
		}
	}
}

// checkCondition checks a wait_for condition once, in the document and its
// frames, giving up at deadline. r is nil when the check could not be made
// for a reason worth polling on: cut short by the deadline, or the
// document briefly unavailable mid-navigation.
func (s *Session) checkCondition(ctx context.Context, pg page, args pagejs.WaitForArgs, deadline time.Time) (*pagejs.WaitForResult, error) {
	// A dialog blocks the page: whatever the page shows, the condition
	// is not what the agent waits for, and polling cannot change that.
	if err := s.noDialog(ctx, pg); err != nil {
		return nil, err
	}
	var r pagejs.WaitForResult
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	_, err := s.exec(pctx, pg, ReadRealm, pagejs.WaitFor, args, &r)
	if err == nil {
		r.Met = s.waitFrames(pctx, pg, args, r.Met)
		return &r, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		if e, ok := AsError(s.classify(ctx, err)); !ok || (e.Code != errcode.TargetReplaced && e.Code != errcode.PageScriptFailed) {
			return nil, err
		}
	}
	return nil, nil
}

var handleDialogTool = tool[handleDialogArgs, handleDialogOut]{
	Name: "handle_dialog", Title: "Answer a page dialog",
	Description: "Answer the dialog the selected page shows: accept is OK (for beforeunload: leave), dismiss is Cancel (stay); prompt_text answers a prompt.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Session).handleDialog,
}

type handleDialogOut struct {
	said
	Action string `json:"action"`
	Type   string `json:"type"`
	Text   Page   `json:"text"`
}

type handleDialogArgs struct {
	Action     string  `json:"action" enum:"accept,dismiss" desc:"accept or dismiss"`
	PromptText *string `json:"prompt_text" max:"10000" desc:"typed into a prompt"`
}

func (s *Session) handleDialog(ctx context.Context, a *handleDialogArgs, _ Progress) (handleDialogOut, error) {
	// No page-operation lock: the call that raised the dialog may still hold
	// it while its evaluation is held back.
	pg, err := s.selectedTab(ctx)
	if err != nil {
		return handleDialogOut{}, err
	}
	st, err := s.readyDialog(ctx, pg)
	if err != nil {
		return handleDialogOut{}, err
	}
	if !st.Open {
		return handleDialogOut{}, Errorf(errcode.NoDialog, "the selected tab has no open dialog")
	}
	var r pagejs.DialogAnswerResult
	if err := s.chrome(ctx, pg, pagejs.DialogAnswer, pagejs.DialogAnswerArgs{BrowserID: pg.sel.tab.BrowserID, Action: a.Action, Text: a.PromptText}, &r); err != nil {
		return handleDialogOut{}, err
	}
	if !r.Answered {
		return handleDialogOut{}, Errorf(errcode.NoDialog, "the dialog closed before it could be answered")
	}
	s.markDialog(pg.sel, false)
	r.Type = cmp.Or(r.Type, st.Type)
	verb := map[string]string{"accept": "Accepted", "dismiss": "Dismissed"}[a.Action]
	kind := dialogKind(r.Type)
	out := handleDialogOut{Action: a.Action, Type: kind, Text: PageStrN(st.Text, 2000)}
	out.text = fmt.Sprintf("%s the %s dialog; its text was:\n%s", verb, kind, Marked("Dialog text", st.Text, 200))
	return out, nil
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

func Sleep(ctx context.Context, d time.Duration) error {
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

// UTF16Len counts UTF-16 code units, the unit page scripts measure text in.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
