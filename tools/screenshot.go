package tools

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
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
	Run:         (*Table).screenshot,
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

func (tb *Table) screenshot(ctx context.Context, a *screenshotArgs, _ browser.Progress) (screenshotOut, error) {
	full, format := a.FullPage, a.Format
	if a.Element != nil && full {
		return screenshotOut{}, browser.Errorf(errcode.InvalidArguments, "give element or full_page, not both")
	}
	if a.Quality != nil && format != "jpeg" {
		return screenshotOut{}, browser.Errorf(errcode.InvalidArguments, "quality applies to format \"jpeg\" only")
	}
	op, err := tb.eng.Viewing(ctx) // works while a dialog is open: it runs nothing under it that acts
	if err != nil {
		return screenshotOut{}, err
	}
	defer op.Release()
	var l *browser.Locator
	if a.Element != nil {
		if l, err = op.Locate(*a.Element); err != nil {
			return screenshotOut{}, err
		}
	}
	area, err := op.Measure(ctx, l, full)
	if err != nil {
		return screenshotOut{}, err
	}
	scale := area.Natural
	if longest := math.Max(area.W, area.H) * scale; longest > maxImageSide {
		scale = maxImageSide / math.Max(area.W, area.H)
	}
	if math.Min(area.W, area.H)*scale < 1 {
		return screenshotOut{}, browser.Errorf(errcode.UnsupportedElement, "the %s is %.0f×%.0f CSS px: too long and thin to fit %d px at a readable scale; capture an area around it", area.What, area.W, area.H, maxImageSide)
	}
	capt, err := op.Capture(ctx, area, scale)
	if err != nil {
		return screenshotOut{}, err
	}
	if capt.Width > maxImageSide+2 || capt.Height > maxImageSide+2 || capt.Width*capt.Height > maxImagePixels+4*maxImageSide {
		tb.log.Warn("screenshot larger than asked", "width", capt.Width, "height", capt.Height)
		return screenshotOut{}, browser.Errorf(errcode.RDPProtocolError, "Firefox returned a %d×%d image, larger than the %d px limit", capt.Width, capt.Height, maxImageSide)
	}
	img, note, err := encodeImage(capt.PNG, format, a.Quality)
	if err != nil {
		return screenshotOut{}, err
	}
	return shotResult(op.TabID(), area, l != nil, capt, img, scale, note), nil
}

// shotResult is the screenshot's one line of text, its image and its
// structured fields.
func shotResult(tab string, area browser.Area, element bool, capt rdp.Capture, img Image, scale float64, note string) screenshotOut {
	label := "the " + area.What
	if element {
		label = area.What
	}
	text := fmt.Sprintf("Screenshot of %s of %s: %.0f×%.0f CSS px as a %d×%d %s (%s), %s.%s",
		label, tab, area.W, area.H, capt.Width, capt.Height, mimeName(img.MIMEType),
		sizeText(int64(len(img.Data))), scaleText(scale, area.Natural), note)
	for _, m := range capt.Messages {
		text += " Firefox: " + browser.Truncate(m, 200)
	}
	out := screenshotOut{
		TabID: tab, Captured: area.What, Width: capt.Width, Height: capt.Height,
		CSSWidth: math.Round(area.W), CSSHeight: math.Round(area.H), Scale: round3(scale), DevicePixelRatio: round3(area.Natural),
		MIMEType: img.MIMEType, Bytes: len(img.Data),
	}
	out.text, out.images = text, []Image{img}
	return out
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
		return Image{}, "", browser.Errorf(errcode.RDPProtocolError, "Firefox returned an unreadable PNG")
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
	return Image{}, "", browser.Errorf(errcode.UnsupportedElement, "the image does not fit in %s even as a low-quality JPEG; capture a smaller area (an element)", sizeText(maxImageBytes))
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

// MaxImageSide is the longest side, in pixels, of a screenshot.
const MaxImageSide = 1568

// Screenshot limits. maxImageSide keeps the image within what vision
// models take without their clients resizing it (1,568 px on the longer
// side); the pixel cap follows from it. maxImageBytes (3 MiB) caps the
// encoded image (before base64): a PNG above it is sent as JPEG instead,
// at falling qualities.
const (
	maxImageSide   = MaxImageSide
	maxImagePixels = maxImageSide * maxImageSide
	maxImageBytes  = 3 << 20
	defaultQuality = 80
)
