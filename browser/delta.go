package browser

// The delta (observe.go reads the page for it): what changed among the
// actionable elements between the agent's last view of the page and a new
// read of it, in the top document and in each visible frame's document,
// rendered as snapshot lines with refs.

import (
	"fmt"
	"slices"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// pageView is the agent's last view of a document: the elements of the last
// walk and their walk info. The top document's view holds the views of its
// visible frames' documents.
type pageView struct {
	generation uint64
	res        *pagejs.SnapshotResult
	info       *walkInfo
	complete   bool   // the walk saw every element (not cut at the limit)
	inert      []bool // per element: users cannot reach it (nil: none)
	frames     []*frameView
}

// frameView is the view of a visible frame's document.
type frameView struct {
	id   int64  // browsing context
	line string // the frame's line (frameLine)
	doc  *docSnap
	view *pageView
}

// newView is the view of walk r (info w); above: its frame element is inert,
// and so are all of its elements.
func newView(gen uint64, r *pagejs.SnapshotResult, w *walkInfo, above bool) *pageView {
	v := &pageView{generation: gen, res: r, info: w, complete: len(r.Elements) >= r.Total, inert: r.InertRows()}
	if above {
		v.inert = make([]bool, len(r.Elements))
		for i := range v.inert {
			v.inert[i] = true
		}
	}
	return v
}

// frame is the view of frame id in v, nil when v has none.
func (v *pageView) frame(id int64) *pageView {
	if v == nil {
		return nil
	}
	for _, f := range v.frames {
		if f.id == id {
			return f.view
		}
	}
	return nil
}

// inertCount is how many of the view's elements users cannot reach, its
// frames' included (frame elements themselves not counted); 0 for no view.
func (v *pageView) inertCount() int {
	if v == nil {
		return 0
	}
	n := 0
	for i, in := range v.inert {
		if in && !isFrameRow(&v.res.Elements[i]) {
			n++
		}
	}
	for _, f := range v.frames {
		n += f.view.inertCount()
	}
	return n
}

// InertNote says that n of the elements listed are inert.
func InertNote(n int) string {
	if n == 1 {
		return "1 element is inert: a modal dialog (or an inert region) keeps users from it; clicks and typing on it are refused."
	}
	return fmt.Sprintf("%d elements are inert: a modal dialog (or an inert region) keeps users from them; clicks and typing on them are refused.", n)
}

// viewLocked makes a read the agent's view: top's walk with those of its
// visible frames (caller holds s.mu).
func (s *Session) viewLocked(sel *selection, gen uint64, top *docSnap, frames []frameDoc) *pageView {
	v := newView(gen, &top.r, s.boundWalkInfoLocked(sel, top), false)
	for _, f := range frames {
		fv := newView(gen, &f.d.r, s.boundWalkInfoLocked(sel, f.d), f.inert)
		v.frames = append(v.frames, &frameView{id: f.id, line: f.line, doc: f.d, view: fv})
	}
	sel.view = v
	return v
}

// delta is the difference between two views of one document: indexes into
// the new walk's elements (matched, appeared, changed) and keys of the old
// view (gone). moved holds [new, old] index pairs of the same nodes under
// another ref key (a selector that changed when a sibling was inserted
// before): their lines are unchanged, but the refs they have must locate
// them anew. Frame elements are left out (their documents have views of
// their own).
type delta struct {
	matched, appeared, changed []int
	gone                       []string
	moved                      [][2]int
	// A renewed view (renewed): same lists the elements neither appeared nor
	// changed, which the other views leave out.
	renewed bool
	same    []int
}

// diffViews compares the agent's last view with a new one. When both are
// bound to the nodes of one document, an element is the same one when it is
// the same node, as its ref is: an element the page rendered again as a new
// node that looks the same (a framework's list under new keys) has a new
// ref, so it appeared, and the old one, whose ref is now stale, is gone;
// one whose selector changed (a sibling inserted before it) is still
// itself. Otherwise elements are matched by their ref key (selector and
// fingerprint).
func diffViews(old, nv *pageView, match func(*pagejs.Element) bool) delta {
	var d delta
	r, w := nv.res, nv.info
	if old != nil && old.info == w && match == nil {
		return d // the same walk (kept): nothing changed
	}
	var find func(i int) (j int, ok bool) // the old view's element that is new element i
	var kept func(j int) bool             // whether old element j is in the new view
	switch {
	case old == nil:
	case bound(old.info, w):
		was, is := old.info.nodeIndex(), w.nodeIndex()
		find = func(i int) (int, bool) { j, ok := was[w.ids[i]]; return j, ok }
		kept = func(j int) bool { _, ok := is[old.info.ids[j]]; return ok }
	default:
		find = func(i int) (int, bool) { j, ok := old.info.index[w.keys[i]]; return j, ok }
		kept = func(j int) bool { _, ok := w.index[old.info.keys[j]]; return ok }
	}
	for i := range w.keys {
		e := &r.Elements[i]
		switch {
		case isFrameRow(e):
			continue
		case match != nil && match(e):
			d.matched = append(d.matched, i)
			continue
		case old == nil:
			d.appeared = append(d.appeared, i)
			continue
		}
		j, ok := find(i)
		switch {
		case !ok:
			d.appeared = append(d.appeared, i)
		case old.info.body(j, &old.res.Elements[j]) != w.body(i, e):
			d.changed = append(d.changed, i)
		case old.info.keys[j] != w.keys[i]:
			d.moved = append(d.moved, [2]int{i, j})
		}
	}
	if old != nil && nv.complete && old.info != w {
		for j, k := range old.info.keys {
			if !kept(j) && !isFrameRow(&old.res.Elements[j]) {
				d.gone = append(d.gone, k)
			}
		}
	}
	return d
}

// bound tells whether the walks a and b are both bound to the nodes of one
// document (the same window).
func bound(a, b *walkInfo) bool {
	return a.ids != nil && b.ids != nil && a.window == b.window
}

// nodeIndex maps a bound walk's node ids to element indexes, made once per
// walk info (by the call that holds the page-operation lock).
func (w *walkInfo) nodeIndex() map[int]int {
	if w.byNode == nil {
		w.byNode = make(map[int]int, len(w.ids))
		for i, id := range w.ids {
			w.byNode[id] = i
		}
	}
	return w.byNode
}

// docDelta is one document's part of a delta: the top document's (frame
// "") or a frame's, with its line.
type docDelta struct {
	frame     string
	d         delta
	old, nv   *pageView
	newDoc    bool // the frame shows another document than in the last view
	goneFrame bool // the frame is no longer shown
	ref       func(i int) string
	issued    func(j int) (string, bool) // nil: no ref of the old view still works
}

// deltaOf compares a read with the agent's last view, makes it the view,
// issues refs for the lines it shows and renders them.
func (s *Session) deltaOf(pg page, gen uint64, vr *viewRead, o observeOpts) Observation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sel != pg.sel || s.generation != gen {
		return unknownChange("the page changed while it was being read; take a snapshot")
	}
	old := pg.sel.view
	nv := s.viewLocked(pg.sel, gen, vr.top, vr.frames)
	// The same document in a new generation (an application's route, a
	// fragment navigated to): every ref is new, and the elements the last
	// view lacked are listed first.
	renew := false
	if old != nil && old.generation != gen {
		if renew = bound(old.info, nv.info); !renew {
			old = nil
		}
	}
	parts := []docDelta{s.docDeltaLocked(pg, gen, vr.top, old, nv, renew, o.match)}
	for _, f := range nv.frames {
		p := s.docDeltaLocked(pg, gen, f.doc, old.frame(f.id), f.view, renew, o.match)
		p.frame = f.line
		parts = append(parts, p)
	}
	if old != nil {
		// Frames of the last view no longer shown (removed, hidden, or in a
		// frame that navigated), unless their documents could not be read.
		for _, f := range old.frames {
			if nv.frame(f.id) == nil && !slices.Contains(vr.unread, f.id) {
				parts = append(parts, s.goneFrameLocked(f, renew))
			}
		}
	}
	return renderDelta(parts, o)
}

// goneFrameLocked is the part of a delta for frame f of the last view,
// which the page no longer shows: all its elements are gone.
func (s *Session) goneFrameLocked(f *frameView, renew bool) docDelta {
	p := docDelta{frame: f.line, old: f.view, goneFrame: true,
		nv: &pageView{res: &pagejs.SnapshotResult{}, info: &walkInfo{}, complete: true}}
	for j, k := range f.view.info.keys {
		if !isFrameRow(&f.view.res.Elements[j]) {
			p.d.gone = append(p.d.gone, k)
		}
	}
	if !renew {
		p.issued = func(j int) (string, bool) { return s.issuedRefLocked(f.view, j) }
	}
	return p
}

// docDeltaLocked compares document d's view nv with its last view old (nil:
// none), renew telling that the generation changed since old.
func (s *Session) docDeltaLocked(pg page, gen uint64, d *docSnap, old, nv *pageView, renew bool, match func(*pagejs.Element) bool) docDelta {
	p := docDelta{old: old, nv: nv}
	p.ref = func(i int) string { return s.refFor(pg, gen, d, nv.info, i) }
	if !d.t.Frame {
		p.ref = func(i int) string { return s.refLocked(pg, gen, nv.res, nv.info, i) }
	}
	switch {
	case old != nil && old.info.ids != nil && nv.info.ids != nil && old.info.window != nv.info.window:
		// Another document (a frame that navigated): its elements appeared,
		// the old one's are gone.
		p.newDoc = true
		p.d = diffViews(nil, nv, match)
		for j, k := range old.info.keys {
			if !isFrameRow(&old.res.Elements[j]) {
				p.d.gone = append(p.d.gone, k)
			}
		}
		if !renew {
			p.issued = func(j int) (string, bool) { return s.issuedRefLocked(old, j) }
		}
	case old != nil && renew:
		p.d = renewed(diffViews(old, nv, match), nv)
	default:
		p.d = diffViews(old, nv, match)
		if old != nil {
			p.issued = func(j int) (string, bool) { return s.issuedRefLocked(old, j) }
		}
		for _, m := range p.d.moved {
			if _, ok := p.issued(m[1]); ok {
				p.ref(m[0]) // the ref's locator now has the element's new selector
			}
		}
	}
	return p
}

// renewed turns d, the comparison of a view with the last one of the same
// document in an earlier generation, into the listing of a renewed view:
// every element has a new ref, those that appeared or changed since that
// view first, then the others (same) in page order; gone is only counted.
func renewed(d delta, nv *pageView) delta {
	d.renewed = true
	d.moved = nil
	listed := make(map[int]bool, len(d.matched)+len(d.appeared)+len(d.changed))
	for _, set := range [][]int{d.matched, d.appeared, d.changed} {
		for _, i := range set {
			listed[i] = true
		}
	}
	for i := range nv.info.keys {
		if !listed[i] && !isFrameRow(&nv.res.Elements[i]) {
			d.same = append(d.same, i)
		}
	}
	return d
}

// deltaCounts sums the parts of a delta.
type deltaCounts struct{ matched, appeared, changed, gone, same, elements, newDocs, goneFrames int }

func countParts(parts []docDelta) deltaCounts {
	var c deltaCounts
	for _, p := range parts {
		c.matched += len(p.d.matched)
		c.appeared += len(p.d.appeared)
		c.changed += len(p.d.changed)
		c.gone += len(p.d.gone)
		c.same += len(p.d.same)
		c.elements += p.nv.res.Total - frameRows(p.nv.res)
		if p.newDoc {
			c.newDocs++
		}
		if p.goneFrame {
			c.goneFrames++
		}
	}
	return c
}

// frameRows counts the frame elements of a walk.
func frameRows(r *pagejs.SnapshotResult) int {
	n := 0
	for i := range r.Elements {
		if isFrameRow(&r.Elements[i]) {
			n++
		}
	}
	return n
}

// renderDelta writes a delta: a summary, the element lines between the
// untrusted markers (matching, changed, appeared, gone; a frame's under its
// line; at most matchLines + deltaLines), and a line saying what was left
// out. parts[0] is the top document's.
func renderDelta(parts []docDelta, o observeOpts) Observation {
	top := parts[0]
	c := countParts(parts)
	head, st := deltaHead(parts, c, o)
	moved := ""
	if !top.d.renewed { // (the action's answer gives the new URL)
		moved = urlMoved(top.old, top.nv.res, st)
	}
	if moved != "" {
		head = moved + "\n" + head
	}
	if c.matched+c.appeared+c.changed+c.gone+c.same == 0 {
		return Observation{text: head, st: st, moved: moved}
	}
	u := NewUntrusted()
	l := deltaListing{u: u, room: deltaLines, matchRoom: matchLines}
	for _, p := range parts {
		l.part(p, top.old == nil)
	}
	st["shown"] = l.shown
	text := head + "\n" + u.String()
	if l.left > 0 {
		text += fmt.Sprintf("\n[%d more not shown; call snapshot_page to see the whole page]", l.left)
	}
	return Observation{text: text, st: st, moved: moved}
}

// deltaListing writes the element lines of a delta's parts, within its
// bounds (room: lines left for elements; matchRoom: for matching ones).
type deltaListing struct {
	u               *Untrusted
	room, matchRoom int
	shown, left     int
	opened          bool // the part's frame line is written
}

// part writes one document's lines; first: the page has no earlier view.
func (l *deltaListing) part(p docDelta, first bool) {
	l.opened = false
	l.section(p, "matching:", p.d.matched, &l.matchRoom)
	switch {
	case p.d.renewed:
		l.section(p, "appeared:", p.d.appeared, &l.room)
		l.section(p, "changed:", p.d.changed, &l.room)
		l.section(p, "as before:", p.d.same, &l.room)
	case first:
		l.section(p, "", p.d.appeared, &l.room)
	default:
		l.section(p, "changed:", p.d.changed, &l.room)
		l.section(p, "appeared:", p.d.appeared, &l.room)
		l.goneLines(p)
	}
	if l.opened {
		l.u.Line("--- end of frame ---")
	}
}

// open writes the part's frame line before its first element line.
func (l *deltaListing) open(p docDelta, title string, n int) {
	if !l.opened && p.frame != "" {
		l.u.Line(p.frame)
		l.opened = true
	}
	if n == 0 && title != "" {
		l.u.Line(title)
	}
}

func (l *deltaListing) section(p docDelta, title string, idx []int, room *int) {
	for n, i := range idx {
		if *room <= 0 {
			l.left += len(idx) - n
			return
		}
		l.open(p, title, n)
		l.u.Line("[" + p.ref(i) + "] " + p.nv.info.body(i, &p.nv.res.Elements[i]))
		l.shown++
		*room--
	}
}

// goneLines writes the gone section of a part: the elements of the old
// view with these keys, each with the ref it had when it had one.
func (l *deltaListing) goneLines(p docDelta) {
	for n, k := range p.d.gone {
		if l.room <= 0 {
			l.left += len(p.d.gone) - n
			return
		}
		l.open(p, "gone:", n)
		j := p.old.info.index[k]
		prefix := "- "
		if p.issued != nil {
			if r, ok := p.issued(j); ok {
				prefix += "[" + r + "] "
			}
		}
		l.u.Line(prefix + p.old.info.body(j, &p.old.res.Elements[j]))
		l.shown++
		l.room--
	}
}

// deltaHead is a delta's summary (its first lines) and structured changes.
func deltaHead(parts []docDelta, c deltaCounts, o observeOpts) (string, map[string]any) {
	top := parts[0]
	old, nv := top.old, top.nv
	r := nv.res
	complete := true
	for _, p := range parts {
		complete = complete && p.nv.complete && (p.old == nil || p.old.complete)
	}
	st := map[string]any{"known": true, "appeared": c.appeared, "changed": c.changed, "gone": c.gone,
		"complete": complete, "first_view": old == nil}
	if o.match != nil {
		st["matching"] = c.matched
	}
	if len(parts) > 1 {
		st["frames"] = len(parts) - 1
	}
	var head string
	switch {
	case top.d.renewed:
		st["renewed"] = true
		head = fmt.Sprintf("The same document as your last view, every element with a new ref: %d appeared, %d changed, %d gone since that view. Its actionable elements (%d), those that appeared or changed first:",
			c.appeared, c.changed, c.gone, c.elements)
	case old == nil:
		head = fmt.Sprintf("No earlier view of this page to compare with; its actionable elements (%d):", c.elements)
	case c.appeared+c.changed+c.gone == 0:
		head = "No change to the actionable elements since your last view, as the page reports them"
		if o.framesSkipped {
			head = "No change to the top document's actionable elements since your last view, as the page reports them"
		}
		if !nv.complete || !old.complete {
			head += fmt.Sprintf(" (only the first %d of %d were compared)", len(r.Elements), r.Total)
		}
		head += "."
	default:
		head = fmt.Sprintf("Changes since your last view: %d appeared, %d changed, %d gone.", c.appeared, c.changed, c.gone)
	}
	if old != nil && !nv.complete {
		head += fmt.Sprintf(" The page has %d actionable elements; only the first %d were read, so elements that went away are not reported.", r.Total, len(r.Elements))
	}
	if c.newDocs > 0 {
		head += fmt.Sprintf(" %s a new document: the earlier refs into %s are stale.", Plural(c.newDocs, "frame shows", "frames show"), pick(c.newDocs, "it", "them"))
	}
	if c.goneFrames > 0 {
		head += fmt.Sprintf(" %s no longer shown: %s elements are gone.", Plural(c.goneFrames, "frame is", "frames are"), pick(c.goneFrames, "its", "their"))
	}
	switch {
	case o.unread > 0 && o.framesSkipped:
		head += fmt.Sprintf(" Only the top document was compared, not its %s (snapshot_page lists their elements).", Plural(o.unread, "frame", "frames"))
		st["frames_not_compared"] = o.unread
	case o.unread > 0:
		head += fmt.Sprintf(" %s could not be read and %s not compared.", Plural(o.unread, "frame", "frames"), pick(o.unread, "was", "were"))
		st["frames_not_compared"] = o.unread
	}
	if n := nv.inertCount(); n != old.inertCount() {
		st["inert"] = n
		if n > 0 {
			head += "\n" + InertNote(n)
		} else {
			head += "\nNo element is inert any more (a modal dialog closed, an inert region ended)."
		}
	}
	return head, st
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// urlMoved is the line saying that the document's URL changed since the
// last view of the same generation (the page changed it by itself, outside
// an action: after an action the changed URL starts a new generation, see
// afterSeen), with the URL as the page gives it; "" when it did not. st
// gets url_changed and url.
func urlMoved(old *pageView, r *pagejs.SnapshotResult, st map[string]any) string {
	if old == nil || old.res.URL == r.URL || r.URL == "" {
		return ""
	}
	st["url_changed"] = true
	st["url"] = PageStr(r.URL)
	u := NewUntrusted()
	u.Field("URL", r.URL, 300)
	return "The URL changed since your last view, in the same document (refs still work):\n" + u.String()
}
