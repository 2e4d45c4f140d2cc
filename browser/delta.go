package browser

// The delta (observe.go reads the page for it): what changed among the
// actionable elements between the agent's last view of the page and a new
// read of it, in the top document and in each visible frame's document,
// rendered as snapshot lines with refs.

import (
	"fmt"
	"slices"
	"sort"

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
	id, parent int64  // browsing contexts: the frame's, and its element's document's (0: top)
	line       string // the frame's line (frameLine)
	doc        *docSnap
	view       *pageView
}

// newView is the view of walk r (info w); above: its frame element is inert,
// and so are all of its elements (an action on them is refused,
// Op.ReachFrame).
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
		return "1 element is inert: a modal dialog or menu (or an inert region) keeps users from it; clicks and typing on it are refused."
	}
	return fmt.Sprintf("%d elements are inert: a modal dialog or menu (or an inert region) keeps users from them; clicks and typing on them are refused.", n)
}

// viewLocked makes a read the agent's view: the top document's walk with
// those of its visible frames (caller holds s.mu). Of the last view's frames
// the read lacks, those it could not tell about (unread: a frame whose
// document could not be read, one inside it, or any when the read could not
// place the frames) are kept in the view as they were, to be compared when
// read again; the others are gone (returned).
func (s *Session) viewLocked(sel *selection, gen uint64, vr *viewRead) (old, nv *pageView, gone []*frameView) {
	old = sel.view
	nv = newView(gen, &vr.top.r, s.boundWalkInfoLocked(sel, vr.top), false)
	for _, f := range vr.frames {
		fv := newView(gen, &f.d.r, s.boundWalkInfoLocked(sel, f.d), f.inert)
		nv.frames = append(nv.frames, &frameView{id: f.id, parent: f.parent, line: f.line, doc: f.d, view: fv})
	}
	sel.view = nv
	if old == nil || old.info.window != nv.info.window {
		return old, nv, nil // (another document: its frames are no more)
	}
	// (A read without its refs bound could not place its frames.)
	unknown := vr.skipped > 0 || slices.Contains(vr.unread, 0) || nv.info.ids == nil
	for _, f := range old.frames {
		if nv.frame(f.id) != nil {
			continue
		}
		if unknown || unreadIn(old, f, vr.unread) {
			nv.frames = append(nv.frames, f)
		} else {
			gone = append(gone, f)
		}
	}
	return old, nv, gone
}

// unreadIn tells whether frame f of view v, or a frame holding it, is in
// unread.
func unreadIn(v *pageView, f *frameView, unread []int64) bool {
	for depth := 0; f != nil && depth <= maxFrameDepth; depth++ {
		if slices.Contains(unread, f.id) {
			return true
		}
		var up *frameView
		for _, g := range v.frames {
			if g.id == f.parent {
				up = g
			}
		}
		f = up
	}
	return false
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
	// reordered lists the elements that are in both views, unchanged, but in
	// another place in the page's order (a list sorted, an item dragged):
	// those outside the longest run kept in order (reorderedIn).
	reordered []int
	// unseen counts the new view's elements past the reach of an old view
	// that was cut (a snapshot_page with a small max_elements): whether they
	// appeared cannot be told, so they are not listed as such.
	unseen int
	// A renewed view (renewed): same lists the elements neither appeared nor
	// changed, which the other views leave out.
	renewed bool
	same    []int
	// kept lists the elements in both views, unchanged, in the new order;
	// unshown those of them whose lines no answer has shown yet (no ref was
	// issued: an earlier answer's listing was cut at its bound), listed once
	// they all fit (deltaListing.plan).
	kept, unshown []int
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
	if old != nil && match == nil && sameWalk(old, nv) {
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
	var both [][2]int // [new, old] of the unchanged elements in both views, in the new order
	reach := reachOf(old, w, find)
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
		case !ok && i >= reach:
			d.unseen++
		case !ok:
			d.appeared = append(d.appeared, i)
		case old.info.body(j, &old.res.Elements[j]) != w.body(i, e) || nearMoved(old.info.nearOf(j), w.nearOf(i)):
			d.changed = append(d.changed, i)
		case old.info.keys[j] != w.keys[i]:
			d.moved = append(d.moved, [2]int{i, j})
			both = append(both, [2]int{i, j})
		default:
			both = append(both, [2]int{i, j})
		}
	}
	// (Changed elements are listed as changed, moved or not, and take no part in
	// the order: a run through one could make an unchanged element look moved.)
	d.reordered = reorderedIn(both)
	for _, b := range both {
		d.kept = append(d.kept, b[0])
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

// nearMoved tells whether a look-alike's near text changed from was to is
// while it stayed a look-alike (a list keyed by position that rewrote its
// items' text: the element now stands by other text). One that only came
// or went with another look-alike is no change.
func nearMoved(was, is string) bool {
	return was != "" && is != "" && was != is
}

// reachOf is the index of the new walk (info w) from which its elements are
// past the reach of the old view, when that one was cut at the element limit:
// after the last of its elements still there (or, none being there, after as
// many elements as it had). Without an old view, or with one that saw every
// element, it is past the end.
func reachOf(old *pageView, w *walkInfo, find func(i int) (int, bool)) int {
	if old == nil || old.complete || find == nil {
		return len(w.keys)
	}
	last := -1
	for i := range w.keys {
		if _, ok := find(i); ok {
			last = i
		}
	}
	if last < 0 {
		return min(len(old.res.Elements), len(w.keys))
	}
	return last + 1
}

// reorderedIn returns the new indexes of the pairs (both: [new, old], in the
// new order) outside a longest run whose old indexes increase: the fewest
// elements whose moves explain the new order (one item dragged from first to
// third is the one moved, not the two it passed).
func reorderedIn(both [][2]int) []int {
	// Patience sorting: tails[k] is the index in both of the smallest old index
	// that ends an increasing run of length k+1; prev links each to the one
	// before it in its run.
	tails := make([]int, 0, len(both))
	prev := make([]int, len(both))
	for n, p := range both {
		k := sort.Search(len(tails), func(k int) bool { return both[tails[k]][1] >= p[1] })
		prev[n] = -1
		if k > 0 {
			prev[n] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, n)
		} else {
			tails[k] = n
		}
	}
	if len(tails) == len(both) {
		return nil
	}
	inRun := make([]bool, len(both))
	for n := tails[len(tails)-1]; n >= 0; n = prev[n] {
		inRun[n] = true
	}
	var out []int
	for n, p := range both {
		if !inRun[n] {
			out = append(out, p[0])
		}
	}
	return out
}

// sameWalk tells whether two views are of one walk (the resident's kept
// result, answered {same}) with one binding.
func sameWalk(a, b *pageView) bool {
	if a.info == b.info {
		return true
	}
	ea, eb := a.res.Elements, b.res.Elements
	return len(ea) > 0 && len(ea) == len(eb) && &ea[0] == &eb[0] && a.info.window == b.info.window && slices.Equal(a.info.ids, b.info.ids)
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
	o.unread, o.framesSkipped = len(vr.unread)+vr.skipped, vr.skipped > 0
	old, nv, gone := s.viewLocked(pg.sel, gen, vr)
	// The same document in a new generation (an application's route, a
	// fragment navigated to): every ref is new, and the elements the last
	// view lacked are listed first.
	renew := false
	if old != nil && old.generation != gen {
		if renew = bound(old.info, nv.info); !renew {
			old, gone = nil, nil
		}
	}
	// (wait_for's match names the top document's elements.)
	parts := []docDelta{s.docDeltaLocked(pg, gen, vr.top, old, nv, renew, o.match)}
	for _, f := range nv.frames[:len(vr.frames)] {
		// (A frame's last view can be of an earlier generation than the top's:
		// one kept while its document could not be read.)
		fo := old.frame(f.id)
		p := s.docDeltaLocked(pg, gen, f.doc, fo, f.view, renew || (fo != nil && fo.generation != gen), nil)
		p.frame = f.line
		parts = append(parts, p)
	}
	// Frames of the last view no longer shown (removed, hidden, or in a
	// frame that navigated).
	for _, f := range gone {
		parts = append(parts, s.goneFrameLocked(f, renew))
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
		if old != nil {
			p.d.unshown = s.unshownLocked(nv, p.d)
		}
	}
	return p
}

// unshownLocked lists the elements of d's new view nv, bound to its nodes,
// that stayed as they were and that no answer has shown a line of (no ref
// issued; an element named only as the one before a moved one has one),
// leaving out those d lists as moved in the page's order. An answer cut at its bound
// leaves such elements behind: the rest of a long list of options, which a
// filter may have narrowed down to a few since.
func (s *Session) unshownLocked(nv *pageView, d delta) []int {
	if nv.info.ids == nil {
		return nil // (refs by key: a frame's are kept under its window, not found here)
	}
	reordered := make(map[int]bool, len(d.reordered))
	for _, i := range d.reordered {
		reordered[i] = true
	}
	var out []int
	for _, i := range d.kept {
		if _, ok := s.issuedRefLocked(nv, i); !ok && !reordered[i] {
			out = append(out, i)
		}
	}
	return out
}

// renewed turns d, the comparison of a view with the last one of the same
// document in an earlier generation, into the listing of a renewed view:
// every element has a new ref, those that appeared or changed since that
// view first, then the others (same) in page order; gone is only counted.
func renewed(d delta, nv *pageView) delta {
	d.renewed = true
	d.moved, d.reordered, d.unseen = nil, nil, 0
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
type deltaCounts struct {
	matched, appeared, changed, gone, same, reordered, unseen, elements, newDocs, goneFrames int
}

func countParts(parts []docDelta) deltaCounts {
	var c deltaCounts
	for _, p := range parts {
		c.matched += len(p.d.matched)
		c.appeared += len(p.d.appeared)
		c.changed += len(p.d.changed)
		c.gone += len(p.d.gone)
		c.same += len(p.d.same)
		c.reordered += len(p.d.reordered)
		c.unseen += p.d.unseen
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
	u := NewUntrusted()
	l := deltaListing{u: u}
	l.plan(parts, top.old == nil, top.d.renewed)
	if c.matched+c.appeared+c.changed+c.gone+c.same+c.reordered+l.unshown == 0 {
		return Observation{text: head, st: st, moved: moved}
	}
	if l.unshown > 0 {
		st["not_shown_before"] = l.unshown
	}
	for k, p := range parts {
		l.part(k, p)
	}
	st["shown"] = l.shown
	text := head + "\n" + u.String()
	if l.left > 0 {
		text += fmt.Sprintf("\n[%d more not shown; call snapshot_page to see the whole page]", l.left)
	}
	return Observation{text: text, st: st, moved: moved}
}

// deltaListing writes the element lines of a delta's parts, document by
// document in page order, at most matchLines matching ones and deltaLines
// others, shared out by rank (plan): what changed and appeared in any
// document takes the lines before what went away or stayed as before.
type deltaListing struct {
	u           *Untrusted
	secs        [][]deltaSection // per part
	shown, left int
	unshown     int  // lines of elements not shown before (plan)
	opened      bool // the part's frame line is written
}

// deltaSection is one section of a part: its title, its elements (new view
// indexes; gone: the old view's keys), its rank and the lines it may write.
type deltaSection struct {
	title   string
	idx     []int
	gone    []string
	rank    int
	lines   int
	placed  bool // each line says where the element is now (moved)
	unshown bool // elements not shown before (planUnshown gives the lines)
}

// plan lays out each part's sections and shares the bounds out among them;
// first: the page has no earlier view; renewed: every ref is new (what went
// away is only counted).
func (l *deltaListing) plan(parts []docDelta, first, renewed bool) {
	l.secs = make([][]deltaSection, len(parts))
	for k, p := range parts {
		ss := []deltaSection{{title: "matching:", idx: p.d.matched, rank: -1}}
		switch {
		case p.d.renewed:
			ss = append(ss, deltaSection{title: "appeared:", idx: p.d.appeared}, deltaSection{title: "changed:", idx: p.d.changed},
				deltaSection{title: "as before:", idx: p.d.same, rank: 2})
		case first:
			ss = append(ss, deltaSection{idx: p.d.appeared})
		default:
			ss = append(ss, deltaSection{title: "changed:", idx: p.d.changed}, deltaSection{title: "appeared:", idx: p.d.appeared, rank: 1},
				deltaSection{title: "moved:", idx: p.d.reordered, rank: 1, placed: true},
				deltaSection{title: "not shown before (as they were):", idx: p.d.unshown, rank: 3, unshown: true})
			if !renewed {
				ss = append(ss, deltaSection{title: "gone:", gone: p.d.gone, rank: 2})
			}
		}
		l.secs[k] = ss
	}
	matchRoom, room := matchLines, deltaLines
	for rank := -1; rank <= 2; rank++ {
		for _, ss := range l.secs {
			for i := range ss {
				sc := &ss[i]
				if sc.rank != rank {
					continue
				}
				r := &room
				if rank < 0 {
					r = &matchRoom
				}
				sc.lines = min(*r, len(sc.idx)+len(sc.gone))
				*r -= sc.lines
				l.left += len(sc.idx) + len(sc.gone) - sc.lines
			}
		}
		if rank == 1 {
			l.planUnshown(&room)
		}
	}
}

// planUnshown gives the elements not shown before (delta.unshown) their
// lines after what changed and appeared, before what went away, when they
// are few (unshownLines) and all of them fit in the room left: a part of
// them would only start another list to finish, and many would crowd an
// answer about something else (the rest of a long page the agent has not
// asked to see). They are no change: when they are not listed, nothing says
// so.
func (l *deltaListing) planUnshown(room *int) {
	n := 0
	for _, ss := range l.secs {
		for _, sc := range ss {
			if sc.unshown {
				n += len(sc.idx)
			}
		}
	}
	if n == 0 || n > min(*room, unshownLines) {
		return
	}
	for _, ss := range l.secs {
		for i := range ss {
			if ss[i].unshown {
				ss[i].lines = len(ss[i].idx)
			}
		}
	}
	*room -= n
	l.unshown = n
}

// part writes part k's lines, its frame's line and end line around them.
func (l *deltaListing) part(k int, p docDelta) {
	l.opened = false
	for _, sc := range l.secs[k] {
		for n := range sc.lines {
			if !l.opened && p.frame != "" {
				l.u.Line(p.frame)
				l.opened = true
			}
			if n == 0 && sc.title != "" {
				l.u.Line(sc.title)
			}
			if sc.gone != nil {
				l.u.Line(goneLine(p, sc.gone[n]))
			} else {
				i := sc.idx[n]
				line := p.nv.info.line(p.ref(i), i, &p.nv.res.Elements[i])
				if sc.placed {
					line += placeOf(p, i)
				}
				l.u.Line(line)
			}
			l.shown++
		}
	}
	if l.opened {
		l.u.Line("--- end of frame ---")
	}
}

// placeOf says where element i of p's new view is in the page's order: after
// the element before it (not a frame).
func placeOf(p docDelta, i int) string {
	for k := i - 1; k >= 0; k-- {
		if !isFrameRow(&p.nv.res.Elements[k]) {
			return " (now after [" + p.ref(k) + "])"
		}
	}
	return " (now first)"
}

// goneLine is the line of the old view's element with key k, with the ref it
// had when it had one.
func goneLine(p docDelta, k string) string {
	j := p.old.info.index[k]
	prefix := "- "
	if p.issued != nil {
		if r, ok := p.issued(j); ok {
			prefix += "[" + r + "] "
		}
	}
	return prefix + p.old.info.body(j, &p.old.res.Elements[j]) + nearSuffix(p.old.info.nearOf(j))
}

// deltaHead is a delta's summary (its first lines) and structured changes.
func deltaHead(parts []docDelta, c deltaCounts, o observeOpts) (string, map[string]any) {
	top := parts[0]
	old, nv := top.old, top.nv
	r := nv.res
	complete, framesCut := true, false
	for k, p := range parts {
		complete = complete && p.nv.complete && (p.old == nil || p.old.complete)
		framesCut = framesCut || (k > 0 && !p.goneFrame && !p.nv.complete)
	}
	st := map[string]any{"known": true, "appeared": c.appeared, "changed": c.changed, "gone": c.gone,
		"complete": complete, "first_view": old == nil}
	if c.reordered > 0 {
		st["reordered"] = c.reordered
	}
	if o.match != nil {
		st["matching"] = c.matched
	}
	if n := len(parts) - 1 - c.goneFrames; n > 0 {
		st["frames"] = n // (the frames' documents compared)
	}
	if top.d.renewed {
		st["renewed"] = true
	}
	head := deltaSummary(top, c, o, framesCut)
	if c.unseen > 0 {
		st["not_compared"] = c.unseen
	}
	switch {
	case old != nil && !nv.complete:
		head += fmt.Sprintf(" The page has %d actionable elements; only the first %d were read, so elements that went away are not reported.", r.Total, len(r.Elements))
	case old != nil && framesCut:
		head += " A frame's document has more elements than were read, so those that went away from it are not reported."
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
			head += "\nNo element is inert any more."
		}
	}
	return head, st
}

// deltaSummary is a delta's first sentence: what changed since the last
// view, or that nothing did (and how much of the page that covers), or that
// there is no view to compare with; framesCut: a frame's document was read
// only in part.
func deltaSummary(top docDelta, c deltaCounts, o observeOpts, framesCut bool) string {
	old, nv := top.old, top.nv
	r := nv.res
	var head string
	switch {
	case top.d.renewed:
		head = fmt.Sprintf("The same document as your last view, every element with a new ref: %d appeared, %d changed, %d gone since that view. Its actionable elements (%d), those that appeared or changed first:",
			c.appeared, c.changed, c.gone, c.elements)
	case old == nil:
		head = fmt.Sprintf("No earlier view of this page to compare with; its actionable elements (%d):", c.elements)
	case c.appeared+c.changed+c.gone+c.reordered == 0:
		head = "No change to the actionable elements since your last view, as the page reports them"
		if o.framesSkipped {
			head = "No change to the top document's actionable elements since your last view, as the page reports them"
		}
		if !nv.complete {
			head += fmt.Sprintf(" (only the first %d of %d were compared)", len(r.Elements), r.Total)
		} else if c.unseen > 0 {
			head += fmt.Sprintf(" (only the %d your last view had, of %d, were compared)", len(r.Elements)-c.unseen, r.Total)
		} else if framesCut {
			head += " (a frame's document was read only in part)"
		}
		head += "."
	default:
		head = fmt.Sprintf("Changes since your last view: %d appeared, %d changed, %d gone", c.appeared, c.changed, c.gone)
		if c.reordered > 0 {
			head += fmt.Sprintf(", %d moved in the page's order", c.reordered)
		}
		head += "."
		if c.unseen > 0 {
			head += fmt.Sprintf(" Your last view was cut short (max_elements): the %d elements after its end were not compared (snapshot_page with an offset lists them).", c.unseen)
		}
	}
	return head
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// urlMoved is the line saying that the document's URL changed since the
// last view of the same generation (pushState, replaceState, a fragment:
// the document is the same, and so are its refs), with the URL as the page
// gives it; "" when it did not. st gets url_changed and url.
func urlMoved(old *pageView, r *pagejs.SnapshotResult, st map[string]any) string {
	if old == nil || old.res.URL == r.URL || r.URL == "" {
		return ""
	}
	st["url_changed"] = true
	st["url"] = PageURL(r.URL)
	u := NewUntrusted()
	u.Field("URL", r.URL, 300)
	return "The URL changed since your last view, in the same document (refs still work):\n" + u.String()
}
