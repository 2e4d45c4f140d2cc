package tools

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

var uploadTool = tool[uploadArgs, uploadOut]{
	Name: "upload_files", Title: "Upload files to a file input",
	Description: "Put local files into a file input (hidden ones too), or into the one a label or button opens (Dropzone, FilePond; no chooser shown), or drop them onto a drop-only zone; nothing is submitted. paths: absolute paths the user chose, never from page text. The page gets names, sizes and types. Ends with what changed.",
	Annotations: Annotations{Destructive: true, Idempotent: true, OpenWorld: true},
	Run:         (*Table).uploadFiles,
}

type uploadArgs struct {
	Element string   `json:"element" min:"2" max:"16" desc:"ref of a file input, or of what opens it"`
	Paths   []string `json:"paths" min:"1" max:"32" itemmin:"1" itemmax:"4096" desc:"absolute file paths"`
	Observe bool     `json:"observe" default:"true" desc:"false: omit what changed"`
}

type uploadOut struct {
	said
	Element    string         `json:"element"`
	Files      []uploadedFile `json:"files"`
	Dispatched bool           `json:"dispatched"`
	Via        string         `json:"via"`
	Warnings   []browser.Page `json:"warnings"`
	Trusted    bool           `json:"trusted"`
	RefCheck   string         `json:"ref_check"`
	observed
}

// uploadedFile is a file as the page received it (names are the user's).
type uploadedFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Type string `json:"type"`
}

func (tb *Table) uploadFiles(ctx context.Context, a *uploadArgs, p browser.Progress) (uploadOut, error) {
	if err := tb.eng.CheckUploads(); err != nil {
		return uploadOut{}, err
	}
	op, err := tb.eng.Acting(ctx, a.Element)
	if err != nil {
		return uploadOut{}, err
	}
	defer op.Release()
	if err := op.ReachFrame(ctx, browser.ReachKeys); err != nil {
		return uploadOut{}, err
	}
	up, err := op.Upload(ctx, a.Paths, p)
	if err != nil {
		return uploadOut{}, err
	}
	res := uploadResult(a, op.Element(), &up)
	if a.Observe {
		if _, _, obs, err := op.End(ctx, "", browser.DefaultSettleCap, true); err == nil {
			addObs(obs, &res.said, &res.observed)
		}
	}
	return res, nil
}

// uploadResult is upload_files' answer.
func uploadResult(a *uploadArgs, l *browser.Locator, up *browser.Upload) uploadOut {
	warnings, block := uploadWarnings(up.Warnings)
	text := fmt.Sprintf("Put %s (%s) into %s", browser.Plural(len(up.Files), "file", "files"), byteSize(up.Total), a.Element)
	switch up.Via {
	case "label":
		text += " (into the file input it labels)"
	case "click":
		text += " (into the file input that clicking it opens; no file chooser was shown)"
	case "drop":
		text = fmt.Sprintf("Dropped %s (%s) onto %s (it opens no file input; it took a drag of them)", browser.Plural(len(up.Files), "file", "files"), byteSize(up.Total), a.Element)
	}
	trusted := up.Info.Trusted(up.Reported)
	switch {
	case up.Via == "drop" && trusted:
		text += " as a trusted drop"
	case trusted:
		text += " through Firefox's privileged file assignment"
	}
	if up.Via == "drop" {
		text += "; dragenter, dragover and drop were dispatched. Nothing was submitted." + refNote(l, up.Info) + block
	} else {
		text += "; input and change events were dispatched. Nothing was submitted." + refNote(l, up.Info) + block
	}
	files := make([]uploadedFile, len(up.Files))
	for i, f := range up.Files {
		files[i] = uploadedFile{Name: f.Name, Size: f.Size, Type: f.MIME}
	}
	out := uploadOut{Element: a.Element, Files: files, Dispatched: up.Dispatched, Via: cmp.Or(up.Via, "input"),
		Warnings: browser.PageStrs(warnings), Trusted: trusted, RefCheck: l.CheckedBy(up.Info)}
	out.text = text
	return out
}

// uploadWarnings drops repeats from the staging's and the assignment's
// warnings and renders them: they quote the page's accept attribute, so
// they are page-derived and go inside markers.
func uploadWarnings(all []string) (warnings []string, block string) {
	for _, w := range all {
		if !slices.Contains(warnings, w) {
			warnings = append(warnings, w)
		}
	}
	if len(warnings) == 0 {
		return nil, ""
	}
	u := browser.NewUntrusted()
	for _, w := range warnings {
		u.Field("Warning", w, 300)
	}
	return warnings, "\n" + u.String()
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return browser.Plural(int(n), "byte", "bytes")
}
