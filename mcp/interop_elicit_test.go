package mcp_test

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/mcp"
)

// askHandler's one tool asks the lock's question through the call's
// elicitor and answers with the outcome.
type askHandler struct{}

func (askHandler) Tools() []mcp.Tool {
	return []mcp.Tool{{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}

func (askHandler) CallTool(ctx context.Context, _ string, _ json.RawMessage, _ mcp.Progress) mcp.Result {
	e := mcp.ElicitorFrom(ctx)
	if e == nil {
		return mcp.Result{Text: "window"}
	}
	a, err := confirm.Elicitation{Client: e}.Ask(ctx, confirm.Request{Categories: []confirm.Category{confirm.Payment},
		Origin: "https://shop.example", Gesture: "click the element below", Element: "Pay €49.00"})
	if err != nil {
		return mcp.Result{Text: err.Error()}
	}
	return mcp.Result{Text: string(a.Outcome) + " " + a.Detail}
}

func allowTrue(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": true}}, nil
}

// TestGoSDKElicitation: the official Go SDK, as a client with an
// elicitation handler, receives the lock's request (its schema passes the
// SDK's checks) and its answers come back; without a handler (no
// capability declared), or in the 2026-07-28 revision, nothing is asked.
func TestGoSDKElicitation(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		handle        func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
		want          string
	}{
		{"accept", "", allowTrue, "yes "},
		{"modern era", "2026-07-28", allowTrue, "window"},
		{"accept default", "", func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"allow": false}}, nil
		}, "no the user left allow unset or false in the MCP client"},
		{"decline", "", func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "decline"}, nil
		}, "no the user answered decline in the MCP client"},
		{"no capability", "", nil, "window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv := mcp.NewServer(askHandler{}, mcp.Options{Implementation: mcp.Implementation{Name: "interop", Version: "0"}})
			c2sR, c2sW := io.Pipe()
			s2cR, s2cW := io.Pipe()
			go func() { srv.Serve(ctx, c2sR, s2cW); s2cW.Close() }()
			client := sdk.NewClient(&sdk.Implementation{Name: "sdk-client", Version: "1"}, &sdk.ClientOptions{ElicitationHandler: tc.handle})
			cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: s2cR, Writer: c2sW}, &sdk.ClientSessionOptions{ProtocolVersion: cmp.Or(tc.version, "2025-11-25")})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask"})
			if err != nil || res.Content[0].(*sdk.TextContent).Text != tc.want {
				t.Fatalf("%v %v", res, err)
			}
		})
	}
}
