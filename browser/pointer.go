package browser

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

type hoverArgs struct {
	Element string `json:"element"`
}

func (s *Session) hover(ctx context.Context, a *hoverArgs, _ Progress) (Result, error) {
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	var r pagejs.ActionResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.Hover, pagejs.ClickArgs{Sel: l.sel, FP: l.fp}, &r)
	if err != nil {
		return Result{}, err
	}
	// Menus often open on a short timer after mouseenter.
	if err := sleep(ctx, 150*time.Millisecond); err != nil {
		return Result{}, err
	}
	urlNow, nav := s.after(ctx, pg, r.URL)
	text := s.actionText("Moved the pointer onto", a.Element, r.Trusted, info, urlNow, nav)
	switch {
	case r.Trusted && r.Hovered:
		text += " CSS :hover applies to it; take a snapshot to see what appeared."
	case r.Trusted:
		text += " CSS :hover does not apply to it (the pointer did not end on it)."
	default:
		text += " Only the page's mouseover/mouseenter listeners saw it; CSS :hover menus do not react to page-script events."
	}
	return Result{Text: text, Structured: map[string]any{"element": a.Element, "trusted": r.Trusted, "hovered": r.Hovered, "url": urlNow, "navigated": nav}}, nil
}
