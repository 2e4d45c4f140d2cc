package browser

import (
	"slices"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// Locator is the server-side half of a ref: the page sees only "e17".
type Locator struct {
	ref        string
	generation uint64
	browserID  int64
	sel        pagejs.Sel         // the snapshot's selector, one segment per shadow root
	fp         pagejs.Fingerprint // the fields the page re-checks before acting (seed §8.4)
	sum        [32]byte           // fp.Sum(): SHA-256 of the fields
	// Node binding (binding.go): node is the node's id in its document (0:
	// unbound, checked by selector and fingerprint only); window is that
	// document's inner window, frame its frame's browsing context (0: the
	// top document).
	node   int
	window int64
	frame  int64
	origin string // the frame's origin as the snapshot showed it (page-derived)
}

// nodeKey names one node: its document and its id there.
type nodeKey struct {
	window int64
	node   int
}

// maxRefs bounds the refs one generation may hold (repeated snapshots of a
// page that keeps creating elements).
const maxRefs = 100_000

// refTable holds the refs of the current generation. Ref numbers are never
// reused within a session, so a ref from an earlier page state can never
// name an element of the current one.
type refTable struct {
	byRef    map[string]*Locator
	byKey    map[string]string  // selector + fingerprint → ref, to reuse refs across snapshots
	byNode   map[nodeKey]string // bound refs by node, to reuse them across snapshots
	next     int                // next ref number; never goes back
	genStart int                // first ref number of the current generation
	// epoch changes with every change of what the table holds (a new ref, a
	// ref's locator replaced by a different one, a reset): a rendering of
	// refs made at one epoch is still true while it lasts (keep.go).
	epoch uint64
}

func (t *refTable) reset() {
	t.epoch++
	t.byRef = map[string]*Locator{}
	t.byKey = map[string]string{}
	t.byNode = map[nodeKey]string{}
	if t.next == 0 {
		t.next = 1
	}
	t.genStart = t.next
}

// issued reports whether the current generation has handed out any ref.
func (t *refTable) issued() bool { return t.next > t.genStart }

// add returns the ref for an element, reusing the one an earlier snapshot
// of the same generation gave the same element.
func (t *refTable) add(l *Locator) string {
	key := refKey(l.keyWindow(), l.sel, l.sum)
	if ref, ok := t.byKey[key]; ok {
		return ref
	}
	if len(t.byRef) >= maxRefs {
		t.reset() // old refs of this generation become stale, never wrong
	}
	l.ref = "e" + strconv.Itoa(t.next)
	t.next++
	t.epoch++
	t.byRef[l.ref] = l
	t.byKey[key] = l.ref
	return l.ref
}

// refKey identifies an element within a generation: its document (window:
// 0 for the top document, whose generation already names it), its selector
// and the SHA-256 of its fingerprint.
func refKey(window int64, sel pagejs.Sel, sum [32]byte) string {
	k := strings.Join(sel, "\x00") + "\x01" + string(sum[:])
	if window != 0 {
		k = strconv.FormatInt(window, 10) + "\x02" + k
	}
	return k
}

// keyWindow is the document part of l's refKey: its frame document's
// window, 0 for the top document.
func (l *Locator) keyWindow() int64 {
	if l.frame == 0 {
		return 0
	}
	return l.window
}

// lookup finds a ref of the current generation.
func (t *refTable) lookup(ref string) (*Locator, error) {
	if l := t.byRef[ref]; l != nil {
		return l, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(ref, "e"))
	if err != nil || !strings.HasPrefix(ref, "e") || n <= 0 {
		return nil, Errorf(errcode.InvalidArguments, "%q is not an element ref; refs look like e12 and come from snapshot_page", Truncate(ref, 20))
	}
	if n < t.genStart {
		return nil, Errorf(errcode.StaleElement, "%s is from an earlier state of the page (it navigated, or another tab was selected); take a new snapshot", ref)
	}
	return nil, Errorf(errcode.ElementNotFound, "%s was never issued; take a snapshot and use its refs", ref)
}

// addNode returns the ref for a node-bound element (l.node set): the ref an
// earlier snapshot of this generation gave the same node, whose locator is
// replaced (the node may have moved or changed), or a new one.
func (t *refTable) addNode(l *Locator) string {
	key := nodeKey{l.window, l.node}
	if ref, ok := t.byNode[key]; ok {
		l.ref = ref
		if old := t.byRef[ref]; old == nil || !sameLocator(old, l) {
			t.byRef[ref] = l
			t.epoch++
		}
		return ref
	}
	if len(t.byRef) >= maxRefs {
		t.reset()
	}
	l.ref = "e" + strconv.Itoa(t.next)
	t.next++
	t.epoch++
	t.byRef[l.ref] = l
	t.byNode[key] = l.ref
	return l.ref
}

// sameLocator reports whether two locators of one ref say the same.
func sameLocator(a, b *Locator) bool {
	return a.ref == b.ref && a.generation == b.generation && a.browserID == b.browserID && a.sum == b.sum && a.fp == b.fp &&
		a.node == b.node && a.window == b.window && a.frame == b.frame && a.origin == b.origin && slices.Equal(a.sel, b.sel)
}
