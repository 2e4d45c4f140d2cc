package broker

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

func sampleMessages() []Message {
	return []Message{
		StatReq{Paths: []string{"/a/b.pdf", "/c"}},
		StatResp{Files: []WireFile{{Handle: 7, Size: 12, ModTimeNS: -5, Name: "b.pdf", MIME: "application/pdf"}}},
		ReadReq{Handle: 3, Offset: 1 << 40},
		ReadResp{Last: true, Data: []byte("hello")},
		ReadResp{Data: bytes.Repeat([]byte{1}, MaxData)},
		ReleaseReq{Handles: []uint32{1, 2, 3}},
		ReleaseReq{},
		ReleaseResp{},
		Hello{Sandboxed: true, LandlockABI: 7, Syscalls: 40},
		ErrorResp{Code: errcode.UploadTooLarge, Index: -1, Message: "too big"},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, m := range sampleMessages() {
		b, err := Encode(nil, 99, m)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		id, got, err := Decode(b)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if id != 99 {
			t.Fatalf("id %d", id)
		}
		if rr, ok := got.(ReadResp); ok && len(rr.Data) == 0 {
			rr.Data = nil
			got = rr
		}
		if rr, ok := got.(ReleaseReq); ok && len(rr.Handles) == 0 {
			rr.Handles = nil
			got = rr
		}
		if !reflect.DeepEqual(got, m) {
			t.Fatalf("%T: got %#v", m, got)
		}
	}
}

func mustEncode(t *testing.T, m Message) []byte {
	t.Helper()
	b, err := Encode(nil, 1, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeRejects(t *testing.T) {
	stat := mustEncode(t, StatReq{Paths: []string{"/x"}})
	read := mustEncode(t, ReadResp{Data: []byte("abc")})
	mut := func(b []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	cases := map[string][]byte{
		"empty":            {},
		"short header":     stat[:7],
		"trailing byte":    append(append([]byte(nil), stat...), 0),
		"truncated body":   stat[:len(stat)-1],
		"bad version":      mut(stat, func(b []byte) []byte { b[1] = 2; return b }),
		"reserved bits":    mut(stat, func(b []byte) []byte { b[2] = 1; return b }),
		"unknown type":     mut(stat, func(b []byte) []byte { b[0] = 99; return b }),
		"zero type":        mut(stat, func(b []byte) []byte { b[0] = 0; return b }),
		"zero paths":       mut(stat, func(b []byte) []byte { b[8], b[9] = 0, 0; return b }),
		"path len 0":       mut(stat, func(b []byte) []byte { b[10], b[11] = 0, 0; return b[:12] }),
		"path len > data":  mut(stat, func(b []byte) []byte { b[10] = 200; return b }),
		"data len lies":    mut(read, func(b []byte) []byte { b[9] = 4; return b }),
		"bad flags":        mut(read, func(b []byte) []byte { b[8] = 2; return b }),
		"oversize":         make([]byte, MaxMessage+1),
		"error code 0":     mut(mustEncode(t, ErrorResp{Code: errcode.BrokerProtocol, Index: 0, Message: "m"}), func(b []byte) []byte { b[8] = 0; return b }),
		"error code 9":     mut(mustEncode(t, ErrorResp{Code: errcode.BrokerProtocol, Index: 0, Message: "m"}), func(b []byte) []byte { b[8] = 9; return b }),
		"name not utf8":    mut(mustEncode(t, StatResp{Files: []WireFile{{Name: "ab", MIME: "x/y"}}}), func(b []byte) []byte { b[8+2+4+8+8+2] = 0xff; return b }),
		"negative size":    mut(mustEncode(t, StatResp{Files: []WireFile{{Name: "ab", MIME: "x/y"}}}), func(b []byte) []byte { b[8+2+4+7] = 0x80; return b }),
		"negative offset":  mut(mustEncode(t, ReadReq{Handle: 1}), func(b []byte) []byte { b[len(b)-1] = 0x80; return b }),
		"too many handles": append(mut(mustEncode(t, ReleaseReq{}), func(b []byte) []byte { b[8], b[9] = 0xff, 0xff; return b }), make([]byte, 4*0xffff)...),
	}
	for name, b := range cases {
		if _, _, err := Decode(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	bad := []Message{
		StatReq{},
		StatReq{Paths: []string{""}},
		StatReq{Paths: []string{"/" + strings.Repeat("a", MaxPath)}},
		StatReq{Paths: make([]string, MaxPaths+1)},
		StatReq{Paths: []string{"/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000),
			"/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000),
			"/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000),
			"/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000),
			"/" + strings.Repeat("a", 4000), "/" + strings.Repeat("a", 4000)}},
		ReadResp{Data: make([]byte, MaxData+1)},
		ReadReq{Offset: -1},
		ErrorResp{Code: "nope", Message: "x"},
		StatResp{Files: []WireFile{{Name: "", MIME: "x"}}},
		StatResp{Files: []WireFile{{Name: "a", MIME: "x", Size: -1}}},
	}
	for _, m := range bad {
		if _, err := Encode(nil, 1, m); err == nil {
			t.Errorf("%T accepted", m)
		}
	}
}

// FuzzDecode: Decode never panics, and whatever it accepts re-encodes to
// exactly the same bytes (one canonical encoding, nothing ignored).
func FuzzDecode(f *testing.F) {
	for _, m := range sampleMessages() {
		b, _ := Encode(nil, 5, m)
		if len(b) < 1024 { // big seeds make minimisation crawl
			f.Add(b)
		}
	}
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		id, m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error not ErrMalformed: %v", err)
			}
			return
		}
		out, err := Encode(nil, id, m)
		if err != nil {
			t.Fatalf("accepted %x but cannot re-encode %#v: %v", b, m, err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("non-canonical: %x re-encodes to %x", b, out)
		}
	})
}

func TestValidatePath(t *testing.T) {
	good := []string{"/a", "/tmp/root/file.pdf", "/a b/ç.txt", "/..a", "/a..", "/.hidden"}
	bad := []string{
		"", "a", "relative/path", "./a", "/a/../b", "/..", "/a/./b", "/./a", "/a/", "/a//b", "//a",
		"/a/.", "/a/..", "/a\x00b", "/", "/" + strings.Repeat("x", MaxPath),
	}
	for _, p := range good {
		if reason, ok := ValidatePath(p); !ok {
			t.Errorf("%q rejected: %s", p, reason)
		}
	}
	for _, p := range bad {
		if _, ok := ValidatePath(p); ok {
			t.Errorf("%q accepted", p)
		}
	}
}

func TestRootFor(t *testing.T) {
	roots := []string{"/tmp/root", "/tmp/root/deep", "/srv"}
	cases := []struct {
		p    string
		idx  int
		rel  string
		okay bool
	}{
		{"/tmp/root/a", 0, "a", true},
		{"/tmp/root/deep/b", 1, "b", true},
		{"/tmp/rootx/a", -1, "", false},
		{"/tmp/root", -1, "", false},
		{"/tmp/roo", -1, "", false},
		{"/srvx", -1, "", false},
		{"/srv/x/y", 2, "x/y", true},
		{"/etc/passwd", -1, "", false},
	}
	for _, c := range cases {
		idx, rel, ok := RootFor(roots, c.p)
		if ok != c.okay || (ok && (idx != c.idx || rel != c.rel)) {
			t.Errorf("%s: got %d %q %v", c.p, idx, rel, ok)
		}
	}
	if idx, rel, ok := RootFor([]string{"/"}, "/etc/passwd"); !ok || idx != 0 || rel != "etc/passwd" {
		t.Errorf("root /: %d %q %v", idx, rel, ok)
	}
}

func TestSniff(t *testing.T) {
	cases := map[string]struct {
		name string
		head []byte
	}{
		"application/pdf":           {"cv.PDF", nil},
		"image/png":                 {"x.unknown", []byte("\x89PNG\r\n\x1a\nrest")},
		"text/plain; charset=utf-8": {"notes", []byte("hello\nworld é")},
		"application/octet-stream":  {"blob", []byte{0, 1, 2, 3}},
	}
	for want, c := range cases {
		if got := mimeType(c.name, c.head); got != want {
			t.Errorf("%s: %s, want %s", c.name, got, want)
		}
	}
	if got := mimeType("empty", nil); got != octetStream {
		t.Errorf("empty: %s", got)
	}
}

// TestWireCodesPinned pins the wire form of each error code (the byte after
// the header; changing one breaks a broker and server of different builds)
// and checks the table names only defined codes. broker_unavailable is the
// client's own verdict on a dead channel: it has no wire form.
func TestWireCodesPinned(t *testing.T) {
	want := map[uint8]errcode.Code{1: errcode.UploadFileInvalid, 2: errcode.UploadTooLarge, 3: errcode.BrokerProtocol}
	if len(wireCodes) != len(want)+1 {
		t.Fatalf("wireCodes has %d codes, the test pins %d", len(wireCodes)-1, len(want))
	}
	for i, c := range wireCodes[1:] {
		if !c.Known() {
			t.Errorf("wire code %d (%s) is not an errcode code", i+1, c)
		}
	}
	for num, code := range want {
		b := mustEncode(t, ErrorResp{Code: code, Index: 2, Message: "m"})
		if b[8] != num {
			t.Errorf("%s is sent as %d, want %d", code, b[8], num)
		}
		_, m, err := Decode(b)
		if e, ok := m.(ErrorResp); err != nil || !ok || e.Code != code {
			t.Errorf("%d decodes as %#v, %v; want %s", num, m, err, code)
		}
	}
	if _, err := Encode(nil, 1, ErrorResp{Code: errcode.BrokerUnavailable, Message: "m"}); err == nil {
		t.Error("broker_unavailable was encoded; it has no wire form")
	}
}
