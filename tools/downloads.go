package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

var listDownloadsTool = tool[noArgs, listDownloadsOut]{
	Name: "list_downloads", Title: "List downloads",
	Description: "Downloads since this server started, newest first (50; no private windows'): file name, size, type, state, saved path, source origin. Firefox saves them; the server reads no file.",
	Annotations: Annotations{ReadOnly: true, OpenWorld: true},
	Run:         (*Table).listDownloads,
}

type listDownloadsOut struct {
	said
	Downloads []downloadInfo `json:"downloads"`
	Total     int            `json:"total"`
}

// downloadInfo is one download as list_downloads shows it; the names, type,
// path and origin come from the page or its server.
type downloadInfo struct {
	Name     browser.Page `json:"name"`
	Size     *int64       `json:"size,omitempty"`
	Received int64        `json:"received,omitempty"`
	Type     browser.Page `json:"type"`
	State    string       `json:"state"`
	Failed   string       `json:"failed,omitempty"`
	Path     browser.Page `json:"path"`
	Origin   browser.Page `json:"origin"`
	TabID    string       `json:"tab_id,omitempty"`
	Started  string       `json:"started"`
}

func (tb *Table) listDownloads(ctx context.Context, _ *noArgs, _ browser.Progress) (listDownloadsOut, error) {
	op, err := tb.eng.Watching(ctx) // the download manager answers while a dialog is open
	if err != nil {
		return listDownloadsOut{}, err
	}
	list, total, err := op.Downloads(ctx)
	if err != nil {
		return listDownloadsOut{}, err
	}
	out := listDownloadsOut{Downloads: make([]downloadInfo, len(list)), Total: total}
	u := browser.NewUntrusted()
	for i, d := range list {
		info := downloadInfo{Name: browser.PageStrN(d.Name, 300), Type: browser.PageStrN(d.Type, 100), State: d.State, Failed: d.Failed,
			Path: browser.PageStrN(d.Path, 1000), Origin: browser.PageStrN(d.Origin, 300), TabID: d.Tab, Started: d.Started.UTC().Format(time.RFC3339)}
		if d.Size >= 0 {
			info.Size = &d.Size
		}
		if d.State != "finished" {
			info.Received = d.Received
		}
		out.Downloads[i] = info
		u.Line(browser.Quote(d.Name, 200) + ": " + d.Summary() + "; from " + browser.Quote(d.Origin, 200) + tabOf(d.Tab))
		u.Field("  saved as", d.Path, 1000)
	}
	head := "No download started since this server did."
	if total > 0 {
		head = fmt.Sprintf("%s since this server started, newest first", browser.Plural(total, "download", "downloads"))
		if total > len(list) {
			head += fmt.Sprintf(" (the %d newest shown)", len(list))
		}
		head += ":\n" + u.String()
	}
	out.text = head
	return out, nil
}

// tabOf names the tab a download came from, when known.
func tabOf(tab string) string {
	if tab == "" {
		return ""
	}
	return " in " + tab
}
