package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Refs bound to nodes. A snapshot's walk runs in the page realm (fast); when
// the isolated realm is available it hands the elements it listed to that
// realm (pagejs.BindRefs), which gives each node an id, kept in a WeakMap
// the page cannot see, for as long as the node lives. A ref names a node by
// its document and id: a later snapshot that lists the same node gives it
// the same ref, a node that replaced it (even an identical one) gets a new
// ref, and an action on a ref checks, in the same evaluation that acts, that
// the selector still finds that very node (stale_element otherwise).
// Without the isolated realm, refs are checked by selector and fingerprint
// only, and action results say so.

// bindWait bounds how long BindRefs waits in Firefox for the snapshot's
// hand-off (it is sent together with the snapshot, and may run first).
const bindWait = 10 * time.Second

// bindingPlan says whether a snapshot of document t can have its refs bound,
// and with which hand-off key ("" = no).
func (s *Session) bindingPlan(ctx context.Context, pg page, t rdp.Target) string {
	if s.opts.PageRealmOnly || s.opts.NoNodeBinding || !s.realmFor(ctx, pg, t).ok {
		return ""
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// binding is what BindRefs told about one snapshot: a node id per element,
// and which elements are frames (their browsing contexts).
type binding struct {
	ids    []int
	frames map[int]int64
}

// startBinding sends BindRefs to document t for the snapshot that is about
// to be taken there with key and at most max elements, so that it runs as
// soon as the walk is done (while the snapshot's result is still on its
// way). The returned wait takes the number of elements the snapshot returned
// (-1: it failed) and gives their binding, or a zero binding when they could
// not be bound (the refs are then unbound).
func (s *Session) startBinding(ctx context.Context, pg page, t rdp.Target, key string, max int) (wait func(count int) binding) {
	args := pagejs.BindRefsArgs{Key: key, Max: max, WaitMS: int(bindWait.Milliseconds())}
	// Not the call's: a binding not waited for (heldBinding) outlives it.
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bindWait+5*time.Second)
	type reply struct {
		r   pagejs.BindRefsResult
		err error
	}
	done := make(chan reply, 1)
	go func() {
		var r pagejs.BindRefsResult
		info, err := s.execOn(bctx, pg, t, ActionRealm, pagejs.BindRefs, args, &r, nil)
		if err == nil && !info.isolated {
			err = errors.New("not run in the isolated realm")
		}
		done <- reply{r, err}
	}()
	return func(count int) binding {
		defer cancel()
		if count < 0 {
			return binding{}
		}
		rep := <-done
		if rep.err != nil {
			s.log.Info("snapshot refs not bound to nodes", "error", rep.err)
			return binding{}
		}
		ids, ok := rep.r.IDs(count)
		if !ok {
			s.log.Info("snapshot refs not bound to nodes: the hand-off was missing or did not match the snapshot")
			return binding{}
		}
		return binding{ids: ids, frames: rep.r.FrameIDs(count)}
	}
}

// refCheck names how an action checked its ref, for results.
func refCheck(l *Locator, info ExecInfo) string {
	if l != nil && l.node != 0 && info.isolated {
		return "node"
	}
	return "selector+fingerprint"
}

// boundRef is the node id an action passes to check its ref against the
// node itself (0: none).
func boundRef(l *Locator) int { return l.node }
