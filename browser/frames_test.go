package browser_test

import (
	"bytes"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// otherSite serves testdata from another site: another port, reached as
// localhost (the fixture pages are on 127.0.0.1: a different site, which
// Fission puts in another content process).
func otherSite(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return "http://localhost:" + u.Port()
}

// openPortal selects the first tab and loads the job portal fixture in it,
// with its application form served from another site, whose origin it
// returns.
func openPortal(t testing.TB, s *session) string {
	t.Helper()
	other := otherSite(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/portal.html?other=" + url.QueryEscape(other), "wait": "complete"})
	return other
}

var frameLine = regexp.MustCompile(`(?m)^--- frame .*origin="([^"]*)".* ---$`)

// The typical case: a job portal embedding its application form from
// another site, with a nested consent frame from the portal's own origin,
// a same-origin frame, and hidden and zero-sized frames.
func TestCrossOriginFrames(t *testing.T) {
	files := &memFiles{files: map[string][]byte{"/u/cv.pdf": []byte("%PDF-1.4 cv")}, handles: map[uint32][]byte{}}
	s := newSession(t, func(o *browser.Options) { o.Files = files })
	other := openPortal(t, s)
	waitText(t, s, "apply ready")   // wait_for sees text inside a cross-origin frame
	waitText(t, s, "consent ready") // and in a frame nested in it
	snap := snapshot(t, s)
	t.Log(snap)

	origins := frameLine.FindAllStringSubmatch(snap, -1)
	if len(origins) != 4 || origins[0][1] != other || origins[1][1] != pages.URL || origins[2][1] != pages.URL || origins[3][1] != pages.URL {
		t.Fatalf("frame lines %v, want the form's (%s), the nested consent's, the same-origin one's and the srcdoc one's (%s)", origins, other, pages.URL)
	}
	if !strings.Contains(snap, `origin="`+pages.URL+`" ("about:srcdoc", inherited) ---`) {
		t.Errorf("the srcdoc frame's line does not say its origin is inherited")
	}
	ref(t, snap, "button", "Inline help button")
	if strings.Contains(snap, "Hidden frame button") {
		t.Errorf("a hidden or zero-sized frame was listed")
	}
	form := snap[strings.Index(snap, `--- frame "Application form"`):]
	form = form[:strings.Index(form, "--- end of frame ---\n--- end of frame ---")]
	for _, want := range []string{`textbox "Full name"`, `textbox "Email"`, `file "Upload CV" accept=".pdf"`, `button "Submit application"`, `--- frame "Consent"`, `button "Accept cookies"`} {
		if !strings.Contains(form, want) {
			t.Errorf("the form's frame lacks %s", want)
		}
	}
	w := s.Watch()
	top, _ := w.Current(t.Context())
	for _, f := range w.Frames() {
		t.Logf("frame %s in process %d (top document: %d)", f.URL, f.ProcessID, top.ProcessID)
		if strings.HasPrefix(f.URL, other) && f.ProcessID == top.ProcessID {
			t.Logf("note: the cross-site frame shares the top document's process (Fission off?)")
		}
	}

	// Paging and the query run over all the documents together; a frame's
	// line comes with its first element on the page (the first two are the page's
	// heading and its search field).
	page := must(t, s, "snapshot_page", map[string]any{"offset": 2, "max_elements": 2}).Text
	if !strings.Contains(page, "--- frame \"Application form\"") || ref(t, page, "textbox", "Full name") != ref(t, snap, "textbox", "Full name") ||
		strings.Contains(page, "Search jobs") || strings.Contains(page, "Submit application") || !strings.Contains(page, `"offset":4`) {
		t.Errorf("second page of two elements:\n%s", page)
	}
	q := must(t, s, "snapshot_page", map[string]any{"query": "cookies"}).Text
	if strings.Count(q, "--- frame ") != 2 || strings.Count(q, "--- end of frame ---") != 2 || ref(t, q, "button", "Accept cookies") == "" || strings.Contains(q, "Full name") {
		t.Errorf("query across frames:\n%s", q)
	}

	name, email := ref(t, snap, "textbox", "Full name"), ref(t, snap, "textbox", "Email")
	res := must(t, s, "fill", map[string]any{"element": name, "value": "Ada"})
	if st := res.Structured.(map[string]any); st["trusted"] != true || st["ref_check"] != "node" || !strings.Contains(res.Text, `Frame origin: "`+other+`"`) {
		t.Errorf("fill in the frame: %v %s", st, res.Text)
	}
	// Its answer shows the change in the frame, under the frame's line.
	if !strings.Contains(res.Text, "--- frame \"Application form\" origin=\""+other+"\" ---\nchanged:\n["+name+`] textbox "Full name" value="Ada"`) {
		t.Errorf("fill in the frame: its delta lacks the field's change in the frame:\n%s", res.Text)
	}
	waitText(t, s, "name=Ada")
	must(t, s, "press_key", map[string]any{"key": "Tab", "element": name})
	waitText(t, s, "focus email")
	must(t, s, "type_text", map[string]any{"element": email, "text": "ada@example.com"})
	waitText(t, s, "email=ada@example.com")
	// An action in a frame reports what changed on the page (the top
	// document's view) without waiting out a binding meant for the frame.
	start := time.Now()
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Verify email"), "wait_after_ms": 0})
	if took := time.Since(start); took > 5*time.Second || res.Structured.(map[string]any)["changes"] == nil {
		t.Errorf("click in a frame with its delta: %v, changes %v", took, res.Structured.(map[string]any)["changes"])
	}
	waitText(t, s, "verify clicked trusted=true")
	res = must(t, s, "upload_files", map[string]any{"element": ref(t, snap, "file", "Upload CV"), "paths": []string{"/u/cv.pdf"}})
	if st := res.Structured.(map[string]any); st["trusted"] != true {
		t.Errorf("upload in the frame: %v", st)
	}
	waitText(t, s, "cv cv.pdf 11 trusted=true")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Accept cookies"), "wait_after_ms": 0})
	waitText(t, s, "consent clicked trusted=true")

	// The form's frame navigates: only its refs go stale.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Next step"), "wait_after_ms": 0, "observe": false})
	res = must(t, s, "wait_for", map[string]any{"text": "step 2 ready", "timeout_ms": 5000, "poll_ms": 50})
	// The answer lists the frame's new document: its field appeared with a
	// new ref, the form's elements are gone with theirs, and so are those of
	// the consent frame the form held.
	step2 := regexp.MustCompile(`appeared:\n\[(e\d+)\] textbox "Full name"\n`).FindStringSubmatch(res.Text)
	if !strings.Contains(res.Text, "1 frame shows a new document: the earlier refs into it are stale.") || step2 == nil || step2[1] == name ||
		!strings.Contains(res.Text, "gone:\n- ["+name+`] textbox "Full name" value="Ada"`) ||
		!strings.Contains(res.Text, "1 frame is no longer shown: its elements are gone.") ||
		!strings.Contains(res.Text, "--- frame \"Consent\" origin=\""+pages.URL+"\" ---\ngone:\n- ["+ref(t, snap, "button", "Accept cookies")+`] button "Accept cookies"`) {
		t.Errorf("the form's frame navigated: want its new document in the answer:\n%s", res.Text)
	}
	_, e := call(t, s, "fill", map[string]any{"element": name, "value": "Bob"})
	wantCode(t, e, errcode.StaleElement)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Save search"), "wait_after_ms": 0})
	waitText(t, s, "save clicked trusted=true")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Top button"), "wait_after_ms": 0})
	waitText(t, s, "top clicked trusted=true")
	if _, e := call(t, s, "wait_for", map[string]any{"text": "SUBMITTED", "state": "absent", "timeout_ms": 1000}); e != nil {
		t.Errorf("the application was submitted: %v", e)
	}
	snap = snapshot(t, s)
	if n := ref(t, snap, "textbox", "Full name"); n == name {
		t.Errorf("the navigated frame's new field got the old ref %s", n)
	}
}

// Without the isolated realm frames cannot be matched to their documents:
// the snapshot says that they were left out.
func TestFramesNeedTheIsolatedRealm(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	openPortal(t, s)
	snap := snapshot(t, s)
	if !strings.Contains(snap, "[frames not shown: frames are read only with refs bound to nodes") || strings.Contains(snap, "Full name") {
		t.Errorf("page-realm snapshot of a page with frames:\n%s", snap)
	}
	ref(t, snap, "button", "Top button")
}

// TestFramesRepeatSnapshot: repeat snapshots of a page with frames, unchanged
// and after a change in a frame, are what a first read gives: each
// document's kept result is its own (the residents of the top document and
// of the frames number their results alike).
func TestFramesRepeatSnapshot(t *testing.T) {
	s := newSession(t)
	openPortal(t, s)
	waitText(t, s, "apply ready")
	waitText(t, s, "consent ready")
	first := snapshot(t, s)
	for i := 0; i < 4; i++ {
		if again := snapshot(t, s); !sameLines(first, again) {
			t.Fatalf("repeat %d differs:\n%s\nwant\n%s", i, again, first)
		}
	}
	must(t, s, "fill", map[string]any{"element": ref(t, first, "textbox", "Full name"), "value": "Ada", "observe": false})
	waitText(t, s, "name=Ada")
	changed := snapshot(t, s)
	if !strings.Contains(changed, `textbox "Full name" value="Ada"`) {
		t.Fatalf("after a fill in the frame:\n%s", changed)
	}
	for i := 0; i < 3; i++ {
		if again := snapshot(t, s); !sameLines(changed, again) {
			t.Fatalf("repeat %d after the fill differs:\n%s\nwant\n%s", i, again, changed)
		}
	}
}

// TestFrameElementScrollAndScreenshot: scroll and screenshot act on an
// element inside a cross-origin frame in that frame's document (they once
// looked for it in the top one and answered stale_element and
// element_not_found), and the image is the element.
func TestFrameElementScrollAndScreenshot(t *testing.T) {
	s := newSession(t)
	openPortal(t, s)
	waitText(t, s, "apply ready")
	submit := ref(t, snapshot(t, s), "button", "Submit application")
	res := must(t, s, "scroll", map[string]any{"element": submit})
	if st := res.Structured.(map[string]any); st["in_view"] != true {
		t.Errorf("scroll into view of a frame element: %s", res.Text)
	}
	res = must(t, s, "screenshot", map[string]any{"element": submit})
	st := res.Structured.(map[string]any)
	w, h := st["width"].(int), st["height"].(int)
	if st["captured"] != "element "+submit || w < 60 || w > 400 || h < 12 || h > 60 || len(res.Images) != 1 {
		t.Fatalf("screenshot of a frame element: %s (%+v)", res.Text, st)
	}
	img, err := png.Decode(bytes.NewReader(res.Images[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	// A button with its label: many shades, not a blank or uniform area.
	shades := map[color.Color]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			shades[img.At(x, y)] = true
		}
	}
	if len(shades) < 8 {
		t.Errorf("the frame element's image has %d shades: not the button", len(shades))
	}
}

// TestPressKeyFollowsFocusIntoFrames: press_key without a ref reaches the
// focused element when it is inside a cross-origin frame (a key once went
// to the top document, whose focus is the frame element: the text was lost
// and Tab left the frame), and the delta shows the field changed in its
// frame, under the frame's line, with the snapshot's ref.
func TestPressKeyFollowsFocusIntoFrames(t *testing.T) {
	s := newSession(t)
	openPortal(t, s)
	waitText(t, s, "apply ready")
	waitText(t, s, "consent ready") // (every frame read: none left uncompared)
	name := ref(t, snapshot(t, s), "textbox", "Full name")
	must(t, s, "click", map[string]any{"element": name})
	res := must(t, s, "press_key", map[string]any{"key": "a"})
	if !strings.Contains(res.Text, `Focus: "textbox \"Full name\""`) ||
		!strings.Contains(res.Text, "--- frame \"Application form\" origin=\"http://localhost:") ||
		!strings.Contains(res.Text, "changed:\n["+name+`] textbox "Full name" value="a"`+"\n--- end of frame ---") ||
		strings.Contains(res.Text, "not compared") {
		t.Errorf("press a:\n%s", res.Text)
	}
	if res = must(t, s, "press_key", map[string]any{"key": "Tab"}); !strings.Contains(res.Text, `Focus: "textbox \"Email\""`) {
		t.Errorf("press Tab:\n%s", res.Text)
	}
	if snap := snapshot(t, s); !strings.Contains(snap, `textbox "Full name" value="a"`) {
		t.Errorf("the key did not reach the frame's field:\n%s", snap)
	}
}

// TestFrameBehindModal: while the page shows a modal dialog, an element in a
// frame behind it is refused as a user's click would be (the frame element
// is inert in the page): click, fill, upload; once the dialog closes, it is
// clicked.
func TestFrameBehindModal(t *testing.T) {
	files := &memFiles{files: map[string][]byte{"/u/cv.pdf": []byte("%PDF-1.4 cv")}, handles: map[uint32][]byte{}}
	s := newSession(t, func(o *browser.Options) { o.Files = files })
	other := otherSite(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/frame-modal.html?other=" + url.QueryEscape(other), "wait": "complete"})
	waitText(t, s, "apply ready")
	snap := snapshot(t, s)
	verify, name := ref(t, snap, "button", "Verify email"), ref(t, snap, "textbox", "Full name")
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Open notice")})
	// The answer counts the frame's elements as inert with the page's.
	if c := changes(t, res); c["inert"] == nil || c["inert"].(int) < 5 {
		t.Errorf("the dialog opened: inert %v, want the button and the frame's elements:\n%s", c["inert"], res.Text)
	}
	_, e := call(t, s, "click", map[string]any{"element": verify})
	wantCode(t, e, errcode.ElementNotInteractable)
	if e != nil && !strings.Contains(e.Message, "in a frame that is inert") {
		t.Errorf("click in the frame behind the dialog: %s", e.Message)
	}
	_, e = call(t, s, "fill", map[string]any{"element": name, "value": "Ada"})
	wantCode(t, e, errcode.ElementNotInteractable)
	_, e = call(t, s, "upload_files", map[string]any{"element": ref(t, snap, "file", "Upload CV"), "paths": []string{"/u/cv.pdf"}})
	wantCode(t, e, errcode.ElementNotInteractable)
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Close notice")})
	must(t, s, "click", map[string]any{"element": verify})
	waitText(t, s, "verify clicked trusted=true")
	if _, e := call(t, s, "wait_for", map[string]any{"text": "name=Ada", "state": "absent", "timeout_ms": 0, "observe": false}); e != nil {
		t.Errorf("the refused fill reached the field: %v", e)
	}
}

// TestFrameUnderOverlay: a click in a cross-origin frame that the page covers
// where the click would land (a cookie wall over everything, a banner over
// the frame's first line) is refused, as a user's click would reach the
// page's element, also in a frame nested in it; where the frame shows, it
// goes through.
func TestFrameUnderOverlay(t *testing.T) {
	s := newSession(t)
	other := otherSite(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/frame-modal.html?other=" + url.QueryEscape(other) + "&nested=" + url.QueryEscape(pages.URL+"/frame-nested.html"), "wait": "complete"})
	waitText(t, s, "apply ready")
	waitText(t, s, "consent ready")
	snap := snapshot(t, s)
	verify, name, consent := ref(t, snap, "button", "Verify email"), ref(t, snap, "textbox", "Full name"), ref(t, snap, "button", "Accept cookies")
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Show cookie wall")})
	for _, c := range []struct{ tool, ref string }{{"click", verify}, {"hover", verify}, {"click", consent}} {
		_, e := call(t, s, c.tool, map[string]any{"element": c.ref})
		wantCode(t, e, errcode.ElementNotInteractable)
		if e != nil && !strings.Contains(e.Message, "covers the frame") {
			t.Errorf("%s %s in a frame under the cookie wall: %s", c.tool, c.ref, e.Message)
		}
	}
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Accept all")})
	must(t, s, "click", map[string]any{"element": consent, "observe": false})
	waitText(t, s, "consent clicked trusted=true")
	must(t, s, "click", map[string]any{"element": verify})
	waitText(t, s, "verify clicked trusted=true")

	banner := ref(t, snap, "button", "Show banner")
	must(t, s, "click", map[string]any{"element": banner})
	_, e := call(t, s, "click", map[string]any{"element": name})
	wantCode(t, e, errcode.ElementNotInteractable)
	if e != nil && !strings.Contains(e.Message, "covers the frame") {
		t.Errorf("click in the frame under the banner: %s", e.Message)
	}
	// Below the banner the frame shows: the click goes through, also in the
	// frame nested in it (its point mapped through the form's frame).
	must(t, s, "click", map[string]any{"element": verify, "observe": false})
	waitText(t, s, "verify clicked trusted=true verify clicked trusted=true")
	must(t, s, "click", map[string]any{"element": consent, "observe": false})
	waitText(t, s, "consent clicked trusted=true consent clicked trusted=true")

	// The form out of the page's view: the page is scrolled to it, as a user
	// would scroll, and checked there (the banner, shown again, follows it).
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Move the form down")})
	must(t, s, "click", map[string]any{"element": verify, "observe": false})
	waitText(t, s, "verify clicked trusted=true verify clicked trusted=true verify clicked trusted=true")
	// A field scrolled to from below lands under the page's fixed header: it is
	// scrolled to the middle of the view instead, as in a page of its own.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Show header")})
	must(t, s, "click", map[string]any{"element": ref(t, snapshot(t, s), "button", "Bottom")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "textbox", "Email"), "observe": false})
	waitText(t, s, "focus email")
	must(t, s, "click", map[string]any{"element": banner}) // (scrolls the page back up to the button)
	_, e = call(t, s, "click", map[string]any{"element": name})
	wantCode(t, e, errcode.ElementNotInteractable)
}

// TestSmoothScrollingPage: on a page that scrolls smoothly, an element below
// the fold is scrolled to and clicked, in the page and in a frame far down
// it (a hit test made mid-scroll found it off screen: refused as covered).
func TestSmoothScrollingPage(t *testing.T) {
	s := newSession(t)
	other := otherSite(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/smooth-scroll.html?other=" + url.QueryEscape(other), "wait": "complete"})
	waitText(t, s, "apply ready")
	snap := snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Far below")})
	waitText(t, s, "far clicked trusted=true")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Near")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Verify email")})
	waitText(t, s, "verify clicked trusted=true")
}
