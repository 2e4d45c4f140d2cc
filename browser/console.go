package browser

// maxKeptTabs bounds the tabs whose console and network buffers are kept
// after another tab is selected; the least recently selected goes first.
const maxKeptTabs = 8

// keptWatches holds one extra handle on the watch of each tab selected on
// this connection, so its buffers (rdp.TabWatch.Console, Network) survive
// selecting another tab and coming back. Guarded by Session.mu.
type keptWatches struct {
	m     map[int64]*keptWatch
	clock uint64
	max   int // 0 = maxKeptTabs (tests set less)
}

type keptWatch struct {
	h    TabWatch
	used uint64
}

// keep makes sure sel's tab has a kept handle, and marks it used.
func (k *keptWatches) keep(sel *selection) {
	if sel == nil || sel.watch == nil {
		return
	}
	if k.m == nil {
		k.m = map[int64]*keptWatch{}
	}
	k.clock++
	id := sel.tab.BrowserID
	if kw := k.m[id]; kw != nil && kw.h.Err() == nil {
		kw.used = k.clock
		return
	} else if kw != nil {
		kw.h.Close()
		delete(k.m, id)
	}
	h, err := sel.watch.Clone()
	if err != nil {
		return
	}
	k.m[id] = &keptWatch{h: h, used: k.clock}
	for bid, kw := range k.m {
		if kw.h.Err() != nil { // tab closed
			kw.h.Close()
			delete(k.m, bid)
		}
	}
	max := k.max
	if max == 0 {
		max = maxKeptTabs
	}
	for len(k.m) > max {
		var oldest int64
		var at uint64 = ^uint64(0)
		for bid, kw := range k.m {
			if kw.used < at {
				oldest, at = bid, kw.used
			}
		}
		k.m[oldest].h.Close()
		delete(k.m, oldest)
	}
}

func (k *keptWatches) closeAll() {
	for _, kw := range k.m {
		kw.h.Close()
	}
	k.m = nil
}
