package browser

import (
	"context"

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
	console, actor string // the resident that issued it
	seq            int
	args           pagejs.SnapshotArgs
	res            pagejs.SnapshotResult
	info           *walkInfo // made the first time it is needed
}

// execSnapshot runs the snapshot script in realm kind, naming the kept
// result when it was walked with the same arguments by the resident now in
// place, and keeps what a resident returns.
func (s *Session) execSnapshot(ctx context.Context, pg page, kind realmKind, args pagejs.SnapshotArgs, r *pagejs.SnapshotResult) error {
	name := pagejs.Snapshot.Name()
	s.mu.Lock()
	k := pg.sel.kept
	if k.seq > 0 && k.console == pg.sel.residentConsole && k.actor == pg.sel.residents[name] && k.args == keepArgs(args) {
		args.Have = k.seq
	}
	s.mu.Unlock()
	for {
		if _, err := s.exec(ctx, pg, kind, pagejs.Snapshot, args, r); err != nil {
			return err
		}
		s.mu.Lock()
		console, actor := pg.sel.residentConsole, pg.sel.residents[name]
		held := args.Have != 0 && k.console == console && k.actor == actor
		if r.Same != 0 || r.Base != 0 {
			var err error
			switch {
			case !held || (r.Same != 0 && r.Same != args.Have) || (r.Base != 0 && r.Base != args.Have):
				err = pagejs.ErrPatch
			case r.Same != 0:
				*r = k.res
			default:
				err = r.ApplyPatch(&k.res)
			}
			if err != nil {
				// Not the result held (another resident answered): walk.
				s.mu.Unlock()
				s.log.Debug("snapshot resident named a result not held; walking", "same", r.Same, "base", r.Base, "have", args.Have)
				args.Have, k = 0, keptSnapshot{}
				*r = pagejs.SnapshotResult{}
				continue
			}
			if r.Same != 0 {
				s.mu.Unlock()
				return nil
			}
		}
		if r.Seq > 0 {
			pg.sel.kept = keptSnapshot{console: console, actor: actor, seq: r.Seq, args: keepArgs(args), res: *r}
		}
		s.mu.Unlock()
		return nil
	}
}

// keepArgs are the arguments that shape a walk's result, which a kept result
// must have been walked with: all but Have (what the caller holds) and Pin
// (the hand-off key of the node binding, fresh for every walk; the resident
// leaves it out of its key too).
func keepArgs(a pagejs.SnapshotArgs) pagejs.SnapshotArgs {
	a.Have, a.Pin = 0, ""
	return a
}
