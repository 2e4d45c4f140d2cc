package broker

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// The broker never calls mime.TypeByExtension: it reads /etc/mime.types and
// friends lazily, on first use, which would happen inside the sandbox and
// make the answer depend on the machine. This table is the fixed answer for
// what people upload to web forms; anything else is sniffed, then falls back
// to application/octet-stream.
var extTypes = map[string]string{
	".7z":    "application/x-7z-compressed",
	".avif":  "image/avif",
	".bmp":   "image/bmp",
	".csv":   "text/csv; charset=utf-8",
	".doc":   "application/msword",
	".docx":  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".epub":  "application/epub+zip",
	".gif":   "image/gif",
	".gz":    "application/gzip",
	".heic":  "image/heic",
	".htm":   "text/html; charset=utf-8",
	".html":  "text/html; charset=utf-8",
	".ico":   "image/vnd.microsoft.icon",
	".jpeg":  "image/jpeg",
	".jpg":   "image/jpeg",
	".json":  "application/json",
	".key":   "application/vnd.apple.keynote",
	".m4a":   "audio/mp4",
	".md":    "text/markdown; charset=utf-8",
	".mov":   "video/quicktime",
	".mp3":   "audio/mpeg",
	".mp4":   "video/mp4",
	".odp":   "application/vnd.oasis.opendocument.presentation",
	".ods":   "application/vnd.oasis.opendocument.spreadsheet",
	".odt":   "application/vnd.oasis.opendocument.text",
	".ogg":   "audio/ogg",
	".pages": "application/vnd.apple.pages",
	".pdf":   "application/pdf",
	".png":   "image/png",
	".ppt":   "application/vnd.ms-powerpoint",
	".pptx":  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".rtf":   "application/rtf",
	".svg":   "image/svg+xml",
	".tar":   "application/x-tar",
	".tif":   "image/tiff",
	".tiff":  "image/tiff",
	".tsv":   "text/tab-separated-values; charset=utf-8",
	".txt":   "text/plain; charset=utf-8",
	".wav":   "audio/wav",
	".webm":  "video/webm",
	".webp":  "image/webp",
	".xls":   "application/vnd.ms-excel",
	".xlsx":  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".xml":   "application/xml",
	".yaml":  "application/yaml",
	".yml":   "application/yaml",
	".zip":   "application/zip",
}

// SniffLen is how many leading bytes mimeType looks at.
const SniffLen = 512

const octetStream = "application/octet-stream"

// mimeType derives a MIME type from the basename, then from the first bytes.
func mimeType(name string, head []byte) string {
	if t, ok := extTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return sniff(head)
}

var magics = []struct {
	prefix []byte
	typ    string
}{
	{[]byte("%PDF-"), "application/pdf"},
	{[]byte("\x89PNG\r\n\x1a\n"), "image/png"},
	{[]byte("\xff\xd8\xff"), "image/jpeg"},
	{[]byte("GIF87a"), "image/gif"},
	{[]byte("GIF89a"), "image/gif"},
	{[]byte("PK\x03\x04"), "application/zip"},
	{[]byte("\x1f\x8b\x08"), "application/gzip"},
	{[]byte("{\\rtf"), "application/rtf"},
	{[]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), "application/x-ole-storage"},
}

// sniff recognises a few magic numbers and plain UTF-8 text.
func sniff(head []byte) string {
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	for _, m := range magics {
		if bytes.HasPrefix(head, m.prefix) {
			return m.typ
		}
	}
	if len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")) {
		return "image/webp"
	}
	if len(head) > 0 && looksLikeText(head) {
		return "text/plain; charset=utf-8"
	}
	return octetStream
}

func looksLikeText(b []byte) bool {
	// A multi-byte rune cut at the sniff boundary is still text.
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			return false
		}
	}
	return true
}
