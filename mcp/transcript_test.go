package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the -- server -- sections of testdata/transcripts from actual output")

// fakeHandler is the tool provider of the transcript tests.
type fakeHandler struct{}

func (fakeHandler) Tools() []Tool {
	return []Tool{
		{
			Name:         "echo",
			Title:        "Echo",
			Description:  "Returns its text argument.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"echo":{"type":"string"}}}`),
			Annotations:  &ToolAnnotations{Title: "Echo", ReadOnlyHint: true, IdempotentHint: true},
		},
		{Name: "fail", Description: "Always fails with a tool error."},
		{Name: "slow", Description: "Blocks until cancelled.", Annotations: &ToolAnnotations{OpenWorldHint: true}},
		{Name: "progress", Description: "Reports progress, then returns."},
		{Name: "panic", Description: "Panics."},
		{Name: "bad_structured", Description: "Returns structured content that is not an object."},
	}
}

func (fakeHandler) CallTool(ctx context.Context, name string, args json.RawMessage, p Progress) Result {
	switch name {
	case "echo":
		var in struct {
			Text string `json:"text"`
		}
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return ToolError("invalid_arguments", "echo takes {text}", false)
		}
		return Result{Text: in.Text, Structured: map[string]string{"echo": in.Text}}
	case "fail":
		return ToolError("element_not_found", "no element matches", true)
	case "slow":
		<-ctx.Done()
		return Result{Text: "finished anyway"}
	case "progress":
		p.Report(1, 3, "one")
		p.Report(2, 3, "two")
		p.Report(2, 3, "not increasing: dropped")
		p.Report(1, 3, "going back: dropped")
		p.Report(3, 0, "")
		return Result{Text: "done"}
	case "panic":
		panic("secret-argument-free panic")
	case "bad_structured":
		return Result{Text: "list", Structured: []int{1, 2}}
	}
	return ToolError("unknown", name, false)
}

// transcriptOptions is the optional -- options.json -- section.
type transcriptOptions struct {
	MaxLineBytes int    `json:"maxLineBytes"`
	Instructions string `json:"instructions"`
	// AfterEOF is how many of the expected lines only appear once the
	// input is closed (answers to calls the shutdown cancels).
	AfterEOF int `json:"afterEOF"`
}

// clientBytes turns the client section into input: one line each, "#"
// comments and blank lines skipped, and raw:"<Go string>" lines sent exactly
// as unquoted (no newline added).
func clientBytes(t *testing.T, data []byte) []byte {
	var in bytes.Buffer
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "raw:"):
			s, err := strconv.Unquote(strings.TrimPrefix(line, "raw:"))
			if err != nil {
				t.Fatalf("bad raw line %q: %v", line, err)
			}
			in.WriteString(s)
		default:
			in.WriteString(line)
			in.WriteByte('\n')
		}
	}
	return in.Bytes()
}

// streamKey groups output messages whose relative order is deterministic:
// one stream per response id, one per progress token.
func streamKey(t *testing.T, line []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"params"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("output line is not JSON: %q: %v", line, err)
	}
	if m.ID != nil {
		return "id " + string(m.ID)
	}
	return m.Method + " " + string(m.Params.ProgressToken)
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/transcripts/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]*txtar.File{}
			for i := range ar.Files {
				sections[ar.Files[i].Name] = &ar.Files[i]
			}
			client, server := sections["client"], sections["server"]
			if client == nil || (server == nil && !*update) {
				t.Fatal("need -- client -- and -- server -- sections")
			}
			var topts transcriptOptions
			if o := sections["options.json"]; o != nil {
				if err := json.Unmarshal(o.Data, &topts); err != nil {
					t.Fatal(err)
				}
			}
			s := NewServer(fakeHandler{}, Options{
				Implementation: Implementation{Name: "test-server", Version: "1.2.3"},
				Instructions:   topts.Instructions,
				MaxLineBytes:   topts.MaxLineBytes,
			})
			// Input stays open until the expected number of lines has been
			// written (with -update: until output is quiet), so that closing
			// it, which cancels calls still running, only hits the calls a
			// transcript means to leave running.
			wantLines := -1
			if server != nil && !*update {
				wantLines = len(splitLines(server.Data)) - topts.AfterEOF
			}
			out := &lockedBuffer{}
			inR, inW := io.Pipe()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			served := make(chan error, 1)
			go func() { served <- s.Serve(ctx, inR, out) }()
			if _, err := inW.Write(clientBytes(t, client.Data)); err != nil {
				t.Fatal(err)
			}
			waitForOutput(out, wantLines)
			inW.Close()
			if err := <-served; err != nil {
				t.Fatalf("Serve: %v", err)
			}
			got := splitLines(out.Bytes())

			if *update {
				var buf bytes.Buffer
				for _, l := range got {
					buf.Write(l)
					buf.WriteByte('\n')
				}
				if server == nil {
					ar.Files = append(ar.Files, txtar.File{Name: "server"})
					server = &ar.Files[len(ar.Files)-1]
				}
				server.Data = buf.Bytes()
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareStreams(t, splitLines(server.Data), got)
		})
	}
}

// compareStreams checks that want and got hold the same messages (as JSON
// values) and that each stream (see streamKey) is in the same order.
func compareStreams(t *testing.T, want, got [][]byte) {
	t.Helper()
	group := func(lines [][]byte) (map[string][]any, []string) {
		m := map[string][]any{}
		var order []string
		for _, l := range lines {
			var v any
			if err := json.Unmarshal(l, &v); err != nil {
				t.Fatalf("not JSON: %q", l)
			}
			k := streamKey(t, l)
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] = append(m[k], v)
		}
		return m, order
	}
	wm, worder := group(want)
	gm, _ := group(got)
	for _, k := range worder {
		if !reflect.DeepEqual(wm[k], gm[k]) {
			t.Errorf("stream %s:\nwant %s\ngot  %s", k, jsonString(wm[k]), jsonString(gm[k]))
		}
	}
	for k := range gm {
		if _, ok := wm[k]; !ok {
			t.Errorf("unexpected stream %s: %s", k, jsonString(gm[k]))
		}
	}
	if len(want) != len(got) {
		t.Errorf("want %d lines, got %d", len(want), len(got))
	}
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// lockedBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf.Bytes()...)
}

// waitForOutput waits until out holds n lines, or, for n < 0, until it has
// not grown for a while. It gives up after a few seconds; the comparison
// then reports what is missing.
func waitForOutput(out *lockedBuffer, n int) {
	deadline := time.Now().Add(5 * time.Second)
	last, quiet := -1, 0
	for time.Now().Before(deadline) {
		got := len(splitLines(out.Bytes()))
		if n >= 0 && got >= n {
			return
		}
		if n < 0 {
			if got == last {
				quiet++
				if quiet >= 20 {
					return
				}
			} else {
				last, quiet = got, 0
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}
