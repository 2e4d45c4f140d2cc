package rdp

import "sort"

// Frames lists the tab's live frame documents (iframes at any depth, same-
// or cross-origin: Fission puts the latter in other processes), as the
// watcher reported them. Each has its own console (the page realm of that
// document) and process; a frame that navigates is a new Target with the
// same BrowsingContextID and a new InnerWindowID.
func (h *TabWatch) Frames() []Target {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Target
	for _, f := range w.forms {
		if !f.IsTopLevelTarget && f.ConsoleActor != "" {
			out = append(out, f.target())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].BrowsingContextID < out[j].BrowsingContextID })
	return out
}

// Frame returns the current document of the frame whose browsing context is
// id; ok is false when the tab has no such frame (it was removed, or is
// between two documents).
func (h *TabWatch) Frame(id int64) (t Target, ok bool) {
	w := h.w
	w.mu.Lock()
	defer w.mu.Unlock()
	// Mid-navigation both documents may be listed: the newer one is current.
	for _, f := range w.forms {
		if !f.IsTopLevelTarget && f.BrowsingContextID == id && f.ConsoleActor != "" && (!ok || f.InnerWindowID > t.InnerWindowID) {
			t, ok = f.target(), true
		}
	}
	return t, ok
}
