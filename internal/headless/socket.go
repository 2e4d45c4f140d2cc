package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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
	var g struct {
		From string `json:"from"`
	}
	if err := readFramed(r, &g); err != nil {
		return fmt.Errorf("reading greeting: %w", err)
	}
	if g.From != "root" {
		return fmt.Errorf("greeting from %q, want root", g.From)
	}
	body := []byte(`{"to":"root","type":"listTabs"}`)
	if _, err := conn.Write(append([]byte(strconv.Itoa(len(body))+":"), body...)); err != nil {
		return fmt.Errorf("listTabs: %w", err)
	}
	for {
		var reply struct {
			From string            `json:"from"`
			Type string            `json:"type"`
			Tabs []json.RawMessage `json:"tabs"`
		}
		if err := readFramed(r, &reply); err != nil {
			return fmt.Errorf("reading listTabs reply: %w", err)
		}
		if reply.From != "root" || reply.Type != "" {
			continue // an event
		}
		if len(reply.Tabs) == 0 {
			return errors.New("no tab yet")
		}
		return nil
	}
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
