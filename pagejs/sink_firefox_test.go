package pagejs_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// sink adds the upload sink to p's connection.
func (p *page) sink() string {
	p.t.Helper()
	console, err := p.c.ParentProcessConsole(p.ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	var res pagejs.UploadSinkResult
	if err := chrome(p.t, p.ctx, p.c, pagejs.UploadSink, pagejs.UploadSinkArgs{Console: console}, &res); err != nil {
		p.t.Fatalf("UploadSink: %v", err)
	}
	if res.Actor == "" {
		p.t.Fatal("UploadSink returned no actor")
	}
	return res.Actor
}

// sinkCode is the error code of a sink reply ("" for success).
func sinkCode(err error) errcode.Code {
	var ae *rdp.ActorError
	if errors.As(err, &ae) {
		return errcode.Code(ae.Code)
	}
	if err != nil {
		return errcode.Code("other: " + err.Error())
	}
	return ""
}

// awkwardFiles are three files to upload: a 300 KB one whose name has quotes, a
// backslash and non-ASCII letters, a text file with an emoji in its name, and an empty
// one.
func awkwardFiles(t testing.TB) []testFile {
	return []testFile{
		{`cv "final" \ résumé.pdf`, "application/pdf", randomBytes(t, 300_000)},
		{"notes 🌍.txt", "text/plain", []byte("hello")},
		{"empty.bin", "application/octet-stream", nil},
	}
}

func meta(files []testFile) []pagejs.UploadFile {
	var m []pagejs.UploadFile
	for _, f := range files {
		m = append(m, pagejs.UploadFile{Name: f.name, Type: f.typ, Size: int64(len(f.data)), LastModified: 1700000000000})
	}
	return m
}

// sinkStage starts an upload the server's way: UploadBegin with Sink in the isolated
// realm announcing staged, then the sink's begin announcing sent (the same files,
// unless a test wants a mismatch). It returns the key and the page's window.
func (p *page) sinkStage(actor string, e pagejs.Element, staged, sent []testFile) (string, int64) {
	p.t.Helper()
	key := hex.EncodeToString(randomBytes(p.t, 32))
	var br pagejs.UploadBeginResult
	p.must(isolatedRealm, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: e.Sel, FP: e.FP, Files: meta(staged), Sink: true}, &br)
	if br.Window != p.target().InnerWindowID {
		p.t.Fatalf("UploadBegin window %d, want %d", br.Window, p.target().InnerWindowID)
	}
	if err := p.c.Request(p.ctx, actor, pagejs.SinkBegin{"begin", key, br.Window, p.id, meta(sent)}, nil); err != nil {
		p.t.Fatalf("sink begin: %v", err)
	}
	return key, br.Window
}

// sinkUpload runs the server's sink flow: sinkStage, chunks as plain packets,
// deliver, UploadFinish.
func (p *page) sinkUpload(actor string, e pagejs.Element, files []testFile, chunk int) (pagejs.UploadFinishResult, error) {
	p.t.Helper()
	key, _ := p.sinkStage(actor, e, files, files)
	for fi, f := range files {
		for i, off := 0, 0; off < len(f.data); i, off = i+1, off+chunk {
			end := min(off+chunk, len(f.data))
			var r pagejs.UploadChunkResult
			if err := p.c.RequestData(p.ctx, actor, pagejs.SinkChunk{"chunk", key, fi, i}, f.data[off:end], nil, &r); err != nil {
				p.t.Fatalf("sink chunk %d/%d: %v", fi, i, err)
			}
			if r.File != fi || r.Index != i || r.Received != int64(end) {
				p.t.Fatalf("sink confirmation %+v, want file %d index %d received %d", r, fi, i, end)
			}
		}
	}
	if err := p.c.Request(p.ctx, actor, pagejs.SinkKey{"deliver", key}, nil); err != nil {
		p.t.Fatalf("sink deliver: %v", err)
	}
	var fr pagejs.UploadFinishResult
	err := p.run(isolatedRealm, pagejs.UploadFinish, pagejs.UploadFinishArgs{Key: key, Sel: e.Sel, FP: e.FP}, &fr)
	var ar pagejs.UploadAbortResult
	p.must(isolatedRealm, pagejs.UploadAbort, pagejs.UploadAbortArgs{Key: key}, &ar)
	if ar.Removed {
		p.t.Error("staging survived uploadFinish")
	}
	return fr, err
}

// TestFirefoxUploadSink: bytes put through the parent-process sink reach the page intact
// (the page's own SHA-256), with names, types, trusted events, and nothing submitted.
func TestFirefoxUploadSink(t *testing.T) {
	p := open(t, "/upload.html")
	actor := p.sink()
	s := p.snapshot(isolatedRealm)
	multi := find(t, s, "", "Attachments")
	resume := find(t, s, "", "Attach résumé")
	files := awkwardFiles(t)
	res, err := p.sinkUpload(actor, multi, files, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Dispatched || !res.Trusted || len(res.Files) != 3 {
		t.Errorf("result %+v", res)
	}
	p.checkReceived("multi", files)
	if ev := p.js(`document.getElementById("events").textContent`); ev != "multi:input:true;multi:change:true;" {
		t.Errorf("events %q", ev)
	}
	// Target checks still run in the page's process.
	key := hex.EncodeToString(randomBytes(t, 32))
	err = p.run(isolatedRealm, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: resume.Sel, FP: resume.FP, Files: meta(files[:2]), Sink: true}, nil)
	if !isCode(err, errcode.UploadTargetInvalid) {
		t.Errorf("two files for a single input: %v", err)
	}
	// The page realm has no process message manager: the sink is refused there.
	err = p.run(pageRealm, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: multi.Sel, FP: multi.FP, Files: meta(files[:1]), Sink: true}, nil)
	if !isCode(err, errcode.InvalidArgument) {
		t.Errorf("sink in the page realm: %v", err)
	}
	if got := p.js(`document.getElementById("submitted").textContent`); got != "no" {
		t.Error("an upload submitted the form")
	}
}

// TestFirefoxUploadSinkRefuses: every malformed or out-of-protocol request gets a typed
// error reply and leaves the sink usable; no other connection can reach the sink.
func TestFirefoxUploadSinkRefuses(t *testing.T) {
	p := open(t, "/upload.html")
	actor := p.sink()
	win := p.target().InnerWindowID
	files := []testFile{{"a.bin", "application/octet-stream", randomBytes(t, 10)}}
	key := hex.EncodeToString(randomBytes(t, 32))
	req := func(v any) error { return p.c.Request(p.ctx, actor, v, nil) }
	chunk := func(k string, file, index int, data []byte) error {
		return p.c.RequestData(p.ctx, actor, pagejs.SinkChunk{"chunk", k, file, index}, data, nil, nil)
	}
	cases := []struct {
		name string
		err  error
		want errcode.Code
	}{
		{"chunk before begin", chunk(key, 0, 0, []byte("x")), errcode.UploadTransferFailed},
		{"short key", req(pagejs.SinkBegin{"begin", "abc", win, p.id, meta(files)}), errcode.UploadTransferFailed},
		{"no files", req(pagejs.SinkBegin{"begin", key, win, p.id, nil}), errcode.UploadTransferFailed},
		{"nameless file", req(pagejs.SinkBegin{"begin", key, win, p.id, []pagejs.UploadFile{{Size: 1}}}), errcode.UploadTransferFailed},
		{"another tab's id", req(pagejs.SinkBegin{"begin", key, win, p.id + 1000, meta(files)}), errcode.TargetReplaced},
		{"unknown window", req(pagejs.SinkBegin{"begin", key, win + 1000, p.id, meta(files)}), errcode.TargetReplaced},
		{"begin", req(pagejs.SinkBegin{"begin", key, win, p.id, meta(files)}), ""},
		{"reused key", req(pagejs.SinkBegin{"begin", key, win, p.id, meta(files)}), errcode.UploadTransferFailed},
		{"no such file", chunk(key, 1, 0, []byte("x")), errcode.UploadTransferFailed},
		{"out of order", chunk(key, 0, 1, []byte("x")), errcode.UploadTransferFailed},
		{"not base64", req(map[string]any{"type": "chunk", "key": key, "file": 0, "index": 0, "data": "%%%"}), errcode.UploadTransferFailed},
		{"no data", req(pagejs.SinkChunk{"chunk", key, 0, 0}), errcode.UploadTransferFailed},
		{"too many bytes", chunk(key, 0, 0, make([]byte, 11)), errcode.UploadTransferFailed},
		{"first half", chunk(key, 0, 0, files[0].data[:5]), ""},
		{"short file delivered", req(pagejs.SinkKey{"deliver", key}), errcode.UploadTransferFailed},
		{"forgotten after deliver", chunk(key, 0, 1, files[0].data[5:]), errcode.UploadTransferFailed},
	}
	for _, c := range cases {
		if got := sinkCode(c.err); got != c.want {
			t.Errorf("%s: reply %q (%v), want %q", c.name, got, c.err, c.want)
		}
	}
	// end forgets an upload once.
	key2 := hex.EncodeToString(randomBytes(t, 32))
	var ended struct{ Removed bool }
	if err := req(pagejs.SinkBegin{"begin", key2, win, p.id, meta(files)}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		if err := p.c.Request(p.ctx, actor, pagejs.SinkKey{"end", key2}, &ended); err != nil || ended.Removed != want {
			t.Errorf("end #%d: %+v %v, want removed %v", i+1, ended, err, want)
		}
	}
	// Still usable after all that.
	if _, err := p.sinkUpload(actor, find(t, p.snapshot(isolatedRealm), "", "Attachments"), files, 4); err != nil {
		t.Fatalf("upload after refusals: %v", err)
	}
	// Another connection cannot address this connection's sink.
	other, _ := dial(t)
	err := other.Request(p.ctx, actor, pagejs.SinkKey{"end", key2}, nil)
	if !rdp.IsNoSuchActor(err) {
		t.Errorf("another connection reached the sink: %v", err)
	}
}

// TestFirefoxUploadSinkNavigation: a page replaced before delivery gets no bytes; the
// sink answers target_replaced.
func TestFirefoxUploadSinkNavigation(t *testing.T) {
	p := open(t, "/upload.html")
	actor := p.sink()
	multi := find(t, p.snapshot(isolatedRealm), "", "Attachments")
	files := []testFile{{"a.bin", "application/octet-stream", randomBytes(t, 100)}}
	key, window := p.sinkStage(actor, multi, files, files)
	if err := p.c.RequestData(p.ctx, actor, pagejs.SinkChunk{"chunk", key, 0, 0}, files[0].data, nil, nil); err != nil {
		t.Fatal(err)
	}
	p.assign("/labels.html", window)
	if got := sinkCode(p.c.Request(p.ctx, actor, pagejs.SinkKey{"deliver", key}, nil)); got != errcode.TargetReplaced {
		t.Errorf("deliver after navigation: %q, want target_replaced", got)
	}
}

// TestFirefoxUploadSinkMismatch: files the sink delivers that differ from those the
// page's staging announced are refused there (upload_transfer_failed), never assigned.
func TestFirefoxUploadSinkMismatch(t *testing.T) {
	p := open(t, "/upload.html")
	actor := p.sink()
	multi := find(t, p.snapshot(isolatedRealm), "", "Attachments")
	staged := []testFile{{"a.bin", "application/octet-stream", randomBytes(t, 10)}}
	sent := []testFile{{"b.bin", "application/octet-stream", staged[0].data}}
	key, _ := p.sinkStage(actor, multi, staged, sent)
	if err := p.c.RequestData(p.ctx, actor, pagejs.SinkChunk{Type: "chunk", Key: key}, sent[0].data, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.c.Request(p.ctx, actor, pagejs.SinkKey{Type: "deliver", Key: key}, nil); err != nil {
		t.Fatal(err)
	}
	err := p.run(isolatedRealm, pagejs.UploadFinish, pagejs.UploadFinishArgs{Key: key, Sel: multi.Sel, FP: multi.FP}, nil)
	if !isCode(err, errcode.UploadTransferFailed) {
		t.Errorf("finish with other files delivered: %v, want upload_transfer_failed", err)
	}
	if n := p.js(`document.getElementById("multi").files.length`); n != "0" {
		t.Errorf("the input holds %s file(s) after a refused delivery", n)
	}
}
