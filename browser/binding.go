package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// Refs bound to nodes. A snapshot's walk runs in the page realm (fast); when
// the isolated realm is available it hands the elements it listed to that
// realm (pagejs.BindRefs), which numbers them by node in a WeakMap the page
// cannot see. A ref's number is then its node's: a later snapshot that lists
// the same node gives it the same ref, a node that replaced it (even an
// identical one) gets a new ref, and an action on a ref checks, in the same
// evaluation that acts, that the selector still finds that very node
// (stale_element otherwise). Without the isolated realm, refs are checked by
// selector and fingerprint only, and action results say so.

// bindingPlan says whether the coming snapshot's refs can be bound, and with
// which hand-off key.
func (s *Session) bindingPlan(ctx context.Context, pg page) string {
	if s.opts.PageRealmOnly || s.opts.NoNodeBinding {
		return ""
	}
	t, err := pg.sel.watch.Current(ctx)
	if err != nil || !s.realmFor(ctx, pg, t).ok {
		return ""
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// bindWait bounds how long BindRefs waits in Firefox for the snapshot's
// hand-off (it is sent together with the snapshot, and may run first).
const bindWait = 10 * time.Second

// startBinding sends BindRefs for the snapshot that is about to be taken with
// key and at most max elements, so that it runs as soon as the walk is done
// (while the snapshot's result is still on its way). The returned wait takes
// the number of elements the snapshot returned (-1: it failed) and gives the
// ref number of each, or nil when they could not be bound (the refs are then
// unbound).
func (s *Session) startBinding(ctx context.Context, pg page, key string, max int) (wait func(count int) []int) {
	s.mu.Lock()
	if len(s.refs.byRef)+max > maxRefs {
		s.refs.reset() // as refTable.add would: old refs become stale, never wrong
	}
	args := pagejs.BindRefsArgs{Key: key, Next: s.refs.next, Min: s.refs.genStart, Max: max, WaitMS: int(bindWait.Milliseconds())}
	s.mu.Unlock()
	bctx, cancel := context.WithCancel(ctx)
	type reply struct {
		r   pagejs.BindRefsResult
		err error
	}
	done := make(chan reply, 1)
	go func() {
		var r pagejs.BindRefsResult
		info, err := s.exec(bctx, pg, actionRealm, pagejs.BindRefs, args, &r)
		if err == nil && !info.isolated {
			err = errors.New("not run in the isolated realm")
		}
		done <- reply{r, err}
	}()
	return func(count int) []int {
		defer cancel()
		if count < 0 {
			return nil
		}
		rep := <-done
		if rep.err != nil {
			s.log.Info("snapshot refs not bound to nodes", "error", rep.err)
			return nil
		}
		nums, ok := rep.r.Numbers(args, count)
		if !ok {
			s.log.Info("snapshot refs not bound to nodes: the hand-off was missing or did not match the snapshot")
		}
		return nums
	}
}

// refCheck names how an action checked its ref, for results.
func refCheck(l *locator, info execInfo) string {
	if l != nil && l.bound && info.isolated {
		return "node"
	}
	return "selector+fingerprint"
}

// refNote is the sentence an action result adds when its ref was not
// checked against the node itself.
func refNote(l *locator, info execInfo) string {
	if l == nil || refCheck(l, info) == "node" {
		return ""
	}
	return " The ref was checked by selector and fingerprint only (no node binding here), so an identical element that replaced the original would pass."
}

// boundRef is the number an action passes to bind its ref to the node (0:
// none).
func boundRef(l *locator) int {
	if l.bound {
		return l.num
	}
	return 0
}
