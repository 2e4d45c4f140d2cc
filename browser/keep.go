package browser

import (
	"context"
	"maps"
	"slices"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// keptSnapshot is the last result a document's snapshot resident issued
// (pagejs.SnapshotResult.Seq), with the arguments it was walked with. The
// next walk with the same arguments names it (SnapshotArgs.Have), and the
// resident answers {same} instead of walking when nothing could have changed
// it (pagejs js/snapshotKeep.js), or with a patch of it (the rows that
// differ); the server then reuses the result. That answer is the page
// realm's word, like the walk it stands for.
type keptSnapshot struct {
	console string   // the document's console
	by      resident // the resident that issued it
	seq     int
	args    pagejs.SnapshotArgs
	res     pagejs.SnapshotResult
	info    *walkInfo      // made the first time it is needed
	lines   *renderedLines // the last rendering of res without frames
	// bound is the node binding of res, once a read of it was bound: a
	// {same} answer is given it without waiting for the binding's own
	// (heldBinding).
	bound *binding
	// prior is the rendering of the result res patched (nil: none), and
	// from each row's index there (-1: a fresh row): rendering res reuses
	// the lines of the rows it kept (priorLine).
	prior *renderedLines
	from  []int
}

// renderedLines is a rendering of a kept result (renderLocked): with the
// same generation, arguments and node binding, and a ref table that has not
// changed since (its epoch), rendering it again gives the same lines and
// leaves the table as it is.
type renderedLines struct {
	gen    uint64
	args   pagejs.SnapshotArgs // keepArgs
	window int64
	ids    []int
	epoch  uint64
	out    snapLines
	// locs, when each element got one line (none is a frame), holds each
	// element's locator as the ref table kept it.
	locs []*Locator
	// near is the near text of each element of that result (walkInfo.near):
	// a line reused must have the near text the element has now.
	near []string
}

// renderedLocked returns the lines of an earlier rendering of d, the top
// document's read, when they still stand. Called with s.mu held.
func (s *Session) renderedLocked(sel *selection, gen uint64, d *docSnap, args pagejs.SnapshotArgs) (snapLines, bool) {
	k := &sel.kept
	c := k.lines
	if c == nil || d.t.Frame || !keptRes(k, &d.r) || c.gen != gen || c.args != keepArgs(args) || c.window != d.t.InnerWindowID ||
		c.epoch != s.refs.epoch || (c.ids == nil) != (d.b.ids == nil) || !slices.Equal(c.ids, d.b.ids) {
		return snapLines{}, false
	}
	return c.out, true
}

// keepRenderedLocked records the rendering out of d, the top document's
// read, when d's result is the kept one. Called with s.mu held.
func (s *Session) keepRenderedLocked(sel *selection, gen uint64, d *docSnap, args pagejs.SnapshotArgs, out snapLines, locs []*Locator) {
	if k := &sel.kept; !d.t.Frame && keptRes(k, &d.r) {
		near := s.docInfoLocked(sel, d).near
		k.lines = &renderedLines{gen: gen, args: keepArgs(args), window: d.t.InnerWindowID, ids: d.b.ids, epoch: s.refs.epoch, out: out, locs: locs, near: near}
		k.prior, k.from = nil, nil // rendered: the prior rendering is of no more use
	}
}

// patchFrom maps each row of a patched result (runs: SnapshotResult.Runs)
// to its row in the result it patched, -1 for a fresh row.
func patchFrom(runs []int, n int) []int {
	from := make([]int, 0, n)
	for k := 0; k+2 < len(runs); k += 3 {
		for j := range runs[k+1] {
			from = append(from, runs[k]+j)
		}
		for range runs[k+2] {
			from = append(from, -1)
		}
	}
	if len(from) != n {
		return nil
	}
	return from
}

// priorOf is the rendering a patch (runs) of k's result can take lines
// from, and each of the patch's n rows' index there: k's own rendering, or
// (k itself a patch not rendered since) the one k could take them from.
func priorOf(k *keptSnapshot, runs []int, n int) (*renderedLines, []int) {
	from := patchFrom(runs, n)
	switch {
	case from == nil:
		return nil, nil
	case k.lines != nil:
		if k.lines.locs == nil {
			return nil, nil
		}
		return k.lines, from
	case k.prior != nil && k.from != nil:
		for i, j := range from {
			if j >= 0 && j < len(k.from) {
				from[i] = k.from[j]
			} else {
				from[i] = -1
			}
		}
		return k.prior, from
	}
	return nil, nil
}

// priorLine returns the line of row i of d, the top document's read, as
// the rendering of the result d's patched rendered it, when that still
// stands: the row was kept from that result, bound to the same node, and
// the ref table holds that line's locator as it was (a patch keeps a row's
// selector, fingerprint and body). Called with s.mu held.
func (s *Session) priorLine(k *keptSnapshot, gen uint64, d *docSnap, args pagejs.SnapshotArgs, i int, near string) (string, *Locator, bool) {
	p := k.prior
	if p == nil || k.from == nil || !keptRes(k, &d.r) || p.gen != gen || p.args != keepArgs(args) || p.window != d.t.InnerWindowID ||
		p.ids == nil || d.b.ids == nil || i >= len(k.from) {
		return "", nil, false
	}
	j := k.from[i]
	if j < 0 || j >= len(p.locs) || p.ids[j] != d.b.ids[i] || (p.near == nil && near != "") || (p.near != nil && p.near[j] != near) {
		return "", nil, false
	}
	l := p.locs[j]
	if l == nil || s.refs.byRef[l.ref] != l {
		return "", nil, false
	}
	return p.out.lines[j], l, true
}

// keptRes reports whether r is k's result (not a copy walked again).
func keptRes(k *keptSnapshot, r *pagejs.SnapshotResult) bool {
	return len(r.Elements) > 0 && len(k.res.Elements) == len(r.Elements) && &k.res.Elements[0] == &r.Elements[0]
}

// execSnapshot runs the snapshot script in realm kind in pg's document,
// naming that document's kept result when it was walked with the same
// arguments by the resident now in place, and keeps what a resident returns.
// same reports a {same} answer (r is then the kept result).
func (s *Session) execSnapshot(ctx context.Context, pg page, kind Realm, args pagejs.SnapshotArgs, r *pagejs.SnapshotResult) (same bool, err error) {
	name := pagejs.Snapshot.Name()
	if !args.IncludeAllText {
		// A walk without the page's text does not depend on its limit: one
		// kept result then serves snapshot_page and the deltas alike.
		args.MaxTextChars = 0
	}
	t, err := s.docTarget(ctx, pg)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	sl := residentSlotOf(pg.sel, t) // the document's own: frames have residents too
	k := *sl.kept
	if k.seq > 0 && k.console == *sl.console && k.by == (*sl.residents)[name] && k.args == keepArgs(args) {
		args.Have = k.seq
	}
	s.mu.Unlock()
	for {
		if _, err := s.execOn(ctx, pg, t, kind, pagejs.Snapshot, args, r, nil); err != nil {
			return false, err
		}
		s.mu.Lock()
		console, by := *sl.console, (*sl.residents)[name]
		held := args.Have != 0 && k.console == console && k.by == by
		var info *walkInfo // of a patched result, from the kept one's
		var prior *renderedLines
		var from []int
		if same := r.Same != 0; same || r.Base != 0 {
			var err error
			switch {
			case !held || (same && r.Same != args.Have) || (!same && r.Base != args.Have):
				err = pagejs.ErrPatch
			case same:
				*r = k.res // the kept result stays, with what was derived from it (info)
			default:
				runs := r.Runs
				if err = r.ApplyPatch(&k.res); err == nil && k.info != nil {
					info = patchedInfo(k.info, runs, r)
					prior, from = priorOf(&k, runs, len(r.Elements))
				}
			}
			if err != nil {
				// Not the result held (another resident answered): walk.
				s.mu.Unlock()
				s.log.Debug("snapshot resident named a result not held; walking", "same", r.Same, "base", r.Base, "have", args.Have)
				args.Have, k = 0, keptSnapshot{}
				*r = pagejs.SnapshotResult{}
				continue
			}
			if same {
				s.sameAnswers++
				s.mu.Unlock()
				return true, nil
			}
		}
		if r.Seq > 0 {
			*sl.kept = keptSnapshot{console: console, by: by, seq: r.Seq, args: keepArgs(args), res: *r, info: info, prior: prior, from: from}
		}
		s.mu.Unlock()
		return false, nil
	}
}

// heldBinding returns the node binding of the kept result of document t
// when r, a {same} answer (same), is that result and a read of it was
// bound: the binding the snapshot sent along would give the same ids (a
// node keeps its id, and these are the very nodes), so it is not waited
// for; confirmBinding checks it afterwards.
func (s *Session) heldBinding(sel *selection, t rdp.Target, r *pagejs.SnapshotResult, same bool) (*binding, bool) {
	if !same {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := residentSlotOf(sel, t).kept
	if k.bound == nil || !keptRes(k, r) {
		return nil, false
	}
	return k.bound, true
}

// keepBinding records b as the binding of document t's kept result when r,
// just bound, is that result.
func (s *Session) keepBinding(sel *selection, t rdp.Target, r *pagejs.SnapshotResult, b binding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := residentSlotOf(sel, t).kept; keptRes(k, r) {
		k.bound = nil
		if b.ids != nil {
			k.bound = &b
		}
	}
}

// confirmBinding waits, in the background, for the binding a {same} answer
// was not given (wait), and forgets the held one when they differ (the
// isolated realm lost its ids, say): the next read then waits for its
// binding, and renders again.
func (s *Session) confirmBinding(sel *selection, t rdp.Target, held *binding, wait func(int) binding, count int) {
	b := wait(count)
	if slices.Equal(b.ids, held.ids) && maps.Equal(b.frames, held.frames) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := residentSlotOf(sel, t).kept; k.bound == held {
		k.bound, k.lines = nil, nil
	}
	s.log.Info("a repeat snapshot's node binding differed from the one it reused; the next read binds again")
}

// keepArgs are the arguments that shape a walk's result, which a kept result
// must have been walked with: all but Have (what the caller holds) and Pin
// (the hand-off key of the node binding, fresh for every walk; the resident
// leaves it out of its key too).
func keepArgs(a pagejs.SnapshotArgs) pagejs.SnapshotArgs {
	a.Have, a.Pin = 0, ""
	return a
}

// patchedInfo is the walk info of r, a patch (runs: SnapshotResult.Runs) of
// the result old describes, now applied: the rows taken from that result
// keep what was derived from them, only the fresh rows are worked out.
func patchedInfo(old *walkInfo, runs []int, r *pagejs.SnapshotResult) *walkInfo {
	n := len(r.Elements)
	w := &walkInfo{sums: make([][32]byte, n), keys: make([]string, n), bodies: make([]string, n), index: make(map[string]int, n), near: r.NearRows()}
	i := 0
	for k := 0; k+2 < len(runs); k += 3 {
		start, count, fresh := runs[k], runs[k+1], runs[k+2]
		copy(w.sums[i:], old.sums[start:start+count])
		copy(w.keys[i:], old.keys[start:start+count])
		copy(w.bodies[i:], old.bodies[start:start+count])
		i += count
		for range fresh {
			w.sums[i] = r.Elements[i].FP.Sum()
			w.keys[i] = refKey(0, r.Elements[i].Sel, w.sums[i])
			i++
		}
	}
	for i, k := range w.keys {
		w.index[k] = i
	}
	return w
}
