package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // spans several bufio buffers
	tests := []struct {
		name, in string
		max      int
		want     []string // "!" = too long
	}{
		{"lines", "a\nbb\n", 8, []string{"a", "bb"}},
		{"crlf", "a\r\nbb\r\n", 8, []string{"a", "bb"}},
		{"only one delimiter stripped", "a\r\r\n", 8, []string{"a\r"}},
		{"final line without delimiter", "a\nb", 8, []string{"a", "b"}},
		{"empty lines kept", "\n\r\n", 8, []string{"", ""}},
		{"exactly max", "abcd\nabcd\r\n", 4, []string{"abcd", "abcd"}},
		{"max+1", "abcde\nok\n", 4, []string{"!", "ok"}},
		{"max+1 with crlf", "abcde\r\nok\n", 4, []string{"!", "ok"}},
		{"over at EOF", "abcdef", 4, []string{"!"}},
		{"long line discarded", long + "\nok\n", 1 << 10, []string{"!", "ok"}},
		{"long line accepted", long + "\n", len(long), []string{long}},
		{"nothing", "", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				lr := newLineReader(r, tt.max)
				var got []string
				for {
					line, tooLong, err := lr.next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if tooLong {
						got = append(got, "!")
					} else {
						got = append(got, string(line))
					}
				}
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("got %q, want %q", shorten(got), shorten(tt.want))
				}
			}
		})
	}
}

func shorten(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = truncate(s, 20)
	}
	return out
}

func TestLineReaderError(t *testing.T) {
	boom := errors.New("boom")
	lr := newLineReader(iotest.ErrReader(boom), 10)
	if _, _, err := lr.next(); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func TestIDKey(t *testing.T) {
	same := [][2]string{{`1`, `1.0`}, {`1`, `1e0`}, {`"a"`, `"\u0061"`}}
	for _, p := range same {
		a, _ := idKey(json.RawMessage(p[0]))
		b, _ := idKey(json.RawMessage(p[1]))
		if a != b {
			t.Errorf("idKey(%s)=%q != idKey(%s)=%q", p[0], a, p[1], b)
		}
	}
	a, _ := idKey(json.RawMessage(`1`))
	b, _ := idKey(json.RawMessage(`"1"`))
	if a == b {
		t.Error("string and number ids collide")
	}
	for _, bad := range []string{`null`, `true`, `{}`, `[]`} {
		if _, ok := idKey(json.RawMessage(bad)); ok {
			t.Errorf("idKey(%s) accepted", bad)
		}
	}
}

// FuzzDecodeMessage checks the message decoder never panics and that what it
// accepts, and the ids it answers with, are well formed.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		initLine,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":"t"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":-1.5e3,"method":"ping","params":null}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
		``, ` `, `{`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, replyID, rerr := decodeMessage(line)
		if rerr != nil {
			if m != nil {
				t.Fatal("message and error")
			}
			if rerr.Code > -32000 || rerr.Code < -32768 {
				t.Fatalf("error code %d outside the JSON-RPC range", rerr.Code)
			}
			if replyID != nil && string(replyID) != "null" && !validID(replyID) {
				t.Fatalf("reply id %s is not an id", replyID)
			}
			if replyID != nil {
				// The reply must encode.
				if _, err := json.Marshal(response{JSONRPC: "2.0", ID: replyID, Error: rerr}); err != nil {
					t.Fatalf("reply does not encode: %v", err)
				}
			}
			return
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			t.Fatalf("accepted a line encoding/json rejects: %v", err)
		}
		if m.id != nil && !validID(m.id) {
			t.Fatalf("accepted id %s", m.id)
		}
		if m.params != nil && m.params[0] != '{' {
			t.Fatalf("accepted params %s", m.params)
		}
		if !m.response && !bytes.Contains(line, []byte("method")) {
			t.Fatal("request without a method")
		}
		if m.params != nil {
			paramsMembers(m.params) // must not panic
		}
	})
}

// FuzzLineReader checks the line reader against a plain split of its input.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\nccc"), 2)
	f.Add([]byte("\n\n\r\n"), 0)
	f.Add([]byte(strings.Repeat("y", 100)+"\nz"), 10)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max < 0 || max > 1<<16 {
			return
		}
		var want []string
		for i, seg := range bytes.Split(in, []byte("\n")) {
			last := i == bytes.Count(in, []byte("\n"))
			if last && len(seg) == 0 {
				break
			}
			if !last {
				seg = bytes.TrimSuffix(seg, []byte("\r"))
			}
			if len(seg) > max {
				want = append(want, "!")
			} else {
				want = append(want, string(seg))
			}
		}
		lr := newLineReader(iotest.HalfReader(bytes.NewReader(in)), max)
		var got []string
		for {
			line, tooLong, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if tooLong {
				got = append(got, "!")
			} else {
				got = append(got, string(line))
			}
		}
		if len(got) != len(want) || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

// TestAnnotationsOmitDefaults: a hint is written only where it differs from
// the specification's default, so every hint a client reads is the same.
func TestAnnotationsOmitDefaults(t *testing.T) {
	for _, tc := range []struct {
		a    ToolAnnotations
		want string
	}{
		{ToolAnnotations{}, `{"destructiveHint":false,"openWorldHint":false}`},
		{ToolAnnotations{Title: "T", ReadOnlyHint: true, DestructiveHint: true, IdempotentHint: true, OpenWorldHint: true}, `{"title":"T","readOnlyHint":true}`},
		{ToolAnnotations{DestructiveHint: true, OpenWorldHint: true}, `{}`},
		{ToolAnnotations{IdempotentHint: true, OpenWorldHint: true}, `{"destructiveHint":false,"idempotentHint":true}`},
	} {
		b, err := json.Marshal(tc.a)
		if err != nil || string(b) != tc.want {
			t.Errorf("%+v: %s (%v), want %s", tc.a, b, err, tc.want)
		}
	}
}
