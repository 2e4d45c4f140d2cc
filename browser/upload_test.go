package browser_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
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
		opt     func(*browser.Options)
		trusted bool
		sink    bool
	}{
		{"sink", func(*browser.Options) {}, true, true},
		{"evaluations", func(o *browser.Options) { o.NoUploadSink = true }, true, false},
		{"page realm", func(o *browser.Options) { o.PageRealmOnly = true }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := &memFiles{files: map[string][]byte{"/u/big.bin": big, "/u/sm all.txt": small}, handles: map[uint32][]byte{}}
			s := newSession(t, tc.opt, func(o *browser.Options) { o.Files = files })
			open(t, s, "upload.html")
			el := ref(t, snapshot(t, s), "file", "Attachments")
			res := must(t, s, "upload_files", map[string]any{"element": el, "paths": []string{"/u/big.bin", "/u/sm all.txt"}})
			if st, _ := res.Structured.(map[string]any); st["trusted"] != tc.trusted {
				t.Errorf("trusted = %v, want %v (%s)", st["trusted"], tc.trusted, res.Text)
			}
			usedSink := s.UsedSink()
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
