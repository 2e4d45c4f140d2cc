package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// FileInfo describes one file the broker has opened for an upload.
type FileInfo struct {
	Handle  uint32
	Name    string // basename only
	Size    int64
	MIME    string
	ModTime time.Time
}

// Client is the server's side of the broker channel. It is safe for
// concurrent use: one goroutine owns the read side, writes are serialised,
// and every pending call fails with errcode.BrokerUnavailable when the channel dies.
type Client struct {
	conn *net.UnixConn
	wmu  sync.Mutex

	mu      sync.Mutex
	pending map[uint32]chan Message
	nextID  uint32
	sizes   map[uint32]int64 // handle → size promised by Stat
	dead    *Error           // set once, when the reader stops
	done    chan struct{}
}

// ReadHello waits up to timeout for the broker's Hello. Call it before
// NewClient: a broker that dies or cannot sandbox itself never says hello.
func ReadHello(conn *net.UnixConn, timeout time.Duration) (Hello, error) {
	unavailable := &Error{Code: errcode.BrokerUnavailable, Index: -1, Message: "the upload broker did not start"}
	if err := conn.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return Hello{}, unavailable
	}
	defer conn.SetReadDeadline(time.Time{})
	buf := make([]byte, MaxMessage)
	oob := make([]byte, 64)
	n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil || n == 0 {
		return Hello{}, unavailable
	}
	if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || oobn != 0 {
		return Hello{}, protoErr("the upload broker sent an oversized hello")
	}
	_, m, err := Decode(buf[:n])
	h, ok := m.(Hello)
	if err != nil || !ok {
		return Hello{}, protoErr("the upload broker did not start with hello")
	}
	return h, nil
}

// NewClient starts the reader goroutine on conn.
func NewClient(conn *net.UnixConn) *Client {
	c := &Client{
		conn:    conn,
		pending: map[uint32]chan Message{},
		nextID:  1,
		sizes:   map[uint32]int64{},
		done:    make(chan struct{}),
	}
	go c.readLoop()
	return c
}

// writeTimeout bounds a write to a broker that stopped reading.
const writeTimeout = 10 * time.Second

func (c *Client) readLoop() {
	buf := make([]byte, MaxMessage)
	oob := make([]byte, 64)
	var dead *Error
	for dead == nil {
		n, oobn, flags, _, err := c.conn.ReadMsgUnix(buf, oob)
		switch {
		case err != nil || n == 0:
			dead = &Error{Code: errcode.BrokerUnavailable, Index: -1, Message: "the upload broker process is not running"}
			continue
		case flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || oobn != 0:
			dead = &Error{Code: errcode.BrokerProtocol, Index: -1, Message: "the upload broker sent an oversized message"}
			continue
		}
		id, msg, err := Decode(buf[:n])
		if err != nil {
			dead = &Error{Code: errcode.BrokerProtocol, Index: -1, Message: "the upload broker sent a malformed message"}
			continue
		}
		if rr, ok := msg.(ReadResp); ok {
			rr.Data = append([]byte(nil), rr.Data...) // buf is reused
			msg = rr
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		retired := id < c.nextID
		c.mu.Unlock()
		switch {
		case ch != nil:
			ch <- msg
		case !retired:
			dead = &Error{Code: errcode.BrokerProtocol, Index: -1, Message: "the upload broker answered a request never sent"}
		default:
			// A reply to a cancelled request is dropped; files a cancelled
			// Stat opened are released so the broker does not hold them.
			if sr, ok := msg.(StatResp); ok {
				hs := make([]uint32, len(sr.Files))
				for i, f := range sr.Files {
					hs[i] = f.Handle
				}
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
					defer cancel()
					_ = c.Release(ctx, hs)
				}()
			}
		}
	}
	c.conn.Close()
	c.mu.Lock()
	c.dead = dead
	c.pending = map[uint32]chan Message{}
	c.mu.Unlock()
	close(c.done)
}

// call sends m and waits for its reply, ctx, or the channel's death.
func (c *Client) call(ctx context.Context, m Message) (Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ch := make(chan Message, 1)
	c.mu.Lock()
	if c.dead != nil {
		err := c.dead
		c.mu.Unlock()
		return nil, err
	}
	id := c.nextID
	c.nextID++
	c.pending[id] = ch
	c.mu.Unlock()

	b, err := Encode(nil, id, m)
	if err != nil {
		c.retire(id)
		return nil, &Error{Code: errcode.UploadFileInvalid, Index: -1, Message: err.Error()}
	}
	c.wmu.Lock()
	c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, _, err = c.conn.WriteMsgUnix(b, nil, nil)
	c.wmu.Unlock()
	if err != nil {
		c.retire(id)
		c.conn.Close() // the reader notices and fails everyone
		return nil, &Error{Code: errcode.BrokerUnavailable, Index: -1, Message: "the upload broker process is not running"}
	}
	select {
	case r := <-ch:
		if e, ok := r.(ErrorResp); ok {
			return nil, &Error{Code: e.Code, Index: int(e.Index), Message: e.Message}
		}
		return r, nil
	case <-ctx.Done():
		c.retire(id)
		return nil, ctx.Err()
	case <-c.done:
		select { // a reply may have raced the shutdown
		case r := <-ch:
			if e, ok := r.(ErrorResp); ok {
				return nil, &Error{Code: e.Code, Index: int(e.Index), Message: e.Message}
			}
			return r, nil
		default:
		}
		c.mu.Lock()
		err := c.dead
		c.mu.Unlock()
		return nil, err
	}
}

func (c *Client) retire(id uint32) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func protoErr(format string, a ...any) error {
	return &Error{Code: errcode.BrokerProtocol, Index: -1, Message: fmt.Sprintf(format, a...)}
}

// Stat asks the broker to validate every path (lexical checks, roots,
// regular file, limits) and to open them, all or nothing. The files stay
// open in the broker until Release.
func (c *Client) Stat(ctx context.Context, paths []string) ([]FileInfo, error) {
	if len(paths) == 0 {
		return nil, &Error{Code: errcode.UploadFileInvalid, Index: -1, Message: "no paths given"}
	}
	if len(paths) > MaxPaths {
		return nil, &Error{Code: errcode.UploadTooLarge, Index: -1, Message: fmt.Sprintf("at most %d files per upload", MaxPaths)}
	}
	size := headerSize + 2
	for i, p := range paths {
		if reason, ok := ValidatePath(p); !ok {
			return nil, &Error{Code: errcode.UploadFileInvalid, Index: i, Message: reason}
		}
		size += 2 + len(p)
	}
	if size > MaxMessage {
		return nil, &Error{Code: errcode.UploadFileInvalid, Index: -1, Message: "the paths are too long together; upload fewer files at once"}
	}
	r, err := c.call(ctx, StatReq{Paths: paths})
	if err != nil {
		return nil, err
	}
	resp, ok := r.(StatResp)
	if !ok || len(resp.Files) != len(paths) {
		c.conn.Close()
		return nil, protoErr("unexpected reply to stat")
	}
	out := make([]FileInfo, len(resp.Files))
	c.mu.Lock()
	for i, f := range resp.Files {
		c.sizes[f.Handle] = f.Size
		out[i] = FileInfo{Handle: f.Handle, Name: f.Name, Size: f.Size, MIME: f.MIME, ModTime: time.Unix(0, f.ModTimeNS).UTC()}
	}
	c.mu.Unlock()
	return out, nil
}

// Stream reads a handle from the start, calling fn with each piece (at
// most MaxData bytes, in order). ctx is checked between pieces. A file that
// shrank, grew, was modified or replaced since Stat is an error; fn has
// then seen a prefix only, never a silently truncated whole.
func (c *Client) Stream(ctx context.Context, handle uint32, fn func(p []byte) error) error {
	c.mu.Lock()
	size, ok := c.sizes[handle]
	c.mu.Unlock()
	if !ok {
		return &Error{Code: errcode.UploadFileInvalid, Index: -1, Message: "unknown or released file handle"}
	}
	var off int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := c.call(ctx, ReadReq{Handle: handle, Offset: off})
		if err != nil {
			return err
		}
		resp, ok := r.(ReadResp)
		if !ok || off+int64(len(resp.Data)) > size || (!resp.Last && len(resp.Data) == 0) ||
			(resp.Last && off+int64(len(resp.Data)) != size) {
			c.conn.Close()
			return protoErr("the upload broker sent an inconsistent piece")
		}
		if len(resp.Data) > 0 {
			if err := fn(resp.Data); err != nil {
				return err
			}
		}
		off += int64(len(resp.Data))
		if resp.Last {
			return nil
		}
	}
}

// Release closes handles in the broker. Unknown handles are ignored.
func (c *Client) Release(ctx context.Context, handles []uint32) error {
	for len(handles) > 0 {
		n := min(len(handles), MaxPaths*4)
		r, err := c.call(ctx, ReleaseReq{Handles: handles[:n]})
		if err != nil {
			return err
		}
		if _, ok := r.(ReleaseResp); !ok {
			c.conn.Close()
			return protoErr("unexpected reply to release")
		}
		c.mu.Lock()
		for _, h := range handles[:n] {
			delete(c.sizes, h)
		}
		c.mu.Unlock()
		handles = handles[n:]
	}
	return nil
}

// Close shuts the channel; the broker sees EOF and exits. Pending calls
// fail with errcode.BrokerUnavailable.
func (c *Client) Close() error {
	err := c.conn.Close()
	<-c.done
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Done is closed when the channel has died (broker exit or Close).
func (c *Client) Done() <-chan struct{} { return c.done }
