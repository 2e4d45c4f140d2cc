package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/mcp"
)

// interopHandler is a minimal tool set for the go-sdk client test.
type interopHandler struct {
	slowReturned chan error // the ctx error the slow tool saw
}

func (interopHandler) Tools() []mcp.Tool {
	return []mcp.Tool{
		{Name: "echo", Title: "Echo", Description: "echo",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "fail", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
}

func (h interopHandler) CallTool(ctx context.Context, name string, args json.RawMessage, p mcp.Progress) mcp.Result {
	switch name {
	case "echo":
		var in struct{ Text string }
		json.Unmarshal(args, &in)
		p.Report(0.5, 1, "halfway")
		p.Report(1, 1, "done")
		return mcp.Result{Text: in.Text, Structured: map[string]string{"echo": in.Text}}
	case "slow":
		<-ctx.Done()
		h.slowReturned <- ctx.Err()
		return mcp.Result{Text: "late"}
	}
	return mcp.ToolError("element_not_found", "nothing there", true)
}

// TestGoSDKClient proves interoperability with the official Go SDK as a
// real client: handshake, ping, tools/list, tool calls, progress and
// cancellation, under the 2025-11-25 handshake and, the SDK's default, the
// 2026-07-28 revision (server/discover, then requests with the _meta
// envelope; ping is not part of it).
func TestGoSDKClient(t *testing.T) {
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) { testGoSDKClient(t, v) })
	}
}

func testGoSDKClient(t *testing.T, version string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h := interopHandler{slowReturned: make(chan error, 1)}
	srv := mcp.NewServer(h, mcp.Options{Implementation: mcp.Implementation{Name: "interop", Version: "0.0.1"}})
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, c2sR, s2cW)
		s2cW.Close()
	}()

	var mu sync.Mutex
	var progress []*sdk.ProgressNotificationParams
	client := sdk.NewClient(&sdk.Implementation{Name: "sdk-client", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params)
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: s2cR, Writer: c2sW}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if got := cs.InitializeResult(); got.ServerInfo == nil || got.ServerInfo.Name != "interop" || got.Capabilities.Tools == nil || got.ProtocolVersion != version {
		t.Errorf("initialize (or discover) result: %+v", got)
	}
	if version < "2026-07-28" {
		if err := cs.Ping(ctx, nil); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if len(list.Tools) != 3 || list.Tools[0].Name != "echo" || list.Tools[0].Title != "Echo" ||
		list.Tools[0].Annotations == nil || !list.Tools[0].Annotations.ReadOnlyHint {
		t.Errorf("tools: %+v", list.Tools)
	}

	params := &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("CallTool echo: %v", err)
	}
	if res.IsError || res.Content[0].(*sdk.TextContent).Text != "hi" {
		t.Errorf("echo result: %+v", res)
	}
	if sc, _ := json.Marshal(res.StructuredContent); string(sc) != `{"echo":"hi"}` {
		t.Errorf("structuredContent = %s", sc)
	}
	// The SDK may run notification handlers after the call has returned,
	// though the server wrote them first.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n >= 2 {
			break
		}
	}
	mu.Lock()
	if len(progress) != 2 || progress[0].ProgressToken != "tok" || progress[1].Message != "done" {
		t.Errorf("progress notifications: %+v", progress)
	}
	mu.Unlock()

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "fail"})
	if err != nil || !res.IsError {
		t.Errorf("fail: %+v, %v", res, err)
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "missing"}); err == nil {
		t.Error("unknown tool: no error")
	}

	// The SDK client sends notifications/cancelled when its ctx ends.
	callCtx, callCancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &sdk.CallToolParams{Name: "slow"})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	callCancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call returned %v", err)
	}
	select {
	case err := <-h.slowReturned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("slow tool saw %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the server never cancelled the slow call")
	}

	if err := cs.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
