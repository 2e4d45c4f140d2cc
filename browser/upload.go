package browser

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// Progress reports progress of a long operation (an upload's bytes); a
// no-op when the client did not ask for progress.
type Progress interface {
	Report(progress, total float64, message string)
}

// Files is the broker client: the only way this process reaches local
// files. The server itself has no filesystem access.
type Files interface {
	Stat(ctx context.Context, paths []string) ([]broker.FileInfo, error)
	Stream(ctx context.Context, handle uint32, fn func(p []byte) error) error
	Release(ctx context.Context, handles []uint32) error
}

// chunksInFlight is how many chunks may be outstanding at once. Firefox
// handles them one at a time per actor, but keeping the pipe full hides the
// round trip (measured when chunks were console evaluations: 4–16 in flight
// about twice as fast as one at a time). inFlightBytes caps the window for large
// configured chunks, so memory stays bounded by it, not by the chunk size.
const (
	chunksInFlight = 8
	inFlightBytes  = 2 << 20
	readAheadBytes = 1 << 20
)

// window is how many chunks of size may be outstanding (at least one).
func window(most, bytes, size int) int {
	return max(1, min(most, bytes/max(size, 1)))
}

// UploadPhase names the upload step that failed (Error.Phase, the
// "phase" of an upload error's structured result).
type UploadPhase string

const (
	phaseValidation   UploadPhase = "validation"   // paths in the broker, target and staging on the page
	phaseTransfer     UploadPhase = "transfer"     // bytes to the page's staging
	phaseConstruction UploadPhase = "construction" // the File objects
	phaseAssignment   UploadPhase = "assignment"   // the files onto the input
	phaseVerification UploadPhase = "verification" // what the input holds against what was sent
)

// phaseError marks a tool error as failing in phase; other errors pass.
func phaseError(phase UploadPhase, err error) error {
	if e, ok := AsError(err); ok {
		e.Phase = phase
		return e
	}
	return err
}

// staging is an upload's page-side staging: where it was made (info), the
// parent process's upload sink when chunks go through it ("" = console
// evaluations), and what the page said.
type staging struct {
	info  ExecInfo
	sink  string
	begin pagejs.UploadBeginResult
}

// stage checks the target and makes the page-side staging. When the
// isolated realm acts, chunks go through the parent process's upload sink
// if Firefox offers it.
func (s *Session) stage(ctx context.Context, pg page, l *Locator, meta []pagejs.UploadFile) (staging, error) {
	var key [32]byte // 256 random bits name the page-side staging
	rand.Read(key[:])
	st := staging{sink: s.sinkFor(ctx, pg)}
	var err error
	st.info, err = s.exec(ctx, pg, ActionRealm, pagejs.UploadBegin,
		pagejs.UploadBeginArgs{Key: hex.EncodeToString(key[:]), Sel: l.sel, FP: l.fp, Files: meta, Sink: st.sink != "", Ref: boundRef(l)}, &st.begin)
	return st, err
}

// deliver moves the bytes into the staging, then has the page build the
// Files and assign them in one script, so nothing runs on the page between
// the two. A staging it does not finish is dropped.
func (s *Session) deliver(ctx context.Context, pg page, l *Locator, st staging, meta []pagejs.UploadFile,
	infos []broker.FileInfo, total int64, p Progress) (fin pagejs.UploadFinishResult, err error) {
	start := time.Now()
	if err = s.moveFiles(ctx, pg, st.info, st.sink, st.begin, meta, infos, total, p); err != nil {
		s.dropStaging(ctx, pg, st)
		return fin, err
	}
	s.log.Debug("upload transfer done", "sink", st.sink != "", "bytes", total, "ms", time.Since(start).Milliseconds())
	_, err = s.execIn(ctx, pg, st.info, pagejs.UploadFinish, pagejs.UploadFinishArgs{Key: st.begin.Key, Sel: l.sel, FP: l.fp, Ref: boundRef(l)}, &fin)
	if err != nil {
		s.dropStaging(ctx, pg, st)
		phase := phaseConstruction
		if e, ok := AsError(err); ok && e.Code == errcode.UploadAssignmentFailed {
			phase = phaseAssignment
		}
		return fin, phaseError(phase, err)
	}
	return fin, nil
}

// dropStaging deletes a staging's chunks: best effort, also after
// cancellation.
func (s *Session) dropStaging(ctx context.Context, pg page, st staging) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var ignored pagejs.UploadAbortResult
	if _, err := s.execIn(actx, pg, st.info, pagejs.UploadAbort, pagejs.UploadAbortArgs{Key: st.begin.Key}, &ignored); err != nil {
		s.log.Debug("upload cleanup failed", "error", err)
	}
}

// releaseHandles gives the broker back the files' handles: best effort,
// also after cancellation.
func (s *Session) releaseHandles(ctx context.Context, handles []uint32) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := s.opts.Files.Release(rctx, handles); err != nil {
		s.log.Debug("releasing broker handles failed", "error", err)
	}
}

// uploadMeta is what the page and the cleanup need of the validated files.
func uploadMeta(infos []broker.FileInfo) (handles []uint32, total int64, meta []pagejs.UploadFile) {
	handles = make([]uint32, len(infos))
	meta = make([]pagejs.UploadFile, len(infos))
	for i, f := range infos {
		handles[i] = f.Handle
		total += f.Size
		meta[i] = pagejs.UploadFile{Name: f.Name, Size: f.Size, Type: f.MIME, LastModified: f.ModTime.UnixMilli()}
	}
	return handles, total, meta
}

// moveFiles streams the files' bytes to the page's staging: through the
// parent process's upload sink when there is one (then the sink builds the
// Files and sends them to the page's process; a sink upload that stops
// before that is ended), else as console evaluations.
func (s *Session) moveFiles(ctx context.Context, pg page, info ExecInfo, sink string, begin pagejs.UploadBeginResult,
	meta []pagejs.UploadFile, infos []broker.FileInfo, total int64, p Progress) error {
	put := s.chunkByEvaluation(pg, info, begin.Key)
	if sink == "" {
		return phaseError(phaseTransfer, s.transfer(ctx, infos, total, put, p))
	}
	put, err := s.chunkBySink(ctx, pg, sink, begin, meta)
	if err != nil {
		return phaseError(phaseTransfer, err)
	}
	if err := s.transfer(ctx, infos, total, put, p); err != nil {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := pg.c.Request(actx, sink, pagejs.SinkKey{Type: "end", Key: begin.Key}, nil); err != nil {
			s.log.Debug("upload sink cleanup failed", "error", err)
		}
		return phaseError(phaseTransfer, err)
	}
	// deliver forgets the upload, whatever its outcome.
	if err := pg.c.Request(ctx, sink, pagejs.SinkKey{Type: "deliver", Key: begin.Key}, nil); err != nil {
		return phaseError(phaseConstruction, sinkError(err))
	}
	return nil
}

// execIn runs a script in the same realm an earlier step of the same
// operation used (the staging lives there).
func (s *Session) execIn(ctx context.Context, pg page, prev ExecInfo, script pagejs.Script, args, out any) (ExecInfo, error) {
	return s.execInSent(ctx, pg, prev, script, args, out, nil)
}

func (s *Session) execInSent(ctx context.Context, pg page, prev ExecInfo, script pagejs.Script, args, out any, sent func()) (ExecInfo, error) {
	kind := PageRealm
	if prev.isolated {
		kind = ActionRealm
	}
	return s.execSent(ctx, pg, kind, script, args, out, sent)
}

// putChunk sends one raw chunk of a file to the page's staging and returns
// the confirmation; sent is called once the request is on the wire.
type putChunk func(ctx context.Context, file, index int, raw []byte, sent func()) (pagejs.UploadChunkResult, error)

// chunkByEvaluation puts chunks with one UploadChunk evaluation each, in the
// realm the staging lives in. Every evaluation result echoes its source, so
// each chunk crosses the connection twice.
func (s *Session) chunkByEvaluation(pg page, info ExecInfo, key string) putChunk {
	return func(ctx context.Context, file, index int, raw []byte, sent func()) (pagejs.UploadChunkResult, error) {
		var r pagejs.UploadChunkResult
		args := pagejs.UploadChunkArgs{Key: key, File: file, Index: index, Data: base64.StdEncoding.EncodeToString(raw)}
		_, err := s.execInSent(ctx, pg, info, pagejs.UploadChunk, args, &r, sent)
		return r, err
	}
}

// uploadSink is the parent process's upload sink actor on one connection.
type uploadSink struct {
	c     Connection // the connection it was looked for on
	actor string     // "" when Firefox does not offer it there
}

// sinkFor returns the upload sink actor on pg's connection, adding it on
// first use, or "" when uploads must use console evaluations: the page
// realm acts (it has no process message manager), a test option asks for
// it, or Firefox's DevTools internals are not what uploadSink.js expects.
func (s *Session) sinkFor(ctx context.Context, pg page) string {
	if s.opts.NoUploadSink || s.opts.PageRealmOnly {
		return ""
	}
	t, err := pg.sel.watch.Current(ctx)
	if err != nil || !s.realmFor(ctx, pg, t).ok {
		return ""
	}
	s.mu.Lock()
	sk := s.sink
	s.mu.Unlock()
	if sk.c == pg.c {
		return sk.actor
	}
	console, err := pg.c.ParentProcessConsole(ctx)
	var res pagejs.UploadSinkResult
	if err == nil {
		err = s.chrome(ctx, pg, pagejs.UploadSink, pagejs.UploadSinkArgs{Console: console}, &res)
	}
	if ctx.Err() != nil {
		return "" // not a verdict on Firefox
	}
	sk = uploadSink{c: pg.c, actor: res.Actor}
	if err != nil || res.Actor == "" {
		sk.actor = ""
		s.log.Info("upload sink unavailable; upload chunks go through console evaluations", "error", err)
	}
	s.mu.Lock()
	s.sink = sk
	s.mu.Unlock()
	return sk.actor
}

// chunkBySink opens the upload on the sink, which forwards each chunk to the
// content process of the staging's window, and puts chunks as plain packets.
func (s *Session) chunkBySink(ctx context.Context, pg page, sink string, begin pagejs.UploadBeginResult, meta []pagejs.UploadFile) (putChunk, error) {
	req := pagejs.SinkBegin{Type: "begin", Key: begin.Key, InnerWindowID: begin.Window, BrowserID: pg.sel.tab.BrowserID, Files: meta}
	if err := pg.c.Request(ctx, sink, req, nil); err != nil {
		return nil, sinkError(err)
	}
	return func(ctx context.Context, file, index int, raw []byte, sent func()) (pagejs.UploadChunkResult, error) {
		var r pagejs.UploadChunkResult
		err := pg.c.RequestData(ctx, sink, pagejs.SinkChunk{Type: "chunk", Key: begin.Key, File: file, Index: index}, raw, sent, &r)
		return r, sinkError(err)
	}, nil
}

// sinkError turns the sink's error replies into tool errors.
func sinkError(err error) error {
	var ae *rdp.ActorError
	if !errors.As(err, &ae) {
		return err
	}
	switch errcode.Code(ae.Code) {
	case errcode.TargetReplaced:
		return Errorf(errcode.TargetReplaced, "the page's document was replaced during the upload")
	case errcode.UploadTransferFailed:
		return Errorf(errcode.UploadTransferFailed, "Firefox's upload sink refused a chunk: %s", Truncate(ae.Message, 200))
	}
	return Errorf(errcode.UploadTransferFailed, "Firefox's upload sink failed: %s", Truncate(ae.Error(), 200))
}

// chunk is one raw chunk of a file on its way to the page; want is the
// file's cumulative byte count once the page has it.
type chunk struct {
	file, index int
	raw         []byte
	want        int64
}

// readAhead is how many chunks the broker reader may have ready before the
// sender takes them (reading overlaps sending), within readAheadBytes.
const readAhead = 4

// transfer streams every file from the broker into the page's staging with
// put: one goroutine reads chunks from the broker, the caller's goroutine
// puts them on the wire in order, up to window(…) outstanding.
func (s *Session) transfer(ctx context.Context, infos []broker.FileInfo, total int64, put putChunk, p Progress) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	size := s.opts.ChunkBytes
	ready := make(chan chunk, window(readAhead, readAheadBytes, size))
	go func() {
		defer close(ready)
		if err := s.readChunks(ctx, infos, ready); err != nil {
			cancel(err)
		}
	}()
	var (
		wg   sync.WaitGroup
		slot = make(chan struct{}, window(chunksInFlight, inFlightBytes, size))
		mu   sync.Mutex
		sent int64
	)
	for c := range ready {
		select {
		case slot <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		// Chunks go on the wire in order (the next one waits until this
		// one's request is written); their results are awaited in parallel.
		written := make(chan struct{})
		var once sync.Once
		onWire := func() { once.Do(func() { close(written) }) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slot }()
			defer onWire()
			r, err := put(ctx, c.file, c.index, c.raw, onWire)
			n := int64(len(c.raw))
			recycle(c.raw) // put has encoded it
			if err != nil {
				cancel(err)
				return
			}
			// Chunks are handled in wire order, so the page's running total
			// after chunk i is exactly the bytes of chunks 0…i.
			if r.File != c.file || r.Index != c.index || r.Received != c.want {
				cancel(Errorf(errcode.UploadTransferFailed, "the page confirmed chunk %d of file %d with %d bytes received, expected %d", c.index, c.file, r.Received, c.want))
				return
			}
			mu.Lock()
			sent += n
			done := sent
			mu.Unlock()
			p.Report(float64(done), float64(total), "uploading")
		}()
		select {
		case <-written:
		case <-ctx.Done():
		}
	}
	wg.Wait()
	for range ready { // let the reader see the cancellation and stop
	}
	if err := context.Cause(ctx); err != nil {
		return brokerError(err, nil) // other errors pass through unchanged
	}
	return nil
}

// chunkBuffers recycles chunk buffers: an upload cuts hundreds of them.
var chunkBuffers sync.Pool

func chunkBuffer(size int) []byte {
	if b, ok := chunkBuffers.Get().(*[]byte); ok && cap(*b) >= size {
		return (*b)[:0]
	}
	return make([]byte, 0, size)
}

func recycle(b []byte) {
	chunkBuffers.Put(&b)
}

// readChunks reads every file from the broker and cuts it into chunks of
// the configured size.
func (s *Session) readChunks(ctx context.Context, infos []broker.FileInfo, ready chan<- chunk) error {
	size := s.opts.ChunkBytes
	for i, f := range infos {
		buf := chunkBuffer(size)
		index := 0
		var cumulative int64
		emit := func() error {
			cumulative += int64(len(buf))
			select {
			case ready <- chunk{file: i, index: index, raw: buf, want: cumulative}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			index++
			buf = chunkBuffer(size)
			return nil
		}
		err := s.opts.Files.Stream(ctx, f.Handle, func(piece []byte) error {
			for len(piece) > 0 {
				n := min(len(piece), size-len(buf))
				buf = append(buf, piece[:n]...)
				piece = piece[n:]
				if len(buf) == size {
					if err := emit(); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err == nil && len(buf) > 0 {
			err = emit()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// verifyUpload compares what the page reports with what the broker sent.
func verifyUpload(infos []broker.FileInfo, got []pagejs.FileInfo) error {
	if len(got) != len(infos) {
		return Errorf(errcode.UploadAssignmentFailed, "the input holds %d file(s) after assignment, expected %d", len(got), len(infos))
	}
	for i, f := range infos {
		if got[i].Name != f.Name || got[i].Size != f.Size || got[i].Type != f.MIME {
			return Errorf(errcode.UploadAssignmentFailed, "file %d in the input is not the one sent, %s (%d bytes, %s); what the page reports is below",
				i, Quote(f.Name, 100), f.Size, f.MIME).
				WithPage("Name", got[i].Name, 100).WithPage("Size", strconv.FormatInt(got[i].Size, 10), 20).WithPage("Type", got[i].Type, 100)
		}
	}
	return nil
}

// brokerError maps broker errors to tool errors. Messages name files by
// the caller's own path (which the caller already knows) or basename.
func brokerError(err error, paths []string) error {
	var be *broker.Error
	if !errors.As(err, &be) {
		return err
	}
	where := ""
	if be.Index >= 0 && be.Index < len(paths) {
		where = Quote(paths[be.Index], 300) + ": "
	}
	switch be.Code {
	case errcode.UploadFileInvalid:
		return Errorf(errcode.UploadFileInvalid, "%s%s", where, be.Message)
	case errcode.UploadTooLarge:
		return Errorf(errcode.UploadTooLarge, "%s%s", where, be.Message)
	}
	return Errorf(errcode.UploadTransferFailed, "the file broker failed: %s", be.Message)
}

// UploadsEnabled says upload_files may run: the build allows it and a
// broker client is there.
func (s *Session) UploadsEnabled() bool { return s.opts.UploadsEnabled && s.opts.Files != nil }

// CheckUploads is uploads_disabled unless UploadsEnabled.
func (s *Session) CheckUploads() error {
	if !s.UploadsEnabled() {
		return Errorf(errcode.UploadsDisabled, "uploads are disabled in this build until FIREFOX_MCP_UPLOAD_ROOTS names a directory (set it in the MCP client's configuration and restart the server)")
	}
	return nil
}

// Upload is what an upload put into the page: the files as the broker
// validated them (names are the user's), how the page took them, and the
// page's warnings (page-derived: they quote its accept attribute).
type Upload struct {
	Files []broker.FileInfo
	Total int64
	Info  ExecInfo // where the staging ran
	// Via is how the element led to its file input: "" (it is one),
	// "label" or "click".
	Via        string
	Warnings   []string // the staging's, then the assignment's (they may repeat)
	Dispatched bool     // input and change events were dispatched
	// Reported is what the assignment script reported of Firefox's
	// privileged file assignment; Info.Trusted decides whether to believe it.
	Reported bool
}

// Upload puts the files at paths into the Op's element (a file input, or
// what opens one): validation in the broker before any byte moves, then
// staging, transfer, construction, assignment and verification. A failure
// names its phase (Error.Phase).
func (o *Op) Upload(ctx context.Context, paths []string, p Progress) (Upload, error) {
	s, pg, l := o.s, o.pg, o.l
	if err := s.CheckUploads(); err != nil {
		return Upload{}, err
	}
	// 1. Validation: every path, in the broker, before any byte moves.
	infos, err := s.opts.Files.Stat(ctx, paths)
	if err != nil {
		return Upload{}, phaseError(phaseValidation, brokerError(err, paths))
	}
	handles, total, meta := uploadMeta(infos)
	defer s.releaseHandles(ctx, handles)

	// 2. Target checks and page-side staging.
	st, err := s.stage(ctx, pg, l, meta)
	if err != nil {
		return Upload{}, phaseError(phaseValidation, err)
	}
	// 3. Transfer, then construction, assignment and verification.
	fin, err := s.deliver(ctx, pg, l, st, meta, infos, total, p)
	if err != nil {
		return Upload{}, err
	}
	if err := verifyUpload(infos, fin.Files); err != nil {
		return Upload{}, phaseError(phaseVerification, err)
	}
	return Upload{Files: infos, Total: total, Info: st.info, Via: st.begin.Via,
		Warnings: append(slices.Clip(st.begin.Warnings), fin.Warnings...), Dispatched: fin.Dispatched, Reported: fin.Trusted}, nil
}
