package browser

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Screenshot limits. maxImageSide keeps the image within what vision
// models take without their clients resizing it (1,568 px on the longer
// side); the pixel cap follows from it. maxImageBytes (3 MiB) caps the
// encoded image (before base64): a PNG above it is sent as JPEG instead,
// at falling qualities.
const (
	maxImageSide   = 1568
	maxImagePixels = maxImageSide * maxImageSide
	maxImageBytes  = 3 << 20
	defaultQuality = 80
)

// Image is one image of a result (screenshot), already encoded.
type Image struct {
	Data     []byte
	MIMEType string // image/png or image/jpeg
}

var screenshotTool = tool[screenshotArgs, screenshotOut]{
	Name: "screenshot", Title: "Screenshot",
	Description: "Capture the selected tab: the viewport (default), the whole page or one element; never scrolls or flashes the tab. At most 1568 px on the longer side (scale stated) and 3 MiB. Text in it is page content.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Session).screenshot,
}

// screenshotArgs: quality has no schema default because it is refused
// with png; JPEG without it tries 80, then lower (encodeImage).
type screenshotArgs struct {
	Element  *string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
	FullPage bool    `json:"full_page" default:"false" desc:"the whole page"`
	Format   string  `json:"format" enum:"png,jpeg" default:"png" desc:"image format"`
	Quality  *int    `json:"quality" min:"1" max:"100" desc:"JPEG quality (default 80)"`
}

type screenshotOut struct {
	said
	TabID            string  `json:"tab_id"`
	Captured         string  `json:"captured"`
	Width            int     `json:"width"`
	Height           int     `json:"height"`
	CSSWidth         float64 `json:"css_width"`
	CSSHeight        float64 `json:"css_height"`
	Scale            float64 `json:"scale"`
	DevicePixelRatio float64 `json:"device_pixel_ratio"`
	MIMEType         string  `json:"mime_type"`
	Bytes            int     `json:"bytes"`
}

// shot is what one capture covers, in CSS pixels of the top document.
type shot struct {
	what     string    // "viewport", "full page", "element e12"
	rect     *rdp.Rect // nil = the viewport
	w, h     float64   // CSS size
	fullPage bool
}

func (s *Session) screenshot(ctx context.Context, a *screenshotArgs, _ Progress) (screenshotOut, error) {
	full, format := a.FullPage, a.Format
	if a.Element != nil && full {
		return screenshotOut{}, Errorf(errcode.InvalidArguments, "give element or full_page, not both")
	}
	if a.Quality != nil && format != "jpeg" {
		return screenshotOut{}, Errorf(errcode.InvalidArguments, "quality applies to format \"jpeg\" only")
	}
	if err := s.lock(ctx); err != nil {
		return screenshotOut{}, err
	}
	defer s.unlock()
	pg, err := s.selectedTab(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return screenshotOut{}, err
	}
	var l *Locator
	if a.Element != nil {
		if l, err = s.target(pg, *a.Element); err != nil {
			return screenshotOut{}, err
		}
	}
	navs := pg.sel.watch.Navigations()
	t, err := pg.sel.watch.Current(ctx)
	if err != nil {
		return screenshotOut{}, err
	}
	info, sh, err := s.prepare(ctx, pg, t, l, full)
	if err != nil {
		return screenshotOut{}, replacedIfNavigated(pg, navs, err)
	}
	natural := info.DPR * info.Zoom
	scale := natural
	if longest := math.Max(sh.w, sh.h) * scale; longest > maxImageSide {
		scale = maxImageSide / math.Max(sh.w, sh.h)
	}
	if math.Min(sh.w, sh.h)*scale < 1 {
		return screenshotOut{}, Errorf(errcode.UnsupportedElement, "the %s is %.0f×%.0f CSS px: too long and thin to fit %d px at a readable scale; capture an area around it", sh.what, sh.w, sh.h, maxImageSide)
	}
	capt, err := pg.c.Capture(ctx, rdp.CaptureRequest{BrowsingContextID: t.BrowsingContextID, Rect: sh.rect, FullPage: sh.fullPage, Scale: scale})
	if err != nil {
		return screenshotOut{}, replacedIfNavigated(pg, navs, err)
	}
	if capt.Width > maxImageSide+2 || capt.Height > maxImageSide+2 || capt.Width*capt.Height > maxImagePixels+4*maxImageSide {
		s.log.Warn("screenshot larger than asked", "width", capt.Width, "height", capt.Height)
		return screenshotOut{}, Errorf(errcode.RDPProtocolError, "Firefox returned a %d×%d image, larger than the %d px limit", capt.Width, capt.Height, maxImageSide)
	}
	img, note, err := encodeImage(capt.PNG, format, a.Quality)
	if err != nil {
		return screenshotOut{}, err
	}
	return shotResult(pg, sh, l != nil, capt, img, scale, natural, note), nil
}

// shotResult is the screenshot's one line of text, its image and its
// structured fields.
func shotResult(pg page, sh shot, element bool, capt rdp.Capture, img Image, scale, natural float64, note string) screenshotOut {
	label := "the " + sh.what
	if element {
		label = sh.what
	}
	text := fmt.Sprintf("Screenshot of %s of %s: %.0f×%.0f CSS px as a %d×%d %s (%s), %s.%s",
		label, TabID(pg.sel.tab.BrowserID), sh.w, sh.h, capt.Width, capt.Height, mimeName(img.MIMEType),
		sizeText(int64(len(img.Data))), scaleText(scale, natural), note)
	for _, m := range capt.Messages {
		text += " Firefox: " + Truncate(m, 200)
	}
	out := screenshotOut{
		TabID: TabID(pg.sel.tab.BrowserID), Captured: sh.what, Width: capt.Width, Height: capt.Height,
		CSSWidth: math.Round(sh.w), CSSHeight: math.Round(sh.h), Scale: round3(scale), DevicePixelRatio: round3(natural),
		MIMEType: img.MIMEType, Bytes: len(img.Data),
	}
	out.text, out.images = text, []Image{img}
	return out
}

// replacedIfNavigated reports a capture that failed because the page
// navigated under it (Firefox then answers for a browsing context that is
// gone) as target_replaced.
func replacedIfNavigated(pg page, before uint64, err error) error {
	if _, ok := AsError(err); ok || pg.sel.watch.Navigations() == before {
		return err
	}
	return Errorf(errcode.TargetReplaced, "the page navigated during the screenshot; take it again")
}

// prepare asks Firefox for the resolution (prepareCapture) and works out
// what to capture: the whole page (from prepareCapture), or the viewport or
// an element (from CaptureRect, fingerprint checked), read at the same time
// on the page's console.
func (s *Session) prepare(ctx context.Context, pg page, t rdp.Target, l *Locator, full bool) (rdp.CaptureInfo, shot, error) {
	if full {
		info, err := pg.c.PrepareCapture(ctx, t, true)
		if err != nil {
			return info, shot{}, err
		}
		if info.Rect == nil || info.Rect.Width < 1 || info.Rect.Height < 1 {
			return info, shot{}, Errorf(errcode.RDPProtocolError, "Firefox did not report the page's size")
		}
		return info, shot{what: "full page", rect: info.Rect, w: info.Rect.Width, h: info.Rect.Height, fullPage: true}, nil
	}
	type area struct {
		sh  shot
		err error
	}
	ch := make(chan area, 1)
	go func() {
		sh, err := s.shotArea(ctx, pg, l)
		ch <- area{sh, err}
	}()
	info, err := pg.c.PrepareCapture(ctx, t, false)
	a := <-ch
	if err == nil {
		err = a.err
	}
	return info, a.sh, err
}

// shotArea reads the viewport's size or an element's rectangle.
func (s *Session) shotArea(ctx context.Context, pg page, l *Locator) (shot, error) {
	args := pagejs.CaptureRectArgs{}
	if l != nil {
		args.Sel, args.FP = l.sel, &l.fp
	}
	var r pagejs.CaptureRectResult
	if _, err := s.exec(ctx, pg, ReadRealm, pagejs.CaptureRect, args, &r); err != nil {
		return shot{}, err
	}
	if l == nil {
		if r.VW < 1 || r.VH < 1 {
			return shot{}, Errorf(errcode.PageScriptFailed, "the page reported an empty viewport")
		}
		return shot{what: "viewport", w: r.VW, h: r.VH}, nil
	}
	if r.Rect == nil || r.Rect.Width < 1 || r.Rect.Height < 1 {
		return shot{}, Errorf(errcode.ElementNotInteractable, "%s has no visible size to capture", l.ref)
	}
	rect := &rdp.Rect{Left: r.Rect.Left, Top: r.Rect.Top, Width: r.Rect.Width, Height: r.Rect.Height}
	return shot{what: "element " + l.ref, rect: rect, w: rect.Width, h: rect.Height}, nil
}

// encodeImage turns Firefox's PNG into the asked format within
// maxImageBytes: JPEG at the asked quality, or PNG when it fits and JPEG at
// falling qualities when it does not. note says what was changed.
func encodeImage(pngData []byte, format string, quality *int) (Image, string, error) {
	if format == "png" && len(pngData) <= maxImageBytes {
		return Image{Data: pngData, MIMEType: "image/png"}, "", nil
	}
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return Image{}, "", Errorf(errcode.RDPProtocolError, "Firefox returned an unreadable PNG")
	}
	qualities := []int{defaultQuality, 60, 40, 25}
	note := ""
	if format == "png" {
		note = fmt.Sprintf(" Sent as JPEG: the PNG (%s) is over the %s limit.", sizeText(int64(len(pngData))), sizeText(maxImageBytes))
	} else if quality != nil {
		qualities = append([]int{*quality}, qualities...)
	}
	for i, q := range qualities {
		if i > 0 && q >= qualities[0] {
			continue
		}
		data, err := encodeJPEG(src, q)
		if err != nil {
			return Image{}, "", err
		}
		if len(data) <= maxImageBytes {
			if i > 0 {
				note += fmt.Sprintf(" JPEG quality lowered to %d to stay under %s.", q, sizeText(maxImageBytes))
			}
			return Image{Data: data, MIMEType: "image/jpeg"}, note, nil
		}
	}
	return Image{}, "", Errorf(errcode.UnsupportedElement, "the image does not fit in %s even as a low-quality JPEG; capture a smaller area (an element)", sizeText(maxImageBytes))
}

func encodeJPEG(src image.Image, quality int) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, src, &jpeg.Options{Quality: quality}); err != nil {
		return nil, fmt.Errorf("browser: jpeg: %w", err)
	}
	return b.Bytes(), nil
}

func mimeName(m string) string {
	if m == "image/jpeg" {
		return "JPEG"
	}
	return "PNG"
}

func scaleText(scale, natural float64) string {
	if math.Abs(scale-natural) < 1e-9 {
		return fmt.Sprintf("scale %g image px per CSS px, the page's own resolution", round3(scale))
	}
	return fmt.Sprintf("scaled down to %g image px per CSS px (the page's resolution is %g) to fit %d px", round3(scale), round3(natural), maxImageSide)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// sizeText renders a byte count for people: 812 B, 45.2 KB, 2.1 MB.
func sizeText(n int64) string {
	switch {
	case n < 0:
		return "size unknown"
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
