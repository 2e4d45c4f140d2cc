package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

var scrollTool = tool[scrollArgs, scrollOut]{
	Name: "scroll", Title: "Scroll",
	Description: "Scroll the page or an element's container by pages like a mouse wheel (lazy feeds load more), or to top/bottom; element alone scrolls it into view. Reports positions, whether it can go further, and what changed.",
	Annotations: Annotations{OpenWorld: true},
	Run:         (*Table).scroll,
}

// scrollArgs: direction and pages have no schema default, because giving
// either (or neither) chooses the mode; scrollMode fills them in.
type scrollArgs struct {
	Element   *string `json:"element" min:"2" max:"16" desc:"element ref"`
	Direction *string `json:"direction" enum:"up,down,left,right" desc:"which way; default down"`
	Pages     *int    `json:"pages" min:"1" max:"20" desc:"viewport pages; default 1"`
	To        *string `json:"to" enum:"top,bottom" desc:"instead of direction"`
	Observe   bool    `json:"observe" default:"true" desc:"false: omit what changed"`
}

// scrollOut is scroll's result, by pages or to an end; into view fills
// only element, moved, in_view, url and navigated.
type scrollOut struct {
	said
	observed
	Element          string            `json:"element,omitempty"`
	Container        *browser.Page     `json:"container,omitempty"`
	Direction        string            `json:"direction,omitempty"`
	How              string            `json:"how,omitempty"`
	Trusted          *bool             `json:"trusted,omitempty"`
	Moved            bool              `json:"moved"`
	InView           *bool             `json:"in_view,omitempty"`
	Before           *pagejs.ScrollPos `json:"before,omitempty"`
	After            *pagejs.ScrollPos `json:"after,omitempty"`
	Later            *pagejs.ScrollPos `json:"later,omitempty"`
	CanScrollFurther *bool             `json:"can_scroll_further,omitempty"`
	URL              browser.Page      `json:"url"`
	Navigated        bool              `json:"navigated"`
}

// scrollSettle is the longest scroll lets the page react (lazy loading,
// virtual lists) before measuring the container again and telling what
// changed: the settle ends as soon as the page is quiet.
const scrollSettle = 300 * time.Millisecond

// scrollMode turns the arguments into the page script's, or says what is
// wrong with them.
func scrollMode(a *scrollArgs) (pagejs.ScrollArgs, error) {
	var p pagejs.ScrollArgs
	switch {
	case a.To != nil && (a.Direction != nil || a.Pages != nil):
		return p, browser.Errorf(errcode.InvalidArguments, "to (top or bottom) goes with neither direction nor pages")
	case a.To != nil:
		p.Mode, p.To, p.Direction = "to", *a.To, "down"
		if *a.To == "top" {
			p.Direction = "up"
		}
	case a.Direction != nil || a.Pages != nil:
		p.Mode, p.Direction, p.Pages = "by", "down", 1
		if a.Direction != nil {
			p.Direction = *a.Direction
		}
		if a.Pages != nil {
			p.Pages = *a.Pages
		}
	case a.Element != nil:
		p.Mode = "into"
	default:
		return p, browser.Errorf(errcode.InvalidArguments, "give direction (and pages), to, or an element to scroll into view")
	}
	return p, nil
}

func (tb *Table) scroll(ctx context.Context, a *scrollArgs, _ browser.Progress) (scrollOut, error) {
	args, err := scrollMode(a)
	if err != nil {
		return scrollOut{}, err
	}
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return scrollOut{}, err
	}
	defer op.Release()
	what := "the page"
	if a.Element != nil {
		l, err := op.Use(*a.Element) // in its frame's document, when it is in one
		if err != nil {
			return scrollOut{}, err
		}
		fp := l.FP()
		args.Sel, args.FP, args.Ref = l.Sel(), &fp, l.Node()
	}
	var r pagejs.ScrollResult
	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Scroll, args, &r)
	if err != nil {
		return scrollOut{}, err
	}
	if args.Mode == "into" {
		urlNow, nav, obs, err := op.End(ctx, "", scrollSettle, a.Observe)
		if err != nil {
			return scrollOut{}, err
		}
		out := scrolledIntoView(*a.Element, &r, urlNow, nav, obs)
		addObs(obs, &out.said, &out.observed)
		return out, nil
	}
	urlNow, nav, obs, later, err := settleScroll(ctx, op, args, &r, a.Observe)
	if err != nil {
		return scrollOut{}, err
	}
	u := browser.NewUntrusted()
	if r.Container != "" {
		what = "the scrollable container of " + *a.Element + " (named below)"
		u.Field("Container", r.Container, 80)
	}
	text := scrollText(what, args, &r, info, later)
	if nav {
		text += navNote(obs)
		u.Field("URL", urlNow, 300)
	}
	if !u.Empty() {
		text += "\n" + u.String()
	}
	container, trusted, further := browser.PageStr(r.Container), info.Trusted(r.Trusted), canGoOn(args.Direction, later)
	out := scrollOut{
		Container: &container, Direction: args.Direction, How: r.How, Trusted: &trusted,
		Moved: r.After.Pos != r.Before.Pos, Before: &r.Before, After: &r.After, Later: &later,
		CanScrollFurther: &further, URL: browser.PageURL(urlNow), Navigated: nav,
	}
	out.text = text
	addObs(obs, &out.said, &out.observed)
	return out, nil
}

// settleScroll waits, after a scroll that moved, until the page is quiet
// (at most scrollSettle), measures the container again (later), and reads
// where it is and what changed (EndMeasured): content that loaded during the
// settle is in the answer. A page that showed no change by
// then may load more on a timer (a throttled scroll handler): it is given
// the rest of scrollSettle to start changing, and read again (all waits
// together stay within scrollSettle). Without the observation nothing
// tells that there was no change, and there is no second look. Only a new
// document is a new generation: a URL the page changes as it is scrolled
// (a table of contents that follows the reading position) is no route of
// the agent's, and the observation says it. (A call cancelled during the
// second look loses the first one's news of a URL change.)
func settleScroll(ctx context.Context, op *browser.Op, args pagejs.ScrollArgs, r *pagejs.ScrollResult, observe bool) (urlNow string, nav bool, obs *browser.Observation, later pagejs.ScrollPos, err error) {
	start := time.Now()
	limit := scrollSettle
	measure := func() pagejs.ScrollPos {
		margs := args
		margs.Mode = "measure"
		var m pagejs.ScrollResult
		if _, err := op.Run(ctx, browser.ReadRealm, pagejs.Scroll, margs, &m); err == nil {
			return m.After
		}
		return r.After
	}
	for pass := 0; ; pass++ {
		first := obs
		// The container is measured before the page is read: what grew by then
		// is in the observation.
		if urlNow, nav, obs, err = op.EndMeasured(ctx, limit, observe, func() { later = measure() }); err != nil {
			return
		}
		obs.Follow(first)
		left := scrollSettle - time.Since(start)
		if pass > 0 || nav || r.After.Pos == r.Before.Pos || later.Size > r.After.Size || !obs.Unchanged() || left <= 0 {
			return
		}
		if err = op.PauseForChange(ctx, left); err != nil {
			return
		}
		limit = max(scrollSettle-time.Since(start), 0)
	}
}

// navNote is the sentence a scroll after which the page changed (a new
// generation) adds.
func navNote(obs *browser.Observation) string {
	if obs != nil {
		return " The page changed (its URL is below): all earlier refs are now stale; the new page's elements follow."
	}
	return " The page changed (its URL is below): all earlier refs are now stale, take a new snapshot."
}

func canGoOn(dir string, p pagejs.ScrollPos) bool {
	if dir == "up" || dir == "left" {
		return p.Pos > 0
	}
	return p.Pos < p.Max
}

func scrollText(what string, a pagejs.ScrollArgs, r *pagejs.ScrollResult, info browser.ExecInfo, later pagejs.ScrollPos) string {
	axis := "y"
	if a.Direction == "left" || a.Direction == "right" {
		axis = "x"
	}
	how := "by page script, not a trusted wheel"
	if a.Mode == "to" {
		how = "in one jump, as the Home and End keys do"
	}
	switch {
	case r.How == "wheel":
		how = "with a trusted wheel event"
	case a.Mode == "by" && r.Hidden:
		how += " (the tab is in the background, where Firefox runs no smooth scrolling)"
	case info.Reason() != "":
		how += " (" + info.Reason() + ")"
	}
	step := a.Direction + " " + browser.Plural(a.Pages, "page", "pages")
	if a.Mode == "to" {
		step = "to the " + a.To
	}
	var t string
	if r.After.Pos == r.Before.Pos {
		t = fmt.Sprintf("Could not scroll %s %s: it is already there (%s %d of %d).", what, step, axis, r.After.Pos, r.After.Max)
	} else {
		t = fmt.Sprintf("Scrolled %s %s %s: %s %d → %d of %d (view %d px, content %d px).",
			what, step, how, axis, r.Before.Pos, r.After.Pos, r.After.Max, r.After.View, r.After.Size)
	}
	if later.Pos != r.After.Pos && later.Size == r.After.Size && r.After.Pos != r.Before.Pos {
		// Seen on a page with a virtualized list: back to where an earlier
		// action had scrolled it (cause not pinned down; not on plain pages).
		t += fmt.Sprintf(" Then it moved to %s %d by itself, not by this scroll.", axis, later.Pos)
	}
	if later.Size > r.After.Size {
		t += fmt.Sprintf(" More content loaded: it grew from %d to %d px while the page settled.", r.After.Size, later.Size)
	}
	if canGoOn(a.Direction, later) {
		t += " It can scroll further " + a.Direction + "."
	} else {
		t += " It cannot scroll further that way."
	}
	return t
}

func scrolledIntoView(ref string, r *pagejs.ScrollResult, urlNow string, nav bool, obs *browser.Observation) scrollOut {
	var t string
	switch {
	case r.Moved:
		t = fmt.Sprintf("Scrolled %s into view (the content moved %d px vertically, %d px horizontally).", ref, r.DY, r.DX)
	case r.InView:
		t = ref + " was already in view; nothing moved."
	default:
		t = ref + " could not be scrolled into view (nothing moved)."
	}
	if !r.InView && r.Moved {
		t += " It is still outside the viewport (a fixed or clipped layout)."
	}
	if nav {
		t += navNote(obs) + "\n" + browser.Marked("URL", urlNow, 300)
	}
	out := scrollOut{Element: ref, Moved: r.Moved, InView: &r.InView, URL: browser.PageURL(urlNow), Navigated: nav}
	out.text = t
	return out
}
