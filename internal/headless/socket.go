package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// trySocketGreeting is tryGreeting over the Unix socket, which speaks RDP's
// stream framing ("length:{json}"): it waits for the root greeting and a
// listed tab. (This package cannot use package rdp, whose tests use it.)
func trySocketGreeting(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	r := bufio.NewReader(conn)
	write := func(v any) error {
		body, err := json.Marshal(v)
		if err == nil {
			_, err = conn.Write(append([]byte(strconv.Itoa(len(body))+":"), body...))
		}
		return err
	}
	return greetAndList(func(v any) error { return readFramed(r, v) }, write)
}

// readFramed reads one "length:{json}" packet of at most 1 MiB into v.
func readFramed(r *bufio.Reader, v any) error {
	head, err := r.ReadString(':')
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(head[:len(head)-1])
	if err != nil || n < 0 || n > 1<<20 {
		return fmt.Errorf("bad packet length %q", head)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
