package browser

// acted is the structured result the element actions share. Trusted comes
// from the engine: execInfo.trusted, never the page script's own word.
type acted struct {
	Element   string `json:"element,omitempty"`
	Trusted   bool   `json:"trusted"`
	URL       *Page  `json:"url,omitempty"`
	Navigated *bool  `json:"navigated,omitempty"`
	observed
}

// checked is how an action's ref was checked (binding.go), and the origin
// of the frame it is in.
type checked struct {
	RefCheck    string `json:"ref_check,omitempty"`
	FrameOrigin *Page  `json:"frame_origin,omitempty"`
}

// opened is the dialog an action opened (click, press_key).
type opened struct {
	Dialog *dialogOut `json:"dialog,omitempty"`
}

// observed is what changed after an action or a wait (observe.go).
type observed struct {
	Changes map[string]any `json:"changes,omitempty"`
}

// dialogOut is a dialog an action opened.
type dialogOut struct {
	Type string `json:"type"`
	Text Page   `json:"text"`
}

// actedOn starts the result of an action on element: whether its input was
// trusted and where the page is now.
func actedOn(element string, trusted bool, urlNow string, navigated bool) acted {
	u := PageStr(urlNow)
	return acted{Element: element, Trusted: trusted, URL: &u, Navigated: &navigated}
}

// checkedRef says how the action's ref was checked and, in a frame, the
// frame's origin.
func checkedRef(l *Locator, info ExecInfo) checked {
	c := checked{RefCheck: refCheck(l, info)}
	if l.frame != 0 {
		o := PageStr(l.origin)
		c.FrameOrigin = &o
	}
	return c
}

// Trusted is whether an action's input was Trusted: the script ran in the
// isolated realm, where the page can neither see nor shape its result, and
// it reported Firefox's own input pipeline. A page-realm result never is,
// whatever the script (or a page that replaced JSON.stringify) says.
func (i ExecInfo) Trusted(reported bool) bool { return i.isolated && reported }
