package tools

import (
	"context"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// navigateHistory is navigate {history}: back, forward or reload in the
// selected tab (browser.Op.GoHistory), with the same waits and generation
// rules as navigate {url}.
func (tb *Table) navigateHistory(ctx context.Context, a *navigateArgs, _ browser.Progress) (navigateOut, error) {
	action := *a.History
	wait, timeout := a.waits()
	op, err := tb.eng.Page(ctx)
	if err != nil {
		return navigateOut{}, err
	}
	defer op.Release()
	nav, err := op.GoHistory(ctx, action, wait, timeout)
	if err != nil {
		return navigateOut{}, err
	}
	verb := map[string]string{"back": "Went back", "forward": "Went forward", "reload": "Reloaded the page"}[action]
	text := fmt.Sprintf("%s in %s to history entry %d of %d (generation %d); its URL is below.", verb, op.TabID(), nav.Index+1, nav.Count, nav.Generation)
	if wait == "none" {
		text = fmt.Sprintf("%s in %s: started loading history entry %d of %d (not waited for; generation %d); its URL is below.", verb, op.TabID(), nav.Index+1, nav.Count, nav.Generation)
	}
	st := navigateOut{History: action, URL: browser.PageURL(nav.URL), Generation: nav.Generation, Waited: wait, Index: &nav.Index, Count: &nav.Count}
	u := browser.NewUntrusted()
	if nav.Title != "" {
		t := browser.PageTitle(nav.Title)
		st.Title = &t
		u.Field("Page", nav.Title, 200)
	}
	u.Field("URL", nav.URL, 500)
	st.text = text + "\n" + u.String()
	if wait != "none" && a.Observe {
		addObs(op.ObserveNavigation(ctx), &st.said, &st.observed)
	}
	return st, nil
}
