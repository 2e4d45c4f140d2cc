package confirm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Client is the server's side of the helper channel: one question at a
// time (the window is one), answers matched by id, so the answer to a
// question whose caller gave up is dropped, never taken for the next one.
type Client struct {
	conn  *net.UnixConn
	mu    sync.Mutex // one question at a time
	next  uint32
	avail Availability
}

// ErrHelperGone: the helper process is not running.
var ErrHelperGone = errors.New("the confirmation window helper is not running")

// ReadHello waits up to timeout for the helper's Hello and returns the
// client. A helper that never says hello did not start.
func ReadHello(conn *net.UnixConn, timeout time.Duration) (*Client, error) {
	var h Hello
	if err := read(conn, time.Now().Add(timeout), &h); err != nil || !h.Hello {
		return nil, fmt.Errorf("confirm helper did not start: %v", err)
	}
	return &Client{conn: conn, avail: h.Avail}, nil
}

// Availability is what the helper found at its start.
func (c *Client) Availability() Availability { return c.avail }

// Ask shows r to the user and waits for the answer (at most AnswerTimeout
// and a margin). When ctx ends first the answer is a refusal: the window
// may still be up, and its answer, when it comes, is dropped.
func (c *Client) Ask(ctx context.Context, r Request) (Answer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	r.ID = c.next
	if err := write(c.conn, r); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrHelperGone, err)
	}
	deadline := time.Now().Add(AnswerTimeout + 10*time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	stop := context.AfterFunc(ctx, func() { c.conn.SetReadDeadline(time.Now()) })
	defer stop()
	for {
		var a Answer
		if err := read(c.conn, deadline, &a); err != nil {
			if ctx.Err() != nil {
				return Answer{}, ctx.Err()
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return Answer{ID: r.ID, Outcome: Timeout}, nil
			}
			return Answer{}, fmt.Errorf("%w: %v", ErrHelperGone, err)
		}
		if a.ID == r.ID {
			return a, nil
		}
		// An earlier question's late answer: dropped.
	}
}

// Close ends the channel; the helper sees EOF and exits.
func (c *Client) Close() error { return c.conn.Close() }

func read(conn *net.UnixConn, deadline time.Time, v any) error {
	conn.SetReadDeadline(deadline)
	buf := make([]byte, MaxMessage+1)
	oob := make([]byte, 64)
	n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("closed")
	}
	if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || oobn != 0 {
		return fmt.Errorf("%w: truncated", ErrMalformed)
	}
	return decodeStrict(buf[:n], v)
}
