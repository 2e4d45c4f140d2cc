package browser_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// shotImage takes a screenshot and decodes its image.
func shotImage(t *testing.T, s *session, args map[string]any) (image.Image, tools.Result) {
	t.Helper()
	res := must(t, s, "screenshot", args)
	if len(res.Images) != 1 {
		t.Fatalf("screenshot returned %d images", len(res.Images))
	}
	im := res.Images[0]
	var img image.Image
	var err error
	switch im.MIMEType {
	case "image/png":
		img, err = png.Decode(bytes.NewReader(im.Data))
	case "image/jpeg":
		img, err = jpeg.Decode(bytes.NewReader(im.Data))
	default:
		t.Fatalf("mime type %q", im.MIMEType)
	}
	if err != nil {
		t.Fatalf("decode %s: %v", im.MIMEType, err)
	}
	st := res.Structured.(map[string]any)
	if b := img.Bounds(); b.Dx() != st["width"] || b.Dy() != st["height"] {
		t.Fatalf("image is %v, result says %v×%v", b, st["width"], st["height"])
	}
	if strings.Contains(res.Text, "\n") {
		t.Errorf("screenshot text is more than one line: %q", res.Text)
	}
	return img, res
}

// wantColor checks the pixel at (x, y) is within tol of want on every channel.
func wantColor(t *testing.T, img image.Image, x, y int, want color.RGBA, tol int) {
	t.Helper()
	r, g, b, _ := img.At(x, y).RGBA()
	got := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
	w := [3]int{int(want.R), int(want.G), int(want.B)}
	for i := range got {
		if d := got[i] - w[i]; d > tol || d < -tol {
			t.Errorf("pixel (%d,%d) = %v, want %v", x, y, got, w)
			return
		}
	}
}

var (
	red    = color.RGBA{255, 0, 0, 255}
	green  = color.RGBA{0, 255, 0, 255}
	blue   = color.RGBA{0, 0, 255, 255}
	yellow = color.RGBA{255, 255, 0, 255}
	white  = color.RGBA{255, 255, 255, 255}
)

func TestScreenshotViewportElementAndFullPage(t *testing.T) {
	s := newSession(t)
	open(t, s, "senses.html")
	snap := snapshot(t, s)

	img, res := shotImage(t, s, map[string]any{})
	st := res.Structured.(map[string]any)
	if st["captured"] != "viewport" || st["scale"] != 1.0 || !strings.Contains(res.Text, "viewport") {
		t.Errorf("viewport result: %s %v", res.Text, st)
	}
	wantColor(t, img, 10, 10, red, 0)
	wantColor(t, img, 390, 90, green, 0)
	wantColor(t, img, 450, 300, white, 0)

	// Scrolled away from the red block: the element is still captured, and
	// capturing scrolls nothing.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Scroll down")})
	img, _ = shotImage(t, s, map[string]any{})
	wantColor(t, img, 10, 150, blue, 0) // the blue block starts 100 px below the top now
	wantColor(t, img, 10, 50, white, 0)
	img, res = shotImage(t, s, map[string]any{"element": ref(t, snap, "button", "Red")})
	if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 100 {
		t.Fatalf("red element image is %v, want 200×100", b)
	}
	for _, p := range [][2]int{{0, 0}, {199, 99}, {100, 50}} {
		wantColor(t, img, p[0], p[1], red, 0)
	}
	if !strings.Contains(res.Text, "element e") {
		t.Errorf("element text: %s", res.Text)
	}
	img, _ = shotImage(t, s, map[string]any{})
	wantColor(t, img, 10, 150, blue, 0) // still scrolled where the page was

	// An element inside an open shadow root.
	img, _ = shotImage(t, s, map[string]any{"element": ref(t, snap, "button", "Yellow")})
	if b := img.Bounds(); b.Dx() != 120 || b.Dy() != 60 {
		t.Fatalf("yellow element image is %v, want 120×60", b)
	}
	wantColor(t, img, 60, 30, yellow, 0)

	// The whole page is 5000 CSS px tall: scaled to fit 1568 px.
	img, res = shotImage(t, s, map[string]any{"full_page": true})
	st = res.Structured.(map[string]any)
	scale := st["scale"].(float64)
	h := img.Bounds().Dy()
	if h > tools.MaxImageSide || h < tools.MaxImageSide-2 || scale >= 1 || !strings.Contains(res.Text, "scaled down") {
		t.Fatalf("full page: %v scale %v: %s", img.Bounds(), scale, res.Text)
	}
	at := func(css float64) int { return int(math.Round(css * scale)) }
	wantColor(t, img, at(100), at(50), red, 8)
	wantColor(t, img, at(300), at(50), green, 8)
	wantColor(t, img, at(150), at(2075), blue, 8)
	wantColor(t, img, at(450), at(1000), white, 8)

	// JPEG, at a chosen quality.
	img, res = shotImage(t, s, map[string]any{"element": ref(t, snap, "button", "Green"), "format": "jpeg", "quality": 90})
	if res.Images[0].MIMEType != "image/jpeg" {
		t.Fatalf("mime %s", res.Images[0].MIMEType)
	}
	wantColor(t, img, 100, 50, green, 12)
}

func TestScreenshotErrors(t *testing.T) {
	s := newSession(t)
	// No tab selected: the active tab is used, and the answer says so.
	if res := must(t, s, "screenshot", map[string]any{}); !strings.Contains(res.Text, "No tab was selected, so this call used the active tab") {
		t.Errorf("screenshot with no tab selected: %s", res.Text)
	}
	var e *browser.Error
	open(t, s, "senses.html")
	snap := snapshot(t, s)
	red := ref(t, snap, "button", "Red")
	for _, args := range []map[string]any{
		{"element": red, "full_page": true},
		{"quality": 50},
		{"format": "gif"},
		{"quality": 0, "format": "jpeg"},
		{"element": "x1"},
	} {
		_, e = call(t, s, "screenshot", args)
		wantCode(t, e, errcode.InvalidArguments)
	}
	_, e = call(t, s, "screenshot", map[string]any{"element": ref(t, snap, "button", "Thin")})
	wantCode(t, e, errcode.UnsupportedElement)
	_, e = call(t, s, "screenshot", map[string]any{"element": ref(t, snap, "file", "Hidden file")})
	wantCode(t, e, errcode.ElementNotInteractable)
	_, e = call(t, s, "screenshot", map[string]any{"element": "e999999"})
	wantCode(t, e, errcode.ElementNotFound)
	must(t, s, "navigate", map[string]any{"url": pages.URL + "/senses.html?again", "wait": "complete"})
	_, e = call(t, s, "screenshot", map[string]any{"element": red})
	wantCode(t, e, errcode.StaleElement)
}

// backgroundTab opens url in a new tab that stays in the background,
// closed when the test ends, and returns its tab_id.
func backgroundTab(t *testing.T, url string) string {
	t.Helper()
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	chrome := func(script pagejs.Script, args any, out any) {
		t.Helper()
		if err := chromeScript(ctx, c, script, args, out); err != nil {
			t.Fatal(err)
		}
	}
	var opened pagejs.TabResult
	chrome(pagejs.TabOpen, pagejs.TabOpenArgs{URL: url, Background: true}, &opened)
	t.Cleanup(func() {
		chrome(pagejs.TabClose, pagejs.TabArgs{BrowserID: opened.BrowserID}, &pagejs.TabResult{})
		c.Close()
		cancel()
	})
	return browser.TabID(opened.BrowserID)
}

// TestScreenshotBackgroundTab: a tab that is not in front (the agent works
// there while the user looks at another) is captured all the same.
func TestScreenshotBackgroundTab(t *testing.T) {
	tab := backgroundTab(t, pages.URL+"/senses.html")
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"tab_id": tab})
	must(t, s, "wait_for", map[string]any{"selector": "yellow-box", "timeout_ms": 10000})
	img, _ := shotImage(t, s, map[string]any{})
	wantColor(t, img, 10, 10, red, 0)
	wantColor(t, img, 390, 90, green, 0)
	img, _ = shotImage(t, s, map[string]any{"element": ref(t, snapshot(t, s), "button", "Yellow")})
	wantColor(t, img, 60, 30, yellow, 0)
}

// TestScreenshotWithDialogOpen: a page showing confirm() is still
// captured (the dialog belongs to the browser window, not the page).
func TestScreenshotWithDialogOpen(t *testing.T) {
	s := newSession(t)
	open(t, s, "dialog.html")
	snap := snapshot(t, s)
	if res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Confirm")}); !strings.Contains(res.Text, "opened a confirm dialog") {
		t.Fatalf("click: %s", res.Text)
	}
	defer must(t, s, "handle_dialog", map[string]any{"action": "dismiss"})
	start := time.Now()
	img, _ := shotImage(t, s, map[string]any{}) // the page under a tab-modal dialog
	if img.Bounds().Dx() < 100 {
		t.Errorf("image %v", img.Bounds())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
