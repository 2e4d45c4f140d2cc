package browser

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// memFiles stands in for the broker process (tested as a real process in
// broker/ and e2e/): files in memory, streamed in the broker's piece size.
// These tests are about the browser side of upload_files.
type memFiles struct {
	mu       sync.Mutex
	files    map[string][]byte
	handles  map[uint32][]byte
	next     uint32
	released int
}

func (m *memFiles) Stat(ctx context.Context, paths []string) ([]broker.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []broker.FileInfo
	for i, p := range paths {
		data, ok := m.files[p]
		if !ok {
			return nil, &broker.Error{Code: errcode.UploadFileInvalid, Index: i, Message: "no such file"}
		}
		m.next++
		m.handles[m.next] = data
		name := p[strings.LastIndexByte(p, '/')+1:]
		out = append(out, broker.FileInfo{Handle: m.next, Name: name, Size: int64(len(data)), MIME: "application/octet-stream", ModTime: time.Unix(1700000000, 0)})
	}
	return out, nil
}

func (m *memFiles) Stream(ctx context.Context, handle uint32, fn func(p []byte) error) error {
	m.mu.Lock()
	data := m.handles[handle]
	m.mu.Unlock()
	for off := 0; off < len(data); off += broker.MaxData {
		if err := fn(data[off:min(off+broker.MaxData, len(data))]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memFiles) Release(ctx context.Context, handles []uint32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, h := range handles {
		delete(m.handles, h)
		m.released++
	}
	return nil
}

// TestUploadPaths: upload_files moves the exact bytes into the page through each way
// Firefox may offer: the parent-process upload sink (default), chunk evaluations in
// the isolated realm (no sink), and the page realm (no isolated realm).
func TestUploadPaths(t *testing.T) {
	big := make([]byte, 300_000) // several 64 KiB chunks, the last one short
	rand.Read(big)
	small := []byte("hello")
	for _, tc := range []struct {
		name    string
		opt     func(*Options)
		trusted bool
		sink    bool
	}{
		{"sink", func(*Options) {}, true, true},
		{"evaluations", func(o *Options) { o.NoUploadSink = true }, true, false},
		{"page realm", func(o *Options) { o.PageRealmOnly = true }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := &memFiles{files: map[string][]byte{"/u/big.bin": big, "/u/sm all.txt": small}, handles: map[uint32][]byte{}}
			s := newSession(t, tc.opt, func(o *Options) { o.Files = files })
			open(t, s, "upload.html")
			el := ref(t, snapshot(t, s), "file", "Attachments")
			res := must(t, s, "upload_files", map[string]any{"element": el, "paths": []string{"/u/big.bin", "/u/sm all.txt"}})
			if st, _ := res.Structured.(map[string]any); st["trusted"] != tc.trusted {
				t.Errorf("trusted = %v, want %v (%s)", st["trusted"], tc.trusted, res.Text)
			}
			s.mu.Lock()
			usedSink := s.sink.actor != ""
			s.mu.Unlock()
			if usedSink != tc.sink {
				t.Errorf("upload sink used: %v, want %v", usedSink, tc.sink)
			}
			waitText(t, s, "many done")
			text := pageText(t, s)
			for name, data := range map[string][]byte{"big.bin": big, "sm all.txt": small} {
				sum := sha256.Sum256(data)
				want := fmt.Sprintf("file %q %d application/octet-stream sha256=%s", name, len(data), hex.EncodeToString(sum[:]))
				if !strings.Contains(text, want) {
					t.Errorf("the page did not receive %s intact; want line %s in:\n%s", name, want, text)
				}
			}
			if !strings.Contains(text, fmt.Sprintf("many change trusted=%v files=2", tc.trusted)) || strings.Contains(text, "SUBMITTED") {
				t.Errorf("events:\n%s", text)
			}
			if files.released != 2 {
				t.Errorf("%d handles released, want 2", files.released)
			}
		})
	}
}

func TestUploadWindow(t *testing.T) {
	for _, c := range []struct{ most, bytes, size, want int }{
		{chunksInFlight, inFlightBytes, 128 << 10, 8},
		{chunksInFlight, inFlightBytes, 1 << 20, 2},
		{chunksInFlight, inFlightBytes, 4 << 20, 1},
		{readAhead, readAheadBytes, 4 << 10, 4},
		{readAhead, readAheadBytes, 2 << 20, 1},
		{readAhead, readAheadBytes, 0, 4},
	} {
		if got := window(c.most, c.bytes, c.size); got != c.want {
			t.Errorf("window(%d, %d, %d) = %d, want %d", c.most, c.bytes, c.size, got, c.want)
		}
	}
}

func TestSinkError(t *testing.T) {
	for _, c := range []struct {
		err  error
		code errcode.Code
	}{
		{&rdp.ActorError{Code: "target_replaced", Message: "gone"}, errcode.TargetReplaced},
		{&rdp.ActorError{Code: "upload_transfer_failed", Message: "chunk 3 arrived, expected 2"}, errcode.UploadTransferFailed},
		{&rdp.ActorError{Code: "unknownError", Message: "TypeError"}, errcode.UploadTransferFailed},
	} {
		e, ok := AsError(sinkError(c.err))
		if !ok || e.Code != c.code {
			t.Errorf("sinkError(%v) = %v, want code %s", c.err, e, c.code)
		}
	}
	other := errors.New("connection closed")
	if sinkError(other) != other {
		t.Error("a non-actor error was rewritten")
	}
	if sinkError(nil) != nil {
		t.Error("nil became an error")
	}
}
