// Package mcp serves the Model Context Protocol over stdio: newline-delimited
// JSON-RPC 2.0, the initialize lifecycle, protocol version negotiation,
// server/discover and the per-request metadata of the 2026-07-28 revision,
// tools/list and tools/call dispatch, cancellation, progress notifications,
// and the shaping of tool results and errors.
//
// The package is the boundary to the MCP client, whose every byte is
// untrusted. It knows nothing of browsers: tools come from a [Handler], which
// receives the raw "arguments" object and validates it itself. It imports
// only the standard library.
//
// What it guarantees:
//   - Each input line is capped ([Options].MaxLineBytes, default 8 MiB) before
//     parsing; the rest of an oversize line is discarded and serving goes on.
//     Input must be strict UTF-8, one JSON object per line (no batches), with
//     exact-case, non-duplicated member names; ids are strings or numbers and
//     are echoed byte for byte.
//   - Every request gets exactly one response; notifications never get one,
//     even when invalid (those are logged at debug level).
//   - Every message is written as one compact JSON line by a single Write under
//     one mutex, so concurrent calls never interleave. Nothing else is written
//     to the output; diagnostics go to [Options].Logger only, and never
//     include argument values.
//   - tools/call runs each call on its own goroutine. notifications/cancelled
//     cancels the call's context from the read loop without blocking; as the
//     spec asks, the cancelled request then gets no response at all (calls
//     cancelled by the server's shutdown get the tool error "cancelled",
//     retryable). A handler
//     panic becomes the tool error "internal_error"; the panic is logged.
//   - Two eras side by side. Legacy: initialize negotiates 2025-11-25,
//     2025-06-18, 2025-03-26 or 2024-11-05 for the session (any other request,
//     2026-07-28 included, gets 2025-11-25). Modern (2026-07-28): no
//     handshake; a request whose params._meta names
//     io.modelcontextprotocol/protocolVersion is served on its own under that
//     version, whatever the session did (an unsupported version is -32022
//     with data {supported, requested}; an envelope without
//     io.modelcontextprotocol/clientCapabilities is -32602). Modern methods
//     are server/discover (supportedVersions, capabilities, instructions),
//     tools/list and tools/call; modern results carry resultType "complete"
//     and _meta io.modelcontextprotocol/serverInfo, tools/list and
//     server/discover also ttlMs 0 and cacheScope "private".
//   - Features are shaped by the request's version: structuredContent,
//     outputSchema and the tool title from 2025-06-18 (older clients get the
//     structured JSON as a second text item), annotations and the progress
//     message from 2025-03-26.
//
// # Limitations
//
//   - Only the tools capability is served: no resources, prompts, logging,
//     sampling, tasks, pagination, list-changed notifications or (modern)
//     subscriptions/listen and input_required results. The modern
//     envelope's client capabilities and log level are read for validity only.
//   - The one request the server sends is elicitation/create, in form mode,
//     through the [Elicitor] a tool call's context carries ([ElicitorFrom]).
//     It exists only for a legacy session whose client declared
//     capabilities.elicitation at initialize ({} or {"form":{}}; a client
//     declaring only "url" cannot show a form) under 2025-06-18 or newer. A
//     modern (2026-07-28) call has no elicitor: that revision has no
//     server-to-client requests, so a tool must do without (firefox-rdp-mcp's
//     lock asks in its window). Its ids start "firefox-rdp-mcp/elicitation/";
//     at most 4 wait at once (one more is refused unsent); a wait ends with
//     the call's context or after 10 minutes, and the server then sends
//     notifications/cancelled for its request. Responses are routed from
//     the read loop without blocking it; unknown, late and duplicate ones
//     are logged at debug level and dropped; a malformed result or an error
//     response is no answer. An accept can come from software: the client
//     decides who answers, so what an answer is worth is the caller's
//     judgement.
//   - Cancellation is cooperative: a handler that ignores ctx keeps running
//     (and delays Serve's return). A call the client cancelled after its side
//     effects happened is not answered either; its id stays in use until the
//     handler returns.
//   - Progress reports are queued (64 per call at most; more are dropped) and
//     written before the call's response; non-increasing reports are dropped.
//   - Serve cannot interrupt a blocked read of its input: when ctx ends Serve,
//     the reading goroutine lingers until the input yields data or is closed.
//
// # Example
//
//	srv := mcp.NewServer(handler, mcp.Options{
//		Implementation: mcp.Implementation{Name: "firefox-rdp-mcp", Version: version},
//		Logger:         slog.New(tint.NewHandler(os.Stderr, nil)),
//	})
//	if err := srv.Serve(ctx, os.Stdin, os.Stdout); err != nil {
//		logger.Error("mcp", "err", err)
//	}
//
// where handler implements [Handler] (decodeStrict, selectTabArgs and tabInfo
// are the handler's own):
//
//	func (h *tools) CallTool(ctx context.Context, name string, args json.RawMessage, p mcp.Progress) mcp.Result {
//		var in selectTabArgs
//		if err := decodeStrict(args, &in); err != nil {
//			return mcp.ToolError(errcode.InvalidArguments, err.Error(), errcode.InvalidArguments.Retryable())
//		}
//		p.Report(1, 2, "selecting")
//		return mcp.Result{Text: "Selected tab 3", Structured: tabInfo{ID: in.TabID}}
//	}
package mcp
