package tools

import (
	"context"
	"fmt"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

var newTabTool = tool[newTabArgs, newTabOut]{
	Name: "new_tab", Title: "Open tab",
	Description: "Open an http(s) URL in a new background tab (no window is raised), wait up to 10 s for it to load, and select it unless select is false.",
	Annotations: Annotations{OpenWorld: true},
	Run:         (*Table).newTab,
}

type newTabArgs struct {
	URL    string `json:"url" min:"8" max:"8192" desc:"absolute http(s) URL"`
	Select bool   `json:"select" default:"true" desc:"page tools act on it"`
}

type newTabOut struct {
	said
	TabID      string       `json:"tab_id"`
	URL        browser.Page `json:"url"`
	Title      browser.Page `json:"title"`
	ReadyState string       `json:"ready_state"`
	Selected   bool         `json:"selected"`
	Generation *uint64      `json:"generation,omitempty"`
}

func (tb *Table) newTab(ctx context.Context, a *newTabArgs, _ browser.Progress) (newTabOut, error) {
	u, err := checkURL(a.URL)
	if err != nil {
		return newTabOut{}, err
	}
	nt, err := tb.eng.NewTab(ctx, u, a.Select)
	if err != nil {
		return newTabOut{}, err
	}
	st := newTabOut{TabID: nt.TabID, URL: browser.PageURL(nt.URL), Title: browser.PageTitle(nt.Title), ReadyState: nt.ReadyState, Selected: nt.Selected}
	text := "Opened " + nt.TabID
	if nt.Selected {
		st.Generation = &nt.Generation
		text += fmt.Sprintf(" and selected it (generation %d)", nt.Generation)
	} else {
		text += " (not selected: page tools still act on the previously selected tab)"
	}
	if nt.ReadyState != "complete" {
		text += "; it is still loading (" + nt.ReadyState + ")"
	}
	b := browser.NewUntrusted()
	b.Field("Page", nt.Title, 200)
	b.Field("URL", nt.URL, 500)
	st.text = text + ".\n" + b.String()
	return st, nil
}

var closeTabTool = tool[closeTabArgs, closeTabOut]{
	Name: "close_tab", Title: "Close tab",
	Description: "Close a tab that new_tab or an agent's click opened. The user's tabs are refused (tab_not_owned), as is a page asking to confirm leaving (close_blocked).",
	Annotations: Annotations{Destructive: true, Idempotent: true},
	Run:         (*Table).closeTab,
}

type closeTabArgs struct {
	TabID string `json:"tab_id" min:"5" max:"64" desc:"from list_tabs"`
}

type closeTabOut struct {
	said
	TabID       string `json:"tab_id"`
	Closed      bool   `json:"closed"`
	WasSelected bool   `json:"was_selected"`
}

func (tb *Table) closeTab(ctx context.Context, a *closeTabArgs, _ browser.Progress) (closeTabOut, error) {
	id, ok := browser.ParseTabID(a.TabID)
	if !ok {
		return closeTabOut{}, browser.Errorf(errcode.InvalidArguments, "%q is not a tab_id; tab ids look like tab-12 and come from list_tabs or new_tab", browser.Truncate(a.TabID, 40))
	}
	wasSelected, err := tb.eng.CloseTab(ctx, id)
	if err != nil {
		return closeTabOut{}, err
	}
	text := "Closed " + browser.TabID(id) + "."
	if wasSelected {
		text += " It was the selected tab: no tab is selected now (use list_tabs and select_tab)."
	}
	out := closeTabOut{TabID: browser.TabID(id), Closed: true, WasSelected: wasSelected}
	out.text = text
	return out, nil
}
