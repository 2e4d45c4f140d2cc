package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// client is a minimal MCP client over a child's stdin/stdout: enough to
// show, line by line, what an MCP host sends and receives.
type client struct {
	w      io.Writer
	r      *bufio.Reader
	mu     sync.Mutex
	nextID int
	notes  func(method string, params json.RawMessage)
}

type rpcMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newClient(w io.Writer, r io.Reader) *client {
	return &client{w: w, r: bufio.NewReaderSize(r, 1<<20)}
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.w.Write(append(b, '\n'))
	return err
}

// call sends a request and returns its result, passing notifications that
// arrive meanwhile to c.notes.
func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if err := c.send(req); err != nil {
		return nil, err
	}
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("reading the server's answer to %s: %w", method, err)
		}
		var m rpcMessage
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("the server wrote a non-JSON line on stdout: %q", line)
		}
		if m.ID == nil {
			if c.notes != nil {
				c.notes(m.Method, m.Params)
			}
			continue
		}
		if *m.ID != id {
			return nil, fmt.Errorf("answer for id %d while waiting for %d", *m.ID, id)
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: JSON-RPC error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result, nil
	}
}

// toolResult is the part of a tools/call result the demo shows.
type toolResult struct {
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     []byte `json:"data"` // image items: base64 on the wire
		MIMEType string `json:"mimeType"`
	} `json:"content"`
	Structured map[string]any `json:"structuredContent"`
	IsError    bool           `json:"isError"`
}

func (c *client) tool(name string, args map[string]any, progressToken any) (toolResult, error) {
	params := map[string]any{"name": name, "arguments": args}
	if progressToken != nil {
		params["_meta"] = map[string]any{"progressToken": progressToken}
	}
	raw, err := c.call("tools/call", params)
	if err != nil {
		return toolResult{}, err
	}
	var r toolResult
	err = json.Unmarshal(raw, &r)
	return r, err
}

func (r toolResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}
