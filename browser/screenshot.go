package browser

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// shot is what one capture covers, in CSS pixels of the top document.
type shot struct {
	what     string    // "viewport", "full page", "element e12"
	rect     *rdp.Rect // nil = the viewport
	w, h     float64   // CSS size
	fullPage bool
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

// measureWait bounds Measure (docs/limits.md: a looping page is
// page_unresponsive within 5 s).
const measureWait = 5 * time.Second

// Area is what a screenshot will cover, measured in CSS pixels of the top
// document, and the device's natural scale (device pixel ratio × zoom).
type Area struct {
	What    string // "viewport", "full page", "element e12"
	W, H    float64
	Natural float64
	t       rdp.Target
	sh      shot
	navs    uint64
}

// Measure works out what a screenshot of the Op's tab covers: the whole
// page (full), the element l (nil: none) or the viewport.
func (o *Op) Measure(ctx context.Context, l *Locator, full bool) (Area, error) {
	pg := o.pg
	navs := pg.sel.watch.Navigations()
	if l != nil {
		pg = inFrame(pg, l) // an element in a frame: that frame's document is captured
	}
	t, err := o.s.docTarget(ctx, pg)
	if err != nil {
		return Area{}, err
	}
	// The page's content process answers prepareCapture; a page stuck in a
	// script holds it, so past measureWait the page is unresponsive (past
	// stuckAck when it was found so lately: ackFor).
	wait := min(measureWait, o.s.ackFor(t.ConsoleActor))
	mctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	info, sh, err := o.s.prepare(mctx, pg, t, l, full)
	if err != nil && ctx.Err() == nil && mctx.Err() != nil {
		o.s.acked(t.ConsoleActor, wait, false)
		return Area{}, pageUnresponsive()
	}
	if err == nil {
		o.s.acked(t.ConsoleActor, wait, true)
	}
	if err != nil {
		return Area{}, replacedIfNavigated(pg, navs, err)
	}
	return Area{What: sh.what, W: sh.w, H: sh.h, Natural: info.DPR * info.Zoom, t: t, sh: sh, navs: navs}, nil
}

// Capture takes the screenshot of a at scale (device pixels per CSS
// pixel); Firefox neither scrolls nor flashes the tab.
func (o *Op) Capture(ctx context.Context, a Area, scale float64) (rdp.Capture, error) {
	capt, err := o.pg.c.Capture(ctx, rdp.CaptureRequest{BrowsingContextID: a.t.BrowsingContextID, Rect: a.sh.rect, FullPage: a.sh.fullPage, Scale: scale})
	if err != nil {
		return capt, replacedIfNavigated(o.pg, a.navs, err)
	}
	return capt, nil
}
