package tools

import (
	"context"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

var hoverTool = tool[hoverArgs, hoverOut]{
	Name: "hover", Title: "Hover element",
	Description: "Move the pointer onto an element like a mouse: mouseenter/mouseover listeners and CSS :hover react. Reports whether :hover applies and what changed.",
	Annotations: Annotations{Idempotent: true, OpenWorld: true},
	Run:         (*Table).hover,
}

type hoverArgs struct {
	Element string `json:"element" min:"2" max:"16" desc:"ref, e.g. e12"`
}

type hoverOut struct {
	said
	acted
	Hovered bool `json:"hovered"`
}

func (tb *Table) hover(ctx context.Context, a *hoverArgs, _ browser.Progress) (hoverOut, error) {
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return hoverOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachPointer); err != nil {
		return hoverOut{}, err
	}
	l := op.Element()
	var r pagejs.ActionResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Hover, pagejs.ClickArgs{Sel: l.Sel(), FP: l.FP(), Ref: l.Node(), At: op.Point(), Watch: true}, &r)
	if err != nil {
		return hoverOut{}, err
	}
	// Menus often open on a short timer after mouseenter: the settle waits for them (up to its cap),
	// and what changed ends the answer.
	urlNow, nav, obs, err := op.End(ctx, r.Before(), browser.DefaultSettleCap, true)
	if err != nil {
		return hoverOut{}, err
	}
	trusted := info.Trusted(r.Trusted)
	var note string
	switch {
	case trusted && r.Hovered:
		note = " CSS :hover applies to it;"
	case trusted:
		note = " CSS :hover does not apply to it (the pointer did not end on it)."
	default:
		note = " Only the page's mouseover/mouseenter listeners saw it; CSS :hover menus do not react to page-script events."
	}
	out := hoverOut{acted: actedOn(a.Element, trusted, urlNow, nav), Hovered: r.Hovered}
	out.text = actionText("Moved the pointer onto", a.Element, trusted, info, urlNow, nav, note, obs)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

var dragTool = tool[dragArgs, dragOut]{
	Name: "drag", Title: "Drag and drop",
	Description: "Drag element onto to like a mouse (press, moves, release): pointer-event libraries and HTML5 drag-and-drop both accept it. Ends with what changed.",
	Annotations: Annotations{Destructive: true, OpenWorld: true},
	Run:         (*Table).drag,
}

type dragArgs struct {
	Element string `json:"element" min:"2" max:"16" desc:"ref to drag"`
	To      string `json:"to" min:"2" max:"16" desc:"ref to drop on"`
}

type dragOut struct {
	said
	acted
	To      string `json:"to"`
	HTML5   bool   `json:"html5"`
	Dropped bool   `json:"dropped"`
}

func (tb *Table) drag(ctx context.Context, a *dragArgs, _ browser.Progress) (dragOut, error) {
	if a.Element == a.To {
		return dragOut{}, browser.Errorf(errcode.InvalidArguments, "element and to are the same element; drag it onto another one")
	}
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return dragOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachPointer); err != nil {
		return dragOut{}, err
	}
	l := op.Element()
	dst, err := op.Locate(a.To)
	if err != nil {
		return dragOut{}, err
	}
	var r pagejs.DragResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Drag, pagejs.DragArgs{Sel: l.Sel(), FP: l.FP(), Ref: l.Node(), To: pagejs.DragTo{Sel: dst.Sel(), FP: dst.FP(), Ref: dst.Node()}}, &r)
	if err != nil {
		return dragOut{}, err
	}
	// Libraries animate and re-render on a timer after the drop: the settle waits for them (up to its cap),
	// and what changed ends the answer.
	urlNow, nav, obs, err := op.End(ctx, r.Before(), browser.DefaultSettleCap, true)
	if err != nil {
		return dragOut{}, err
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
	trusted := info.Trusted(r.Trusted)
	out := dragOut{acted: actedOn(a.Element, trusted, urlNow, nav), To: a.To, HTML5: r.HTML5, Dropped: r.Dropped}
	out.text = actionText("Dragged", a.Element+" onto "+a.To, trusted, info, urlNow, nav, note, obs)
	addObs(obs, &out.said, &out.observed)
	return out, nil
}
