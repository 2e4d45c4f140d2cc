package rdp

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
)

// Screenshots take Firefox's own capture path (the one behind DevTools'
// :screenshot command, devtools/server/actors/screenshot-content.js,
// screenshot.js and utils/capture-screenshot.js in omni.ja):
//
//  1. prepareCapture on the target's screenshotContentActor (content
//     process) reads window.devicePixelRatio (or the top browsing
//     context's overrideDPPX), the zoom, and for fullpage the document's
//     size without scrollbars; args {} means the viewport (rect null).
//  2. capture on the root's screenshotActor (parent process, from getRoot)
//     with browsingContextID (of the current target: a stale one is a
//     TypeError reply), rect (CSS pixels of the top document; null = the
//     viewport), fullpage (drawSnapshot resets the scroll position, in the
//     snapshot only), snapshotScale (device pixels per CSS pixel: dpr × zoom
//     for a 1:1 image; lower scales render fewer pixels; leaving it out
//     yields data null) and disableFlash (true: no camera-flash animation
//     on the browser element, which Firefox plays by default).
//  3. The parent calls WindowGlobalParent.drawSnapshot(rect, scale,
//     "rgb(255,255,255)", fullpage), draws the ImageBitmap on a canvas in
//     the browser window and returns canvas.toDataURL("image/png"): PNG
//     only. Rects are clamped (ScreenshotsUtils clampDimensionsIfNeeded:
//     32,766 px a side, ≈472.9 M px² on 153) with a warning message; a
//     failed draw at scale > 1 is retried at 1 with another warning.
//
// Nothing of this changes what the user sees: no scrolling, no focus
// change, no flash (disableFlash), and it works in background tabs.

// Rect is a rectangle in CSS pixels.
type Rect struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// CaptureInfo is prepareCapture's answer.
type CaptureInfo struct {
	DPR, Zoom float64
	Rect      *Rect    // nil for the viewport
	Messages  []string // Firefox's warnings, in its words
}

type captureMessage struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

type prepareRequest struct {
	Type string `json:"type"`
	Args struct {
		FullPage bool `json:"fullpage,omitempty"`
	} `json:"args"`
}

// PrepareCapture asks the target's screenshot content actor for the
// device-pixel ratio and zoom, and with fullPage the document's rect.
func (c *Client) PrepareCapture(ctx context.Context, t Target, fullPage bool) (CaptureInfo, error) {
	if t.ScreenshotActor == "" {
		return CaptureInfo{}, fmt.Errorf("rdp: prepareCapture: %w", protocolError("target %s has no screenshotContentActor", t.Actor))
	}
	req := prepareRequest{Type: "prepareCapture"}
	req.Args.FullPage = fullPage
	var resp struct {
		Value struct {
			Error     bool             `json:"error"`
			WindowDpr float64          `json:"windowDpr"`
			Zoom      float64          `json:"windowZoom"`
			Rect      *Rect            `json:"rect"`
			Messages  []captureMessage `json:"messages"`
		} `json:"value"`
	}
	if err := c.Request(ctx, t.ScreenshotActor, req, &resp); err != nil {
		return CaptureInfo{}, fmt.Errorf("rdp: prepareCapture on %s: %w", t.ScreenshotActor, err)
	}
	v := resp.Value
	if v.Error {
		return CaptureInfo{}, fmt.Errorf("rdp: prepareCapture on %s: %w", t.ScreenshotActor, protocolError("%s", joinMessages(v.Messages)))
	}
	if v.WindowDpr <= 0 {
		v.WindowDpr = 1
	}
	if v.Zoom <= 0 {
		v.Zoom = 1
	}
	return CaptureInfo{DPR: v.WindowDpr, Zoom: v.Zoom, Rect: v.Rect, Messages: texts(v.Messages)}, nil
}

// CaptureRequest says what to draw.
type CaptureRequest struct {
	BrowsingContextID int64
	Rect              *Rect   // CSS pixels of the top document; nil = the viewport
	FullPage          bool    // draw as if scrolled to the top (fixed elements at their initial place)
	Scale             float64 // image pixels per CSS pixel
}

// Capture is a PNG image Firefox drew.
type Capture struct {
	PNG           []byte
	Width, Height int
	Messages      []string // Firefox's warnings (clamped size, lowered scale)
}

type captureRequest struct {
	Type string `json:"type"`
	Args struct {
		BrowsingContextID int64   `json:"browsingContextID"`
		Rect              *Rect   `json:"rect,omitempty"`
		FullPage          bool    `json:"fullpage,omitempty"`
		SnapshotScale     float64 `json:"snapshotScale"`
		DisableFlash      bool    `json:"disableFlash"`
	} `json:"args"`
}

// Capture draws req through the root screenshot actor, without the camera
// flash. Width and Height are the image's, in pixels.
func (c *Client) Capture(ctx context.Context, req CaptureRequest) (Capture, error) {
	if req.Scale <= 0 {
		return Capture{}, fmt.Errorf("rdp: capture: scale %v", req.Scale)
	}
	actor, err := c.rootScreenshotActor(ctx)
	if err != nil {
		return Capture{}, err
	}
	r := captureRequest{Type: "capture"}
	r.Args.BrowsingContextID, r.Args.Rect, r.Args.FullPage = req.BrowsingContextID, req.Rect, req.FullPage
	r.Args.SnapshotScale, r.Args.DisableFlash = req.Scale, true
	var resp struct {
		Value struct {
			Data     *string          `json:"data"`
			Width    float64          `json:"width"`
			Height   float64          `json:"height"`
			Messages []captureMessage `json:"messages"`
		} `json:"value"`
	}
	if err := c.Request(ctx, actor, r, &resp); err != nil {
		return Capture{}, fmt.Errorf("rdp: capture on %s: %w", actor, err)
	}
	v := resp.Value
	if v.Data == nil {
		return Capture{}, fmt.Errorf("rdp: capture: %w", protocolError("no image: %s", joinMessages(v.Messages)))
	}
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(*v.Data, prefix) {
		return Capture{}, fmt.Errorf("rdp: capture: %w", protocolError("image is not a PNG data URL"))
	}
	png, err := base64.StdEncoding.DecodeString((*v.Data)[len(prefix):])
	if err != nil {
		return Capture{}, fmt.Errorf("rdp: capture: %w", protocolError("image data: %v", err))
	}
	// canvas.width truncates the fractional size Firefox reports.
	return Capture{PNG: png, Width: int(v.Width), Height: int(v.Height), Messages: texts(v.Messages)}, nil
}

// rootScreenshotActor returns the root's screenshotActor (getRoot, once
// per connection).
func (c *Client) rootScreenshotActor(ctx context.Context) (string, error) {
	var actor string
	c.update(func(s *state) { actor = s.rootShot })
	if actor != "" {
		return actor, nil
	}
	var resp struct {
		Screenshot string `json:"screenshotActor"`
	}
	if err := c.Request(ctx, "root", typeOnly{Type: "getRoot"}, &resp); err != nil {
		return "", fmt.Errorf("rdp: getRoot: %w", err)
	}
	if resp.Screenshot == "" {
		return "", fmt.Errorf("rdp: getRoot: %w", protocolError("no screenshotActor"))
	}
	c.update(func(s *state) { s.rootShot = resp.Screenshot })
	return resp.Screenshot, nil
}

func texts(ms []captureMessage) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, cut(m.Text, 500))
	}
	return out
}

func joinMessages(ms []captureMessage) string {
	if len(ms) == 0 {
		return "no message"
	}
	return strings.Join(texts(ms), "; ")
}
