package rdp

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
)

func TestAppendJSONStringUTF16(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want []uint16
	}{
		{`""`, nil},
		{`"abc"`, []uint16{'a', 'b', 'c'}},
		{`"\ud83d"`, []uint16{0xd83d}},       // lone high surrogate kept
		{`"\ude00x"`, []uint16{0xde00, 'x'}}, // lone low surrogate kept
		{`"😀"`, utf16.Encode([]rune("😀"))},
		{`"\"\\\/\b\f\n\r\t\u00e9\u2028"`, []uint16{'"', '\\', '/', '\b', '\f', '\n', '\r', '\t', 0xe9, 0x2028}},
		{`"é€"`, []uint16{0xe9, 0x20ac}},
	} {
		got, err := appendJSONStringUTF16(nil, []byte(tc.raw))
		if err != nil || !equalUnits(got, tc.want) {
			t.Errorf("%s: got %x, %v; want %x", tc.raw, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `"`, `abc`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\x01\"", `"a"b"`, "\"\xff\"", `"\`} {
		if _, err := appendJSONStringUTF16(nil, []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// Joining halves of a split pair restores the character.
	a, _ := appendJSONStringUTF16(nil, []byte(`"x\ud83d"`))
	b, _ := appendJSONStringUTF16(a, []byte(`"\ude00y"`))
	if got := utf16String(b); got != "x😀y" {
		t.Errorf("joined = %q", got)
	}
}

func equalUnits(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzAppendJSONStringUTF16 checks the decoder against encoding/json on
// every string encoding/json accepts, and that it never panics.
func FuzzAppendJSONStringUTF16(f *testing.F) {
	for _, s := range []string{`"abc"`, `"\ud83d\ude00"`, `"é\n"`, `"\u0000"`, `"\ud83d"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := appendJSONStringUTF16(nil, raw)
		var want string
		if json.Unmarshal(raw, &want) != nil || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) {
			return
		}
		if len(bytes.TrimSpace(raw)) != len(raw) {
			return // we take the token exactly
		}
		if err != nil {
			if !utf8.Valid(raw) {
				return // encoding/json replaces invalid UTF-8; Firefox never sends it
			}
			t.Fatalf("%q: %v, but encoding/json accepts it as %q", raw, err, want)
		}
		if !bytes.Contains(raw, []byte(`\u`)) && utf16String(got) != want {
			t.Fatalf("%q: got %q, want %q", raw, utf16String(got), want)
		}
		if bytes.Contains(raw, []byte(`\u`)) && strings.ToValidUTF8(utf16String(got), "\uFFFD") != want {
			t.Fatalf("%q: got %q, want %q", raw, utf16String(got), want)
		}
	})
}

func TestEncodeRequest(t *testing.T) {
	body, typ, err := encodeRequest("server1.conn0.x/\"y", map[string]any{"type": "getTarget"})
	if err != nil || typ != "getTarget" || string(body) != `{"to":"server1.conn0.x/\"y","type":"getTarget"}` {
		t.Errorf("got %s %q %v", body, typ, err)
	}
	body, _, err = encodeRequest("a", struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"evaluateJSAsync", "</script>\u2028"})
	if err != nil || string(body) != `{"to":"a","type":"evaluateJSAsync","text":"\u003c/script\u003e\u2028"}` {
		t.Errorf("got %s %v", body, err)
	}
	for _, bad := range []any{map[string]any{}, []int{1}, "x", struct{ X int }{1}} {
		if _, _, err := encodeRequest("a", bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestLogsNoPayloads: debug logs name actors and types, never scripts or results.
func TestLogsNoPayloads(t *testing.T) {
	const secret = "hunter2-secret"
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Raw(rdptest.Greeting)
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r1","from":%q}`, console)
		p.Raw(evalResultJSON("r1", `"result `+secret+`"`))
		p.Expect(console, "evaluateJSAsync")
		p.Send(`{"resultID":"r2","from":%q}`, console)
		p.Send(`{"type":"evaluationResult","resultID":"r2","hasException":true,"exceptionMessage":"Error: %s","from":%q}`, secret, console)
		p.Idle(time.Second)
	})
	var buf bytes.Buffer
	c := dialFake(t, addr, Options{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if _, err := c.EvaluateString(context.Background(), console, "fill('"+secret+"')", EvalOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.EvaluateString(context.Background(), console, "x", EvalOptions{}); err == nil {
		t.Fatal("exception not reported")
	}
	c.Close()
	if !strings.Contains(buf.String(), "evaluateJSAsync") && !strings.Contains(buf.String(), console) {
		t.Errorf("log lacks routing information:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), secret) {
		t.Errorf("log leaks a payload:\n%s", buf.String())
	}
}
