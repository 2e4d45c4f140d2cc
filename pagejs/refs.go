package pagejs

// Node binding of refs (see js/bindRefs.js): the snapshot walk hands the elements it
// listed to the isolated realm, which gives each node an id for as long as it lives,
// so that an action on a ref reaches the node the snapshot saw or fails with
// stale_element, never an identical node that replaced it.

// BindRefs gives ids to the nodes a snapshot listed (isolated realm only); args
// BindRefsArgs, result BindRefsResult.
var BindRefs = Script{name: "bindRefs", src: mustRead("bindRefs"), realms: realmIsolated, noLib: true}

// BindRefsArgs are BindRefs' arguments: Key is the hand-off key the snapshot was given
// (SnapshotArgs.Pin, 32 hex digits); Max caps the elements taken (the snapshot's
// MaxElements); WaitMS is how long to wait for the hand-off: BindRefs is sent together
// with the snapshot and may arrive first.
type BindRefsArgs struct {
	Key    string `json:"key"`
	Max    int    `json:"max"`
	WaitMS int    `json:"waitMS"`
}

// BindRefsResult is BindRefs' value. Bound is false when no hand-off came in time or it
// was unusable: the refs are then unbound. Count is the number of elements handed
// over; Runs gives their node ids as [index, id, length] (elements
// index…index+length-1 have ids id…id+length-1). An id names one node of that
// document for as long as the node lives (the actions' Ref, e.g. ClickArgs.Ref). Frames lists the elements
// that are frames, as [index, browsingContextID].
type BindRefsResult struct {
	Bound  bool       `json:"bound"`
	Count  int        `json:"count"`
	Runs   [][3]int   `json:"runs"`
	Frames [][2]int64 `json:"frames"`
}

// IDs expands r into one node id per element of a snapshot of count elements; ok is
// false when r does not add up (it then numbered another list, or was tampered with).
func (r BindRefsResult) IDs(count int) (ids []int, ok bool) {
	if !r.Bound || r.Count != count {
		return nil, false
	}
	ids = make([]int, count)
	i := 0
	for _, run := range r.Runs {
		at, id, n := run[0], run[1], run[2]
		if at != i || n <= 0 || id <= 0 || n > count-i {
			return nil, false
		}
		for k := range n {
			ids[i+k] = id + k
		}
		i += n
	}
	if i != count {
		return nil, false
	}
	return ids, true
}

// FrameIDs maps element indexes to the browsing-context ids of the frames they are,
// dropping entries outside a snapshot of count elements.
func (r BindRefsResult) FrameIDs(count int) map[int]int64 {
	m := map[int]int64{}
	for _, f := range r.Frames {
		if f[0] >= 0 && f[0] < int64(count) && f[1] > 0 {
			m[int(f[0])] = f[1]
		}
	}
	return m
}

// ListenerMarks keeps, on the page's window, the elements of the document whose own
// listeners make them targets (js/listenerMarks.js; isolated realm only): the first call
// in a document looks at every element, then a listener-change listener keeps the marks
// as the page changes its listeners. [Snapshot]'s walk reads them (clickable, drag and
// drop targets). Args: ListenerMarksArgs; result ListenerMarksResult.
var ListenerMarks = Script{name: "listenerMarks", src: mustRead("listenerMarks"), realms: realmIsolated, read: true}

// ListenerMarksArgs are ListenerMarks' arguments (none).
type ListenerMarksArgs struct{}

// ListenerMarksResult is ListenerMarks' value: the marks' number (it grows with every
// change), the elements marked, and the elements this call looked at (0 once the
// document's marks were made).
type ListenerMarksResult struct {
	Seq     int `json:"seq"`
	Count   int `json:"count"`
	Scanned int `json:"scanned"`
}
