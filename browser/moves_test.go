package browser_test

import (
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

func TestPressKeyCombos(t *testing.T) {
	s := newSession(t)
	open(t, s, "keys.html")
	snap := snapshot(t, s)
	first := ref(t, snap, "textbox", "First")
	must(t, s, "click", map[string]any{"element": first, "wait_after_ms": 0})
	res := must(t, s, "press_key", map[string]any{"key": "Control+k"})
	waitText(t, s, "palette open ctrl=true trusted=true")
	if !strings.Contains(res.Text, `Focus: "textbox \"Command\""`) {
		t.Errorf("focus after Control+k: %s", res.Text)
	}
	must(t, s, "press_key", map[string]any{"key": "x"})
	if !strings.Contains(snapshot(t, s), `textbox "Command" value="x"`) {
		t.Errorf("a printable key was not typed into the palette:\n%s", snapshot(t, s))
	}
	must(t, s, "press_key", map[string]any{"key": "Escape"})
	waitText(t, s, "palette closed")
	for key, logged := range map[string]string{"Alt+ArrowDown": "alt-down", "Meta+Enter": "meta-enter", "F2": "f2"} {
		must(t, s, "press_key", map[string]any{"key": key, "element": first})
		waitText(t, s, logged)
	}
	snap = snapshot(t, s)
	second := ref(t, snap, "textbox", "Second")
	res = must(t, s, "press_key", map[string]any{"key": "Shift+Tab", "element": second})
	if !strings.Contains(res.Text, `Focus: "textbox \"First\""`) {
		t.Errorf("Shift+Tab did not move focus back: %s", res.Text)
	}
	must(t, s, "press_key", map[string]any{"key": "Space", "element": ref(t, snap, "button", "Press me")})
	waitText(t, s, "button clicked trusted=true")
	_, e := call(t, s, "press_key", map[string]any{"key": "Control+w"})
	wantCode(t, e, errcode.InvalidArguments)
	_, e = call(t, s, "press_key", map[string]any{"key": "Hyper+x"})
	wantCode(t, e, errcode.InvalidArguments)
}

func TestNewTabAndCloseTab(t *testing.T) {
	s := newSession(t)
	open(t, s, "tabs.html")
	user := tabsOf(t, must(t, s, "list_tabs", map[string]any{}))[0].TabID

	start := time.Now()
	res := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/other.html"})
	st := res.Structured.(map[string]any)
	id := st["tab_id"].(string)
	if st["ready_state"] != "complete" || !strings.HasSuffix(st["url"].(browser.Page).Raw(), "/other.html") || len(id) > 12 {
		t.Fatalf("new_tab = %v", st)
	}
	t.Logf("new_tab took %v", time.Since(start))
	if !strings.Contains(snapshot(t, s), `button "Back"`) {
		t.Errorf("the new tab is not selected")
	}
	tabs := tabsOf(t, must(t, s, "list_tabs", map[string]any{}))
	if i := slices.IndexFunc(tabs, func(ti tabRow) bool { return ti.TabID == id }); i < 0 || !tabs[i].OpenedHere || !tabs[i].Selected {
		t.Errorf("list_tabs: %+v", tabs)
	}

	_, e := call(t, s, "close_tab", map[string]any{"tab_id": user})
	wantCode(t, e, errcode.TabNotOwned)
	res = must(t, s, "close_tab", map[string]any{"tab_id": id})
	if !strings.Contains(res.Text, "no tab is selected") {
		t.Errorf("close_tab of the selected tab: %s", res.Text)
	}
	// With its tab closed, the next page tool uses the active tab and says so.
	if res := must(t, s, "snapshot_page", map[string]any{}); !strings.Contains(res.Text, "No tab was selected, so this call used the active tab") {
		t.Errorf("snapshot after closing the selected tab: %s", res.Text)
	}
	_, e = call(t, s, "close_tab", map[string]any{"tab_id": id})
	wantCode(t, e, errcode.TabNotFound)
	_, e = call(t, s, "close_tab", map[string]any{"tab_id": "12"})
	wantCode(t, e, errcode.InvalidArguments)
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "about:blank"} {
		_, e = call(t, s, "new_tab", map[string]any{"url": bad})
		wantCode(t, e, errcode.InvalidArguments)
	}

	// select: false keeps the selection.
	open(t, s, "tabs.html")
	res = must(t, s, "new_tab", map[string]any{"url": pages.URL + "/other.html", "select": false})
	if !strings.Contains(snapshot(t, s), "Open with window.open") {
		t.Errorf("select: false moved the selection")
	}
	must(t, s, "close_tab", map[string]any{"tab_id": res.Structured.(map[string]any)["tab_id"]})
}

func TestClickOpensTab(t *testing.T) {
	s := newSession(t)
	open(t, s, "tabs.html")
	snap := snapshot(t, s)
	for _, name := range []string{"Open other in a new tab", "Open with window.open"} {
		role := "link"
		if strings.HasPrefix(name, "Open with") {
			role = "button"
		}
		// Generous: on a loaded machine a new tab takes a while to appear.
		res := must(t, s, "click", map[string]any{"element": ref(t, snap, role, name), "wait_after_ms": 2000})
		opened, _ := res.Structured.(map[string]any)["opened_tabs"].([]string)
		if len(opened) != 1 || !strings.Contains(res.Text, "opened "+opened[0]) {
			t.Fatalf("click on %q: %s", name, res.Text)
		}
		must(t, s, "close_tab", map[string]any{"tab_id": opened[0]})
	}
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Does nothing"), "wait_after_ms": 0})
	if _, ok := res.Structured.(map[string]any)["opened_tabs"]; ok {
		t.Errorf("a click that opened nothing reports tabs: %s", res.Text)
	}
}

func TestNavigateHistory(t *testing.T) {
	s := newSession(t)
	open(t, s, "history.html")
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/other.html"})
	res := must(t, s, "navigate", map[string]any{"history": "back"})
	if st := res.Structured.(map[string]any); !strings.HasSuffix(st["url"].(browser.Page).Raw(), "/history.html") {
		t.Fatalf("back: %v", st)
	}
	// Like navigate {url}, it ends with the new page's elements.
	if st := res.Structured.(map[string]any); st["changes"] == nil || !strings.Contains(res.Text, `button "Push state"`) {
		t.Errorf("back lists no elements of the page it showed:\n%s", res.Text)
	}
	snap := snapshot(t, s)
	if !strings.Contains(snap, `button "Push state"`) {
		t.Fatalf("back did not show history.html:\n%s", snap)
	}
	res = must(t, s, "navigate", map[string]any{"history": "forward", "wait": "complete", "observe": false})
	if st := res.Structured.(map[string]any); !strings.HasSuffix(st["url"].(browser.Page).Raw(), "/other.html") || st["changes"] != nil {
		t.Fatalf("forward (observe false): %v", st)
	}
	_, e := call(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Push state")})
	wantCode(t, e, errcode.StaleElement)
	_, e = call(t, s, "navigate", map[string]any{"history": "forward"})
	wantCode(t, e, errcode.HistoryUnavailable)

	must(t, s, "navigate", map[string]any{"history": "back"})
	waitText(t, s, "loads=")
	before := pageText(t, s)
	must(t, s, "navigate", map[string]any{"history": "reload"})
	after := pageText(t, s)
	if strings.Contains(after, loadsOf(before)) || !strings.Contains(after, "loads=") {
		t.Errorf("reload did not load the page again: before %q after %q", loadsOf(before), loadsOf(after))
	}
	// A same-document entry (pushState): back changes only the URL.
	snap = snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Push state"), "wait_after_ms": 0})
	res = must(t, s, "navigate", map[string]any{"history": "back", "timeout_ms": 5000})
	if st := res.Structured.(map[string]any); !strings.HasSuffix(st["url"].(browser.Page).Raw(), "/history.html") {
		t.Errorf("back from a pushState entry: %v", st)
	}
	for _, args := range []map[string]any{{}, {"url": pages.URL + "/", "history": "back"}} {
		_, e = call(t, s, "navigate", args)
		wantCode(t, e, errcode.InvalidArguments)
	}
	_, e = call(t, s, "navigate", map[string]any{"history": "up"})
	wantCode(t, e, errcode.InvalidArguments)
}

func loadsOf(text string) string {
	i := strings.Index(text, "loads=")
	if i < 0 {
		return "<none>"
	}
	j := i + len("loads=")
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	return text[i:j]
}

func TestSelectOption(t *testing.T) {
	s := newSession(t)
	open(t, s, "select.html")
	snap := snapshot(t, s)
	toppings := ref(t, snap, "listbox", "Toppings")
	res := must(t, s, "select_option", map[string]any{"element": toppings, "options": []string{"ham", "Olives", "pineapple"}})
	waitText(t, s, "toppings=ham,pin,olv trusted=true")
	if !strings.Contains(res.Text, "Option: \"Ham\"\nOption: \"Pineapple\"\nOption: \"Olives\"\n") {
		t.Errorf("select_option text: %s", res.Text)
	}
	_, e := call(t, s, "select_option", map[string]any{"element": toppings, "options": []string{"Anchovies"}})
	wantCode(t, e, errcode.OptionNotFound)
	for _, want := range []string{"Missing: \"Anchovies\"", "Option: \"Ham\"\n  value: \"ham\"", "Option (disabled): \"Sold out\"", "<<<untrusted-page-content "} {
		if !strings.Contains(e.Text(), want) {
			t.Errorf("option_not_found lacks %q:\n%s", want, e.Text())
		}
	}
	if strings.Contains(e.Message, "Ham") {
		t.Errorf("page text in the error message itself: %s", e.Message)
	}
	_, e = call(t, s, "select_option", map[string]any{"element": toppings, "options": []string{"Sold out"}})
	wantCode(t, e, errcode.ElementNotInteractable)
	size := ref(t, snap, "combobox", "Size")
	_, e = call(t, s, "select_option", map[string]any{"element": size, "options": []string{"s", "m"}})
	wantCode(t, e, errcode.InvalidArguments)
	_, e = call(t, s, "select_option", map[string]any{"element": ref(t, snap, "combobox", "Sticky"), "options": []string{}})
	wantCode(t, e, errcode.InvalidArguments)

	// fill on a select: by label, reported as what the select shows, not as a
	// value the page changed.
	res = must(t, s, "fill", map[string]any{"element": size, "value": "Large"})
	waitText(t, s, "size=l")
	if !strings.Contains(res.Text, "The select now shows the option below") || !strings.Contains(res.Text, `Shows: "Large"`) || strings.Contains(res.Text, "changed or limited") {
		t.Errorf("fill on a select: %s", res.Text)
	}
	_, e = call(t, s, "fill", map[string]any{"element": size, "value": "Huge"})
	wantCode(t, e, errcode.OptionNotFound)
	if !strings.Contains(e.Text(), "Option: \"Medium\"\n  value: \"m\"") {
		t.Errorf("fill option_not_found: %s", e.Text())
	}
	res = must(t, s, "fill", map[string]any{"element": ref(t, snap, "combobox", "Sticky"), "value": "Beta"})
	if !strings.Contains(res.Text, `Shows: "Alpha"`) || !strings.Contains(res.Text, "picked another option") {
		t.Errorf("fill on a select whose handler undoes it: %s", res.Text)
	}
	res = must(t, s, "select_option", map[string]any{"element": ref(t, snap, "combobox", "Sticky"), "options": []string{"Beta"}})
	if !strings.Contains(res.Text, "not exactly what was asked") {
		t.Errorf("select_option undone by the page: %s", res.Text)
	}
	_, e = call(t, s, "select_option", map[string]any{"element": ref(t, snap, "combobox", "Sticky"), "options": []string{"Beta"}})
	if e != nil {
		t.Errorf("second select_option: %v", e)
	}
}

func TestHoverMenus(t *testing.T) {
	s := newSession(t)
	open(t, s, "hover.html")
	snap := snapshot(t, s)
	if strings.Contains(snap, `"Laptops"`) || strings.Contains(snap, `"Settings"`) {
		t.Fatalf("menus open before hovering:\n%s", snap)
	}
	res := must(t, s, "hover", map[string]any{"element": ref(t, snap, "link", "Products")})
	st := res.Structured.(map[string]any)
	if st["trusted"] != true || st["hovered"] != true {
		t.Errorf("hover = %s", res.Text)
	}
	if !strings.Contains(snapshot(t, s), `link "Laptops"`) {
		t.Errorf("the CSS :hover menu did not open:\n%s", snapshot(t, s))
	}
	must(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Account")})
	waitText(t, s, "enter trusted=true")
	waitText(t, s, "pointerover")
	snap2 := snapshot(t, s)
	if !strings.Contains(snap2, `link "Settings"`) || strings.Contains(snap2, `link "Laptops"`) {
		t.Errorf("after hovering Account: want the JS menu open and the CSS one closed:\n%s", snap2)
	}
	must(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Elsewhere")})
	waitText(t, s, "leave trusted=true")
	if strings.Contains(snapshot(t, s), `link "Settings"`) {
		t.Errorf("the JS menu stayed open after the pointer left")
	}
	_, e := call(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Under a veil")})
	wantCode(t, e, errcode.ElementNotInteractable)
	_, e = call(t, s, "hover", map[string]any{"element": "e999999"})
	wantCode(t, e, errcode.ElementNotFound)
}

func TestPressKeyCombosPageRealm(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "keys.html")
	snap := snapshot(t, s)
	must(t, s, "press_key", map[string]any{"key": "Control+k", "element": ref(t, snap, "textbox", "First")})
	waitText(t, s, "palette open ctrl=true trusted=false")
	res := must(t, s, "press_key", map[string]any{"key": "Shift+q"})
	if res.Structured.(map[string]any)["trusted"] != false || !strings.Contains(snapshot(t, s), `textbox "Command" value="Q"`) {
		t.Errorf("page-realm character: %s\n%s", res.Text, snapshot(t, s))
	}
	must(t, s, "press_key", map[string]any{"key": "Space", "element": ref(t, snap, "button", "Press me")})
	waitText(t, s, "button clicked trusted=false")
}

func TestHoverPageRealmFallback(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "hover.html")
	snap := snapshot(t, s)
	res := must(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Account")})
	if st := res.Structured.(map[string]any); st["trusted"] != false || st["hovered"] != false || !strings.Contains(res.Text, "CSS :hover menus do not react") {
		t.Errorf("page-realm hover: %s", res.Text)
	}
	waitText(t, s, "enter trusted=false")
}

func TestScrollInfiniteFeed(t *testing.T) {
	s := newSession(t)
	open(t, s, "feed.html")
	waitText(t, s, "batch 1")
	res := must(t, s, "scroll", map[string]any{"direction": "down", "pages": 1})
	st := res.Structured.(map[string]any)
	if st["how"] != "wheel" || st["moved"] != true || st["can_scroll_further"] != true {
		t.Errorf("scroll down: %s", res.Text)
	}
	waitText(t, s, "wheel trusted=true")
	// To the bottom: the sentinel comes into view and the feed loads more.
	res = must(t, s, "scroll", map[string]any{"to": "bottom"})
	waitText(t, s, "batch 2")
	if !strings.Contains(res.Text, "More content loaded") {
		t.Logf("no growth seen within the settle time: %s", res.Text)
	}
	res = must(t, s, "scroll", map[string]any{"to": "bottom"})
	waitText(t, s, "batch 3")
	res = must(t, s, "scroll", map[string]any{"to": "top"})
	if after := res.Structured.(map[string]any)["after"]; after == nil || !strings.Contains(res.Text, "→ 0 of") {
		t.Errorf("scroll to top: %s", res.Text)
	}
	wheels := func() string { return regexp.MustCompile(`wheels=\d+`).FindString(snapshot(t, s)) }
	seen := wheels()
	res = must(t, s, "scroll", map[string]any{"direction": "up"})
	if res.Structured.(map[string]any)["moved"] != false || !strings.Contains(res.Text, "Could not scroll the page up") {
		t.Errorf("scroll up at the top: %s", res.Text)
	}
	// The page got that wheel and did not move: it is not sent again.
	if n, _ := strconv.Atoi(strings.TrimPrefix(seen, "wheels=")); wheels() != "wheels="+strconv.Itoa(n+1) {
		t.Errorf("scroll up at the top: the page counted %s, then %s; want one wheel more", seen, wheels())
	}

	// An element's scrollable container, and scrolling an element into view.
	snap := snapshot(t, s)
	first := ref(t, snap, "button", "Inner first")
	res = must(t, s, "scroll", map[string]any{"element": first, "direction": "down", "pages": 2})
	if st := res.Structured.(map[string]any); st["container"] != browser.PageStr("div Inner list") || st["moved"] != true {
		t.Errorf("inner scroll: %s", res.Text)
	}
	snap = snapshot(t, s)
	lastRef := ref(t, snap, "button", "Inner last")
	res = must(t, s, "scroll", map[string]any{"to": "bottom", "element": lastRef})
	if !strings.Contains(res.Text, "cannot scroll further") {
		t.Errorf("inner to bottom: %s", res.Text)
	}
	res = must(t, s, "scroll", map[string]any{"element": first})
	if res.Structured.(map[string]any)["in_view"] != true {
		t.Errorf("into view: %s", res.Text)
	}
	for _, bad := range []map[string]any{{}, {"to": "top", "direction": "down"}, {"pages": 0}, {"pages": 21}, {"direction": "sideways"}} {
		_, e := call(t, s, "scroll", bad)
		wantCode(t, e, errcode.InvalidArguments)
	}
}

func TestScrollPageRealmFallback(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "feed.html")
	res := must(t, s, "scroll", map[string]any{"direction": "down", "pages": 3})
	if st := res.Structured.(map[string]any); st["how"] != "script" || st["moved"] != true || !strings.Contains(res.Text, "not a trusted wheel") {
		t.Errorf("page-realm scroll: %s", res.Text)
	}
}

// sortableServer serves testdata with SortableJS (fetched from npm at test
// set-up, pinned) under /vendor/.
func sortableServer(t *testing.T) *httptest.Server {
	return vendorServer(t, []string{"sortablejs@1.15.7"}, nil)
}

func TestDragSortable(t *testing.T) {
	srv := sortableServer(t)
	for _, realm := range []string{"isolated", "page"} {
		t.Run(realm, func(t *testing.T) {
			s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = realm == "page" })
			must(t, s, "select_tab", map[string]any{"index": 0})
			must(t, s, "navigate", map[string]any{"url": srv.URL + "/sortable.html", "wait": "complete"})
			waitText(t, s, "sortable ready")
			snap := snapshot(t, s)
			// HTML5 drag and drop (SortableJS's default on desktop).
			res := must(t, s, "drag", map[string]any{"element": ref(t, snap, "button", "Move A1"), "to": ref(t, snap, "button", "Move A3")})
			if st := res.Structured.(map[string]any); st["html5"] != true || st["dropped"] != true || st["trusted"] != (realm == "isolated") {
				t.Errorf("native drag: %s", res.Text)
			}
			waitText(t, s, "dragstart trusted="+map[string]string{"isolated": "true", "page": "false"}[realm])
			waitText(t, s, "native order 2,3,1,4")
			// Pointer events (SortableJS's fallback mode).
			res = must(t, s, "drag", map[string]any{"element": ref(t, snap, "button", "B1"), "to": ref(t, snap, "button", "B3")})
			if st := res.Structured.(map[string]any); st["html5"] != false {
				t.Errorf("pointer drag: %s", res.Text)
			}
			waitText(t, s, "fallback order 2,3,1,4")
			_, e := call(t, s, "drag", map[string]any{"element": ref(t, snap, "button", "B1"), "to": ref(t, snap, "button", "B1")})
			wantCode(t, e, errcode.InvalidArguments)
			must(t, s, "navigate", map[string]any{"history": "reload"})
			_, e = call(t, s, "drag", map[string]any{"element": ref(t, snap, "button", "B1"), "to": ref(t, snap, "button", "B2")})
			wantCode(t, e, errcode.StaleElement)
		})
	}
}

// TestActionsInBackgroundTab: new_tab leaves the user's tab in front, so the
// agent works in a background tab; trusted input must work there too.
func TestActionsInBackgroundTab(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	id := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/hover.html"}).Structured.(map[string]any)["tab_id"].(string)
	defer must(t, s, "close_tab", map[string]any{"tab_id": id})
	snap := snapshot(t, s)
	res := must(t, s, "hover", map[string]any{"element": ref(t, snap, "link", "Products")})
	if st := res.Structured.(map[string]any); st["trusted"] != true || st["hovered"] != true {
		t.Errorf("hover in a background tab: %s", res.Text)
	}
	must(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Account")})
	waitText(t, s, "enter trusted=true")
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/feed.html"})
	waitText(t, s, "batch 1")
	res = must(t, s, "scroll", map[string]any{"direction": "down"})
	if st := res.Structured.(map[string]any); st["moved"] != true || !strings.Contains(res.Text, "in the background") {
		t.Errorf("scroll in a background tab: %s", res.Text)
	}
	must(t, s, "scroll", map[string]any{"to": "bottom"})
	waitText(t, s, "batch 2")
}

// TestCloseTabKeepsUnsavedPage: a page that asks to confirm leaving keeps its
// tab (no prompt is shown, nothing blocks); once it stops asking, it closes.
func TestCloseTabKeepsUnsavedPage(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	id := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/unsaved.html"}).Structured.(map[string]any)["tab_id"].(string)
	snap := snapshot(t, s)
	// A trusted click gives the page the user activation beforeunload needs.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Start editing"), "wait_after_ms": 0})
	start := time.Now()
	_, e := call(t, s, "close_tab", map[string]any{"tab_id": id})
	wantCode(t, e, errcode.CloseBlocked)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("close_tab took %v", d)
	}
	if _, e := call(t, s, "snapshot_page", map[string]any{}); e != nil {
		t.Fatalf("the kept tab is no longer usable: %v", e)
	}
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Discard draft"), "wait_after_ms": 0})
	must(t, s, "close_tab", map[string]any{"tab_id": id})
}

func TestSelectOptionPageRealm(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "select.html")
	snap := snapshot(t, s)
	res := must(t, s, "select_option", map[string]any{"element": ref(t, snap, "listbox", "Toppings"), "options": []string{"Olives", "chz"}})
	waitText(t, s, "toppings=olv,chz trusted=false")
	if res.Structured.(map[string]any)["trusted"] != false || !strings.Contains(res.Text, "Option: \"Olives\"\nOption: \"Extra cheese\"") {
		t.Errorf("page-realm select_option: %s", res.Text)
	}
}

// TestCloseTabWhileLeavePromptShows: while the page's leave prompt is up (a
// navigation it asked to confirm), close_tab keeps the tab and its typed input.
func TestCloseTabWhileLeavePromptShows(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	id := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/unsaved.html"}).Structured.(map[string]any)["tab_id"].(string)
	snap := snapshot(t, s)
	must(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Draft"), "value": "typed by the user"})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Start editing"), "wait_after_ms": 0})
	_, e := call(t, s, "navigate", map[string]any{"url": pages.URL + "/other.html", "timeout_ms": 5000})
	wantCode(t, e, errcode.DialogOpen)
	_, e = call(t, s, "close_tab", map[string]any{"tab_id": id})
	wantCode(t, e, errcode.CloseBlocked)
	must(t, s, "handle_dialog", map[string]any{"action": "dismiss"}) // stay
	snap = snapshot(t, s)
	if !strings.Contains(snap, "typed by the user") {
		t.Fatalf("the typed input is gone:\n%s", snap)
	}
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Discard draft"), "wait_after_ms": 0})
	must(t, s, "close_tab", map[string]any{"tab_id": id})
}
