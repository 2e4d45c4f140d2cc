package mcp

import (
	"encoding/json"
	"log/slog"
	"testing"
)

// TestImageContent: images follow the text item as
// {"type":"image","data":base64,"mimeType"} in every protocol version, and
// before the structured-content text fallback of older versions.
func TestImageContent(t *testing.T) {
	r := Result{Text: "Screenshot", Images: []Image{{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}}, Structured: map[string]int{"width": 1}}
	log := slog.New(slog.DiscardHandler)
	for version, want := range map[string]string{
		"2025-11-25": `{"content":[{"type":"text","text":"Screenshot"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}],"structuredContent":{"width":1},"isError":false}`,
		"2024-11-05": `{"content":[{"type":"text","text":"Screenshot"},{"type":"image","data":"iVBORw==","mimeType":"image/png"},{"type":"text","text":"{\"width\":1}"}],"isError":false}`,
	} {
		b, err := json.Marshal(shapeResult(r, version, log, "screenshot"))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%s:\n got %s\nwant %s", version, b, want)
		}
	}
}
