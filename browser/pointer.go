package browser

import (
	"context"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
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
	info, err := s.exec(ctx, pg, actionRealm, pagejs.Hover, pagejs.ClickArgs{Sel: l.sel, FP: l.fp, Ref: boundRef(l)}, &r)
	if err != nil {
		return Result{}, err
	}
	// Menus often open on a short timer after mouseenter: the settle waits for them (up to its cap),
	// and what changed ends the answer.
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, defaultSettleCap, true)
	if err != nil {
		return Result{}, err
	}
	var note string
	switch {
	case r.Trusted && r.Hovered:
		note = " CSS :hover applies to it;"
	case r.Trusted:
		note = " CSS :hover does not apply to it (the pointer did not end on it)."
	default:
		note = " Only the page's mouseover/mouseenter listeners saw it; CSS :hover menus do not react to page-script events."
	}
	text := s.actionText("Moved the pointer onto", a.Element, r.Trusted, info, urlNow, nav, note, obs)
	res := Result{Text: text, Structured: map[string]any{"element": a.Element, "trusted": r.Trusted, "hovered": r.Hovered, "url": pageStr(urlNow), "navigated": nav}}
	obs.add(&res)
	return res, nil
}

type dragArgs struct {
	Element string `json:"element"`
	To      string `json:"to"`
}

func (s *Session) drag(ctx context.Context, a *dragArgs, _ Progress) (Result, error) {
	if a.Element == a.To {
		return Result{}, errorf(errcode.InvalidArguments, "element and to are the same element; drag it onto another one")
	}
	pg, l, release, err := s.acting(ctx, a.Element)
	if err != nil {
		return Result{}, err
	}
	defer release()
	dst, err := s.target(pg, a.To)
	if err != nil {
		return Result{}, err
	}
	var r pagejs.DragResult
	info, err := s.exec(ctx, pg, actionRealm, pagejs.Drag, pagejs.DragArgs{Sel: l.sel, FP: l.fp, Ref: boundRef(l), To: pagejs.DragTo{Sel: dst.sel, FP: dst.fp, Ref: boundRef(dst)}}, &r)
	if err != nil {
		return Result{}, err
	}
	// Libraries animate and re-render on a timer after the drop: the settle waits for them (up to its cap),
	// and what changed ends the answer.
	urlNow, nav, obs, err := s.endAction(ctx, pg, r.URL, defaultSettleCap, true)
	if err != nil {
		return Result{}, err
	}
	var note string
	switch {
	case r.Cancelled:
		note = " The page cancelled the drag at its start (dragstart)."
	case r.HTML5 && r.Dropped:
		note = " It became an HTML5 drag and the page accepted the drop."
	case r.HTML5:
		note = " It became an HTML5 drag, but the page did not accept a drop there (no dragover handler allowed it)."
	default:
		note = " A pointer drag (press, moves, release); the page did not start an HTML5 drag."
	}
	text := s.actionText("Dragged", a.Element+" onto "+a.To, r.Trusted, info, urlNow, nav, note, obs)
	res := Result{Text: text, Structured: map[string]any{
		"element": a.Element, "to": a.To, "trusted": r.Trusted, "html5": r.HTML5, "dropped": r.Dropped,
		"url": pageStr(urlNow), "navigated": nav,
	}}
	obs.add(&res)
	return res, nil
}
