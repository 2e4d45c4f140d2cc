package browser

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Frames. Every iframe's document, same- or cross-origin (Fission puts the
// latter in other processes), is a watcher target of its own with its own
// page realm and, through its process, its own isolated realm. A snapshot
// reads the top document and every frame document concurrently, each with
// its refs bound to its nodes; the top document's walk also lists its
// visible frames (hidden and zero-sized ones are left out), whose browsing
// contexts BindRefs reads, and each frame's snapshot goes in its frame's
// place, under a line naming the frame's origin, at any depth. Refs come
// from one eN space; a ref in a frame remembers the frame and its document,
// so actions run there (trusted, in that frame's isolated realm), and a
// frame that navigated makes only its own refs stale. Without the isolated
// realm frames are not read (the snapshot says so): nothing could tell
// which frame element holds which document.

// maxFrameDepth bounds frame nesting in a snapshot; maxFrames the frame
// documents one snapshot reads (the rest are named but not read), at most
// frameReaders at a time.
const (
	maxFrameDepth = 8
	maxFrames     = 32
	frameReaders  = 6
)

// frameLoc names a frame's document: its browsing context and inner window.
type frameLoc struct{ id, window int64 }

// docTarget is the document pg acts in: its frame's (which must still hold
// the document the ref was taken in) or the top one.
func (s *Session) docTarget(ctx context.Context, pg page) (rdp.Target, error) {
	if pg.frame == nil {
		return s.current(ctx, pg)
	}
	t, ok := pg.sel.watch.Frame(pg.frame.id)
	switch {
	case !ok:
		return rdp.Target{}, Errorf(errcode.StaleElement, "the frame holding this element is gone; take a new snapshot")
	case t.InnerWindowID != pg.frame.window:
		return rdp.Target{}, Errorf(errcode.StaleElement, "the frame holding this element navigated since the snapshot; take a new snapshot")
	}
	return t, nil
}

// inFrame returns pg acting in l's frame (pg itself for the top document).
func inFrame(pg page, l *Locator) page {
	if l.frame != 0 {
		pg.frame = &frameLoc{l.frame, l.window}
	}
	return pg
}

// docSnap is one document's snapshot and its binding.
type docSnap struct {
	t    rdp.Target
	r    pagejs.SnapshotResult
	b    binding
	err  error
	info *walkInfo // of r, once made (docInfoLocked)
}

// docInfoLocked returns the walk info of d's result (the kept walk's, when
// d's result is it), made once. Called with s.mu held.
func (s *Session) docInfoLocked(sel *selection, d *docSnap) *walkInfo {
	if d.info == nil {
		d.info = walkInfoLocked(residentSlotOf(sel, d.t).kept, &d.r)
	}
	return d.info
}

// readDoc snapshots document t with its refs bound when possible.
func (s *Session) readDoc(ctx context.Context, pg page, t rdp.Target, args pagejs.SnapshotArgs) *docSnap {
	pgd := pg
	if t.Frame {
		pgd.frame = &frameLoc{t.BrowsingContextID, t.InnerWindowID}
	}
	d := &docSnap{t: t}
	s.awaitMarks(ctx, pgd, t)
	if args.Pin = s.bindingPlan(ctx, pg, t); args.Pin == "" {
		d.r, _, d.err = s.snapshot(ctx, pgd, args)
		return d
	}
	wait := s.startBinding(ctx, pg, t, args.Pin, args.MaxElements)
	r, same, err := s.snapshot(ctx, pgd, args)
	d.r, d.err = r, err
	count := -1
	if d.err == nil {
		count = len(d.r.Elements)
	}
	if held, ok := s.heldBinding(pg.sel, t, &d.r, same); ok {
		d.b = *held
		go s.confirmBinding(pg.sel, t, held, wait, count)
		return d
	}
	d.b = wait(count)
	s.keepBinding(pg.sel, t, &d.r, d.b)
	return d
}

// readAll snapshots the top document and, when its refs can be bound, every
// frame document the watcher knows, all at once (frames in other processes
// are read in parallel with the top one). frames is keyed by browsing
// context; framesSkipped says why frames were not read ("" when they were,
// or when there are none).
func (s *Session) readAll(ctx context.Context, pg page, args pagejs.SnapshotArgs) (top *docSnap, frames map[int64]*docSnap, framesSkipped string) {
	t, err := s.current(ctx, pg)
	if err != nil {
		return &docSnap{err: err}, nil, ""
	}
	list := pg.sel.watch.Frames()
	if len(list) > 0 {
		switch {
		case s.opts.PageRealmOnly || s.opts.NoNodeBinding:
			framesSkipped = "frames are read only with refs bound to nodes, which this configuration turns off"
		case !s.realmFor(ctx, pg, t).ok:
			framesSkipped = "frames are read only through Firefox's isolated realm, unavailable here"
		}
	}
	if len(list) == 0 || framesSkipped != "" {
		return s.readDoc(ctx, pg, t, args), nil, framesSkipped
	}
	// With frames, paging and the query apply to the elements of all the
	// documents together (renderLocked): each is read from its start.
	args.Frames = true
	args.MaxElements = min(args.MaxElements+args.Offset, maxRefs)
	args.Offset, args.Query = 0, ""
	if len(list) > maxFrames {
		list = list[:maxFrames]
	}
	frames = make(map[int64]*docSnap, len(list))
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, frameReaders)
	)
	for _, ft := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			d := s.readDoc(ctx, pg, ft, args)
			mu.Lock()
			frames[ft.BrowsingContextID] = d
			mu.Unlock()
		}()
	}
	top = s.readDoc(ctx, pg, t, args)
	wg.Wait()
	return top, frames, ""
}

// snapLines is a snapshot rendered for the model: element and frame lines;
// shown elements of total (those the query matched) of all.
type snapLines struct {
	lines             []string
	shown, total, all int
	frames            int
	inert             int // shown elements users cannot reach (pagejs.SnapshotResult.Inert)
	// open frame lines not yet written: a frame's line is written with its
	// first shown element (paging), and its end line only after it
	pending []string
	opened  int
}

// renderLocked gives refs to the elements of top and of the frames placed
// in it, in document order, and renders their lines. Without frames the
// page script already applied args' offset, query and limit; with frames
// they apply here, to the documents' elements together. The kept result,
// rendered before with nothing changed since, is not rendered again
// (renderedLocked). Called with s.mu held.
func (s *Session) renderLocked(pg page, gen uint64, top *docSnap, frames map[int64]*docSnap, args pagejs.SnapshotArgs) (out snapLines) {
	if frames == nil {
		if kept, ok := s.renderedLocked(pg.sel, gen, top, args); ok {
			return kept // the kept result, rendered before: nothing to issue
		}
		return s.renderTopLocked(pg, gen, top, args)
	}
	out = snapLines{lines: make([]string, 0, len(top.r.Elements)+8)}
	query := strings.ToLower(args.Query)
	// above: d is in a frame whose element is inert (so is all of d: an action
	// there is refused, Op.ReachFrame).
	var emit func(d *docSnap, depth int, above bool)
	emit = func(d *docSnap, depth int, above bool) {
		w := s.docInfoLocked(pg.sel, d)
		in := d.r.InertRows()
		for i := range d.r.Elements {
			e := &d.r.Elements[i]
			inert := above || (in != nil && in[i])
			if isFrameRow(e) {
				s.renderFrame(&out, d, i, frames, depth, func(fd *docSnap, depth int) { emit(fd, depth, inert) })
				continue
			}
			out.all++
			if query != "" && !matches(e, query) {
				continue
			}
			out.total++
			if out.total <= args.Offset || out.shown >= args.MaxElements {
				continue
			}
			out.flush()
			out.lines = append(out.lines, w.line(s.refFor(pg, gen, d, w, i), i, e))
			out.shown++
			if inert {
				out.inert++
			}
		}
	}
	emit(top, 0, false)
	return out
}

// isFrameRow tells whether a walk's element is a frame (a walk with frames
// lists them; snapshot_page puts the frame's document in its place).
func isFrameRow(e *pagejs.Element) bool {
	return e.Tag == "iframe" || e.Tag == "frame"
}

// renderTopLocked is renderLocked for a read of the top document alone: one
// line per element (a frame's says it was not read), the line of a row a
// patch kept reused from the rendering before (priorLine). The rendering is
// kept for the next read. Called with s.mu held.
func (s *Session) renderTopLocked(pg page, gen uint64, top *docSnap, args pagejs.SnapshotArgs) snapLines {
	out := snapLines{lines: make([]string, 0, len(top.r.Elements)), total: top.r.Total, all: top.r.All}
	k := &pg.sel.kept
	w := s.docInfoLocked(pg.sel, top)
	locs := make([]*Locator, len(top.r.Elements))
	in := top.r.InertRows()
	for i := range top.r.Elements {
		e := &top.r.Elements[i]
		if isFrameRow(e) {
			s.renderFrame(&out, top, i, nil, 0, nil)
			locs = nil
			continue
		}
		if line, l, ok := s.priorLine(k, gen, top, args, i, w.nearOf(i)); ok {
			s.priorLines++
			out.lines = append(out.lines, line)
			if locs != nil {
				locs[i] = l
			}
		} else {
			ref := s.refFor(pg, gen, top, w, i)
			out.lines = append(out.lines, w.line(ref, i, e))
			if locs != nil {
				locs[i] = s.refs.byRef[ref]
			}
		}
		out.shown++
		if in != nil && in[i] {
			out.inert++
		}
	}
	s.keepRenderedLocked(pg.sel, gen, top, args, out, locs)
	return out
}

// refFor gives element i of document d (walk info w) its ref.
func (s *Session) refFor(pg page, gen uint64, d *docSnap, w *walkInfo, i int) string {
	e := &d.r.Elements[i]
	l := &Locator{generation: gen, browserID: pg.sel.tab.BrowserID, sel: e.Sel, fp: e.FP, sum: w.sums[i], window: d.t.InnerWindowID}
	if d.t.Frame {
		l.frame, l.origin = d.t.BrowsingContextID, frameOrigin(d)
	}
	if d.b.ids != nil {
		l.node = d.b.ids[i]
		return s.refs.addNode(l)
	}
	return s.refs.add(l)
}

// matches is the page script's query filter (snapshot.js): role, tag, name,
// value, link target, kind ("clickable") or drag state contains query (lower
// case), ignoring case.
func matches(e *pagejs.Element, query string) bool {
	v := ""
	if e.Value != nil {
		v = *e.Value
	}
	return strings.Contains(strings.ToLower(e.Role+"\n"+e.Tag+"\n"+e.Name+"\n"+v+"\n"+e.Href+"\n"+e.Kind+"\n"+e.Drag), query)
}

// flush writes the frame lines still pending, before an element line.
func (out *snapLines) flush() {
	out.lines = append(out.lines, out.pending...)
	out.opened += len(out.pending)
	out.pending = out.pending[:0]
}

// renderFrame renders the frame that element i of d is: a line naming it and
// its origin, then its own snapshot, then an end line.
func (s *Session) renderFrame(out *snapLines, d *docSnap, i int, frames map[int64]*docSnap, depth int, emit func(*docSnap, int)) {
	e := &d.r.Elements[i]
	id, known := d.b.frames[i]
	fd := frames[id]
	head := frameHead(e)
	switch {
	case !known || fd == nil:
		out.flush()
		out.lines = append(out.lines, head+" (its document could not be read; take the snapshot again) ---")
		return
	case fd.err != nil:
		out.flush()
		out.lines = append(out.lines, head+" (its document could not be read: "+Quote(errText(fd.err), 120)+") ---")
		return
	case depth+1 > maxFrameDepth:
		out.flush()
		out.lines = append(out.lines, head+" (nested deeper than "+strconv.Itoa(maxFrameDepth)+" frames: not shown) ---")
		return
	}
	out.frames++
	out.pending = append(out.pending, frameLine(d, fd, e))
	depthAt := len(out.pending) + out.opened
	emit(fd, depth+1)
	if len(out.pending)+out.opened == depthAt && len(out.pending) > 0 {
		out.pending = out.pending[:len(out.pending)-1] // nothing of it shown
		return
	}
	out.opened--
	out.lines = append(out.lines, "--- end of frame ---")
}

// frameHead is the start of the line of frame element e.
func frameHead(e *pagejs.Element) string {
	head := "--- frame"
	if e.Name != "" {
		head += " " + Quote(e.Name, 80)
	}
	return head
}

// frameLine is the line that names frame element e of document d, whose
// document fd is: its name and origin.
func frameLine(d, fd *docSnap, e *pagejs.Element) string {
	origin, inherited := frameOrigin(fd), ""
	if strings.HasPrefix(origin, "about:") {
		// about:blank and about:srcdoc documents take their parent's origin
		// (unless sandboxed, which the walk does not see).
		origin, inherited = frameOrigin(d), " ("+Quote(fd.r.URL, 40)+", inherited)"
	}
	return frameHead(e) + " origin=" + Quote(origin, 200) + inherited + " ---"
}

// frameDoc is a frame's document as a view takes it: a visible frame (its
// element listed in its parent's walk) whose document was read.
type frameDoc struct {
	id     int64  // browsing context
	parent int64  // the browsing context of the document holding its element (0: the top one)
	line   string // frameLine
	d      *docSnap
	inert  bool // its frame element is inert, and so is all of it
}

// visibleFrames lists the frames whose elements top's walk and its frames'
// walks list (as snapshot_page shows them), in page order, and those whose
// document could not be read with its refs bound (or nested too deep):
// unread, by browsing context (0: not known).
func visibleFrames(top *docSnap, frames map[int64]*docSnap) (list []frameDoc, unread []int64) {
	var visit func(d *docSnap, parent int64, depth int, above bool)
	visit = func(d *docSnap, parent int64, depth int, above bool) {
		in := d.r.InertRows()
		for i := range d.r.Elements {
			e := &d.r.Elements[i]
			if !isFrameRow(e) {
				continue
			}
			id, known := d.b.frames[i]
			fd := frames[id]
			if !known || fd == nil || fd.err != nil || fd.b.ids == nil || depth+1 > maxFrameDepth {
				unread = append(unread, id)
				continue
			}
			inert := above || (in != nil && in[i])
			list = append(list, frameDoc{id: id, parent: parent, line: frameLine(d, fd, e), d: fd, inert: inert})
			visit(fd, id, depth+1, inert)
		}
	}
	visit(top, 0, 0, false)
	return list, unread
}

// frameOrigin is the origin of a frame's document (page-derived: its URL).
func frameOrigin(d *docSnap) string {
	raw := d.r.URL
	if raw == "" {
		raw = d.t.URL
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

func errText(err error) string {
	if e, ok := AsError(err); ok {
		return e.Message
	}
	return "the page script failed"
}

// frameAfter is after for an action in a frame: navigated tells whether the
// top document changed (all refs stale); a frame that navigated makes only
// its own refs stale, which docTarget reports when they are used. urlNow is
// the frame's URL.
func (s *Session) frameAfter(ctx context.Context, pg page) (urlNow string, navigated bool) {
	if s.sync(pg.sel) {
		top := pg
		top.frame = nil
		if t, err := top.sel.watch.Current(ctx); err == nil {
			return t.URL, true
		}
		return "", true
	}
	t, ok := pg.sel.watch.Frame(pg.frame.id)
	if ok && t.InnerWindowID == pg.frame.window {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		var info pagejs.PageInfoResult
		if _, err := s.execOn(cctx, pg, t, ReadRealm, pagejs.PageInfo, struct{}{}, &info, nil); err == nil {
			return info.URL, false
		}
	}
	return t.URL, false
}

// waitFrames extends one wait_for poll to the frames: a text or selector is
// present when some document (the top one, topMet, or a frame) has it, and
// absent when none has it. URL conditions are the top document's.
func (s *Session) waitFrames(ctx context.Context, pg page, args pagejs.WaitForArgs, topMet bool) bool {
	if args.URLContains != "" || args.URL != "" || (args.State == "absent") != topMet {
		// present and met at the top, absent and present at the top, or a URL
		return topMet
	}
	args.WaitMS = 0 // one check in each frame: the caller pauses between checks
	for _, t := range pg.sel.watch.Frames() {
		var r pagejs.WaitForResult
		if _, err := s.execOn(ctx, pg, t, ReadRealm, pagejs.WaitFor, args, &r, nil); err != nil {
			continue // a frame between documents: not met there
		}
		if args.State == "absent" && !r.Met {
			return false
		}
		if args.State != "absent" && r.Met {
			return true
		}
	}
	return args.State == "absent"
}

// residentSlot is where the residents of one document are recorded (see
// callResident), with the last result of its snapshot resident (keep.go):
// the selection's own fields for the top document, a frameResidents for a
// frame's.
type residentSlot struct {
	console   *string
	residents *map[string]resident
	kept      *keptSnapshot
}

// frameResidents are the residents of one frame's current document.
type frameResidents struct {
	console   string
	residents map[string]resident
	kept      keptSnapshot
}

// maxFrameResidents bounds the frames whose residents a selection keeps.
const maxFrameResidents = 64

// residentSlotOf returns the resident slot of document t. Called with s.mu
// held.
func residentSlotOf(sel *selection, t rdp.Target) residentSlot {
	if !t.Frame {
		return residentSlot{&sel.residentConsole, &sel.residents, &sel.kept}
	}
	fr := sel.frameResidents[t.BrowsingContextID]
	if fr == nil {
		if sel.frameResidents == nil || len(sel.frameResidents) >= maxFrameResidents {
			sel.frameResidents = map[int64]*frameResidents{}
		}
		fr = &frameResidents{}
		sel.frameResidents[t.BrowsingContextID] = fr
	}
	return residentSlot{&fr.console, &fr.residents, &fr.kept}
}
