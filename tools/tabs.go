package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// noArgs is the argument struct of a tool without arguments.
type noArgs struct{}

type tabInfo struct {
	TabID    string       `json:"tab_id"`
	Index    int          `json:"index"`
	Title    browser.Page `json:"title"`
	URL      browser.Page `json:"url"`
	Selected bool         `json:"selected"`
	// OpenedHere: this server opened the tab (new_tab, or a click), so
	// close_tab may close it.
	OpenedHere bool `json:"opened_here,omitempty"`
}

var browserStatusTool = tool[noArgs, statusOut]{
	Name: "browser_status", Title: "Browser status",
	Description: "Connection to Firefox, the selected tab, the ref generation, uploads, the sandbox, confirmation and whether trusted input is available. Never selects a tab.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true},
	Run:         (*Table).browserStatus,
}

type statusOut struct {
	said
	Connected        bool                `json:"connected"`
	Transport        string              `json:"transport"`
	Host             string              `json:"host,omitempty"`
	Port             uint16              `json:"port,omitempty"`
	Endpoint         string              `json:"endpoint"`
	EndpointWarning  string              `json:"endpoint_warning,omitempty"`
	SelectedTab      *statusTab          `json:"selected_tab"`
	Generation       *uint64             `json:"generation"`
	UploadsEnabled   bool                `json:"uploads_enabled"`
	UploadRoots      int                 `json:"upload_roots"`
	Sandbox          browser.SandboxInfo `json:"sandbox"`
	IsolatedRealm    *realmStatus        `json:"isolated_realm"`
	Version          string              `json:"version"`
	Error            string              `json:"error,omitempty"`
	Firefox          *firefoxStatus      `json:"firefox,omitempty"`
	SelectionCleared string              `json:"selection_cleared,omitempty"`
	Confirmation     confirmStatus       `json:"confirmation"`
}

// confirmStatus is the lock on consequential actions (browser.ConfirmStatus).
type confirmStatus struct {
	Mode              string `json:"mode"`
	Window            bool   `json:"window_available"`
	Program           string `json:"program,omitempty"`
	Problem           string `json:"problem,omitempty"`
	ClientElicitation bool   `json:"client_elicitation"`
	AsksIn            string `json:"asks_in,omitempty"`
}

type statusTab struct {
	TabID string        `json:"tab_id"`
	Title *browser.Page `json:"title,omitempty"`
	URL   *browser.Page `json:"url,omitempty"`
	Error string        `json:"error,omitempty"`
}

type realmStatus struct {
	Available       bool   `json:"available"`
	Reason          string `json:"reason"`
	TrustedClick    bool   `json:"trusted_click"`
	TrustedKeys     bool   `json:"trusted_keys"`
	PrivilegedFiles bool   `json:"privileged_files"`
}

type firefoxStatus struct {
	ApplicationType string `json:"application_type"`
}

func (tb *Table) browserStatus(ctx context.Context, _ *noArgs, _ browser.Progress) (statusOut, error) {
	cfg := tb.opts
	ep := cfg.Endpoint()
	st := statusOut{
		Transport: "unix", Endpoint: ep.String(),
		UploadsEnabled: tb.eng.UploadsEnabled(), UploadRoots: len(cfg.UploadRoots),
		Sandbox: cfg.Sandbox, Version: cfg.Version,
	}
	if ep.WebSocket() {
		st.Transport, st.Host, st.Port, st.EndpointWarning = "ws", cfg.Host, cfg.Addr.Port(), wsWarning
	}
	es, err := tb.eng.Status(ctx)
	if err != nil {
		return statusOut{}, err
	}
	var lines []string
	if !es.Connected {
		st.Error = es.Error
		lines = append(lines, "Not connected: "+es.Error)
	} else {
		st.Connected = true
		st.Firefox = &firefoxStatus{ApplicationType: es.ApplicationType}
		lines = append(lines, "Connected to Firefox at "+ep.String()+".")
		lines = append(lines, selectionStatus(&es, &st))
	}
	if st.EndpointWarning != "" {
		lines = append(lines, "Warning: "+st.EndpointWarning)
	}
	lines = append(lines, fmt.Sprintf("Sandbox: %s (Landlock ABI %d, seccomp %v). Uploads: %s.",
		cfg.Sandbox.Mode, cfg.Sandbox.LandlockABI, cfg.Sandbox.Seccomp, uploadsLine(st.UploadsEnabled, len(cfg.UploadRoots))))
	lines = append(lines, confirmLine(tb.eng.ConfirmStatus(ctx), &st.Confirmation))
	st.text = strings.Join(lines, "\n")
	return st, nil
}

// wsWarning is what browser_status says of a ws: endpoint.
const wsWarning = "the ws: debugger endpoint is reachable by every web page the user opens on a loopback origin (Firefox checks no Origin), " +
	"and such a page can take control of the browser; start Firefox with --start-debugger-server on a Unix socket (firefox-rdp-mcp setup)"

// confirmLine says who answers the lock on consequential actions for this
// client and whether a window can be shown.
func confirmLine(cs browser.ConfirmStatus, out *confirmStatus) string {
	*out = confirmStatus{Mode: cs.Mode, Window: cs.Window, Program: cs.Program, Problem: cs.Problem,
		ClientElicitation: cs.ClientElicitation, AsksIn: cs.AsksIn}
	const actions = "payments, deletions, secret changes and submissions"
	switch {
	case cs.Mode == browser.ConfirmOff:
		return "Confirmation: OFF (FIREFOX_MCP_CONFIRM=off, a development build): " + actions + " run without asking the user."
	case cs.AsksIn == browser.ConfirmedInClient:
		return "Confirmation: elicit; " + actions + " wait for the user's yes in this MCP client (an elicitation request, which this client declared it shows to the user)."
	case cs.AsksIn == browser.ConfirmedInWindow && cs.Mode == browser.ConfirmElicit:
		return fmt.Sprintf("Confirmation: elicit, but this MCP client did not declare elicitation (or the call used the 2026-07-28 revision, which has none): %s wait for the user's yes in a %s window.", actions, cs.Program)
	case cs.Window:
		return fmt.Sprintf("Confirmation: %s; %s wait for the user's yes in a %s window.", cs.Mode, actions, cs.Program)
	}
	return fmt.Sprintf("Confirmation: %s, but no window can be shown (%s): such actions fail with confirmation_unavailable.", cs.Mode, cs.Problem)
}

// selectionStatus fills in the selected tab and its realm, and says it.
func selectionStatus(es *browser.Status, st *statusOut) string {
	sel := es.Selected
	if sel == nil {
		if es.Lost != "" {
			st.SelectionCleared = es.Lost
			return "No tab selected: " + es.Lost + "."
		}
		return "No tab selected: page tools will use the active tab of the most recently used window (select_tab picks one)."
	}
	gen := sel.Generation
	st.SelectedTab, st.Generation = &statusTab{TabID: sel.TabID}, &gen
	if sel.NoDocument {
		st.SelectedTab.Error = "the tab's document is not available right now"
		return fmt.Sprintf("Selected %s, generation %d (document not available).", sel.TabID, gen)
	}
	title, u := browser.PageTitle(sel.Title), browser.PageURL(sel.URL)
	st.SelectedTab.Title, st.SelectedTab.URL = &title, &u
	r := sel.Realm
	st.IsolatedRealm = &realmStatus{Available: r.Available, Reason: r.Reason,
		TrustedClick: r.TrustedClick, TrustedKeys: r.TrustedKeys, PrivilegedFiles: r.PrivilegedFiles}
	trust := "trusted input available"
	if !r.Available {
		trust = "page-realm fallback: " + r.Reason
	}
	return fmt.Sprintf("Selected %s, generation %d (%s).", sel.TabID, gen, trust)
}

func uploadsLine(enabled bool, roots int) string {
	switch {
	case !enabled:
		return "disabled (set FIREFOX_MCP_UPLOAD_ROOTS)"
	case roots == 0:
		return "enabled for any readable file"
	}
	return "enabled beneath " + browser.Plural(roots, "root", "roots")
}

var listTabsTool = tool[noArgs, listTabsOut]{
	Name: "list_tabs", Title: "List tabs",
	Description: "The user's ordinary tabs in tab-strip order: tab_id (stable across navigations), title, URL, selected, opened by this server.",
	Annotations: Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).listTabs,
}

type listTabsOut struct {
	said
	Tabs  []tabInfo `json:"tabs"`
	Total int       `json:"total,omitempty"` // set when more tabs are open than listed
}

func (tb *Table) listTabs(ctx context.Context, _ *noArgs, _ browser.Progress) (listTabsOut, error) {
	tabs, err := tb.eng.ListTabs(ctx)
	if err != nil {
		return listTabsOut{}, err
	}
	shown := tabs[:min(len(tabs), maxListedTabs)]
	out := make([]tabInfo, len(shown))
	w := browser.NewUntrusted()
	for i, t := range shown {
		out[i] = tabInfo{TabID: browser.TabID(t.BrowserID), Index: i, Title: browser.PageStrN(t.Title, 80), URL: browser.PageStrN(t.URL, 120), Selected: t.Selected, OpenedHere: t.OpenedHere}
		mark := " "
		if out[i].Selected {
			mark = "*"
		}
		if out[i].OpenedHere {
			mark += "+"
		} else {
			mark += " "
		}
		w.Line(fmt.Sprintf("%s%d %s %s %s", mark, i, out[i].TabID, browser.Quote(t.Title, 80), browser.Quote(t.URL, 120)))
	}
	res := listTabsOut{Tabs: out}
	res.text = browser.Plural(len(tabs), "tab", "tabs") + " (* = selected, + = opened by this server):\n" + w.String()
	if len(shown) < len(tabs) {
		res.Total = len(tabs)
		res.text += fmt.Sprintf("\nThe first %d of %d tabs are listed; select_tab takes any index.", len(shown), len(tabs))
	}
	return res, nil
}

// maxListedTabs bounds list_tabs' answer (docs/limits.md): a tab is at most
// ≈4 KiB of it (title and URL cut to 80 and 120 runes, shown twice).
const maxListedTabs = 1000

var selectTabTool = tool[selectTabArgs, selectTabOut]{
	Name: "select_tab", Title: "Select tab",
	Description: "Choose the tab page tools act on, by tab_id or index; starts a new ref generation; does not bring it to the front. Until then, page tools use the active tab of the last-used window and say which.",
	Annotations: Annotations{Idempotent: true},
	Run:         (*Table).selectTab,
}

type selectTabArgs struct {
	TabID *string  `json:"tab_id" min:"1" max:"64" desc:"from list_tabs, e.g. tab-9"`
	Index *int     `json:"index" min:"0" max:"100000" desc:"position in list_tabs"`
	_     struct{} `oneof:"tab_id,index" msg:"give exactly one of tab_id or index"`
}

type selectTabOut struct {
	said
	TabID      string       `json:"tab_id"`
	Index      int          `json:"index"`
	Title      browser.Page `json:"title"`
	URL        browser.Page `json:"url"`
	Generation uint64       `json:"generation"`
	Document   *bool        `json:"document,omitempty"`
}

func (tb *Table) selectTab(ctx context.Context, a *selectTabArgs, _ browser.Progress) (selectTabOut, error) {
	sel, err := tb.eng.SelectTab(ctx, func(tabs []rdp.Tab) (int, error) { return tabIndex(tabs, a) })
	if err != nil {
		return selectTabOut{}, err
	}
	id := browser.TabID(sel.BrowserID)
	out := selectTabOut{TabID: id, Index: sel.Index, Title: browser.PageTitle(sel.Title), URL: browser.PageURL(sel.URL), Generation: sel.Generation}
	u := browser.NewUntrusted()
	u.Field("Page", sel.Title, 200)
	u.Field("URL", sel.URL, 500)
	if sel.NoDocument {
		no := false
		out.Document = &no
		out.text = fmt.Sprintf("Selected %s (index %d), generation %d, but it shows no document this server can reach (say, after a redirect to a file: or about: URL); navigate it to an http(s) URL.\n%s",
			id, sel.Index, sel.Generation, u.String())
		return out, nil
	}
	out.text = fmt.Sprintf("Selected %s (index %d), generation %d.\n%s", id, sel.Index, sel.Generation, u.String())
	return out, nil
}

// tabIndex finds the tab a select_tab call names.
func tabIndex(tabs []rdp.Tab, a *selectTabArgs) (int, error) {
	if a.Index != nil {
		if *a.Index >= len(tabs) {
			return 0, browser.Errorf(errcode.TabNotFound, "there is no tab at index %d (%s open); call list_tabs", *a.Index, browser.Plural(len(tabs), "tab is", "tabs are"))
		}
		return *a.Index, nil
	}
	id, ok := browser.ParseTabID(*a.TabID)
	for i, t := range tabs {
		if ok && t.BrowserID == id {
			return i, nil
		}
	}
	return 0, browser.Errorf(errcode.TabNotFound, "no open tab has tab_id %q; call list_tabs", browser.Truncate(*a.TabID, 64))
}

// tablessTools work without a selected tab; every other tool acts on one,
// and when none was selected, Table.Call selects the active one first.
var tablessTools = map[string]bool{"browser_status": true, "list_tabs": true, "select_tab": true, "new_tab": true, "close_tab": true}
