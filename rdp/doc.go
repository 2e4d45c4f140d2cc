// Package rdp is a client for Firefox's DevTools Remote Debugging Protocol
// (RDP) over the Unix socket that `firefox --start-debugger-server /PATH`
// opens (RDP's stream framing, "length:{json}"), or the WebSocket of
// `--start-debugger-server ws:PORT` (one packet per text frame), which
// every web page on a loopback origin can reach and so is kept for Firefox
// builds that need it (Endpoint). It knows packets and actors, nothing
// about MCP tools: the rest of the program sees tabs, targets, console
// actors and string results, never packet shapes.
//
// The trust boundary: the peer is the user's own Firefox on a loopback
// address, but everything it relays from web pages (titles, URLs, evaluation
// results, exception messages) is untrusted data. Inputs are capped (the
// WebSocket read limit, the joined long-string size); a malformed packet ends
// the connection with ErrProtocol instead of a panic. Logs name actors,
// packet types and error codes only, never scripts or results.
//
// How it works:
//   - What it may send is Methods (methods.go): one row per request type,
//     with its actor and reason. Any other type is refused before it reaches
//     the socket (ErrMethodNotAllowed); TestMethodAllowlist compares the
//     table with every request the code of rdp and browser builds.
//   - One goroutine owns the read side and routes every packet. RDP has no
//     request ids: a packet with a top-level "type" is an event; any other
//     packet is the reply to the oldest pending request to the actor it comes
//     from (each actor answers in order), so pending requests queue per actor.
//   - evaluateJSAsync answers twice: an acknowledgement carrying a resultID,
//     then an evaluationResult event matched by console and id (it may
//     overtake the acknowledgement, and results may come out of order).
//     Firefox makes ids ("<start time>-<counter>") unique per console only.
//     The acknowledgement leaves as soon as the console's process reads the
//     request, before the code runs; a process whose main thread is busy (a
//     page script in an endless loop blocks its whole content process)
//     sends none, which EvalOptions.AckTimeout turns into ErrUnresponsive.
//   - Every evaluation runs as the script address EvalURL (evaluateJSAsync's
//     url), not Firefox's "debugger eval code": what Firefox logs against the
//     page at our scripts (a deprecation warning) then names its source, and
//     the console buffer leaves it out. Firefox keeps an exception's frames
//     only below a "debugger eval code" one, so such an evaluation's
//     exception comes without a stack (EvalError.Stack empty).
//   - Strings of 10,000 UTF-16 units or more come back as long-string actors;
//     they are fetched with substring requests and joined as UTF-16, because a
//     chunk can end inside a surrogate pair.
//   - EvaluateObject keeps an evaluation's object result as an actor (alive
//     until its target goes away, or a "release" request); EvalOptions.Self binds
//     such an actor as _self in a later evaluation on the same target
//     (selectedObjectActor), which is how a function created once is called
//     again.
//   - WatchTab follows a tab with the watcher actor: every navigation
//     replaces the top-level target and its console actor, and a pending
//     evaluation on a destroyed target never gets a result, so it is failed
//     with ErrTargetGone. Every frame document, same- or cross-origin, is a
//     watcher target too (TabWatch.Frames, TabWatch.Frame), with its own
//     console and process.
//   - A TabWatch also buffers the tab's console-message, error-message and
//     network-event resources (resources.go; not privileged code's, nor
//     what our own evaluations caused): bounded FIFOs of
//     MaxConsoleEntries and MaxNetworkEntries entries and 2 MiB of text each,
//     with a navigation entry whenever the top-level target is replaced.
//     Console packets come from each target (frames too), network packets
//     from the watcher; updates are merged by resourceId. Clone keeps the
//     buffers alive across other handles' Close. RequestDetails asks the
//     netEvent actor for headers and a bounded prefix of the body; Firefox
//     destroys those actors when the page navigates (ErrDetailsGone).
//   - Screenshots take Firefox's own capture path (screenshot.go documents
//     it): prepareCapture on the target's screenshotContentActor, capture on
//     the root's screenshotActor with disableFlash, PNG only.
//
// # Duplicated packets (Firefox ESR 153)
//
// Firefox can deliver every packet of a content process's forwarding prefix
// twice or more. DevToolsProcessParent's #unregisterWatcher keeps a watcher's
// forwarding channel open when the connection still has another watcher with
// targets in that process (say, a popup the tab opened), and the next
// watchTargets on the first watcher opens a second channel for the same
// prefix: both forward each packet. Seen live: select a self-closing popup,
// let it close, select the first tab again; each reply then came three
// times, so a snapshot's acknowledgement also popped the FIFO entry of the
// resident install sent behind it, which received the snapshot's result
// while the snapshot waited out its timeout. The dispatcher therefore drops
// an acknowledgement or evaluationResult whose console and resultID it has
// already seen, and, on a prefix that has shown duplicates, a reply
// identical to the packet just before it from the same actor (copies arrive
// back to back). TestFirefoxDuplicatedForwarding reproduces it on the real
// browser, TestFakeDuplicatedPackets replays the packet order.
//
// # IMPORTANT
//
//   - ContentProcessConsole and ParentProcessConsole return consoles that run
//     code with the system principal (full browser privileges). Evaluate only
//     constant scripts with JSON-encoded arguments there, never text that came
//     from a page or a model.
//   - A request that outlives Options.RequestTimeout (or a ctx deadline,
//     after 2 s or more) is retired but stays queued, so its reply, if it
//     ever comes, is swallowed in order and later replies still reach their
//     own requests. Until it comes, new requests to that actor fail at once
//     with ErrUnresponsive instead of queueing behind it (Actor.js sends an
//     actor's replies in request order, so they could not overtake it). A
//     destroyed actor's pending requests are failed with ErrTargetGone
//     (target-destroyed-form, forwardingCancelled). The connection is closed
//     only when it fails; reconnecting is the caller's job: Dial a new Client.
//   - Every TabWatch wait has a deadline: ctx's, else RequestTimeout. A tab
//     that stays without a top-level target is ErrNoTarget (seen: a page
//     redirected through a 302 to file:// ends on about:blank, and the
//     watcher reports no new target for it; and a new watcher of a tab whose
//     content process is stuck in a page script: watchTargets answers, but
//     without that tab's target, while the tab descriptor still shows the
//     page's http(s) address).
//   - A request cancelled through its ctx stays queued but retired: its reply
//     is swallowed when it arrives, so the next request to that actor still
//     gets its own reply.
//   - unwatchTargets, unwatchResources and clearResources never get a reply;
//     this package sends them without waiting.
//
// # Limitations
//
//   - A target obtained with a tab descriptor's getTarget (rather than the
//     watcher) goes stale silently on navigation; use WatchTab.
//   - Page scripts run in the page's own realm, where the page can replace
//     built-ins such as JSON.stringify; see ContentProcessConsole for the
//     Xray-isolated alternative.
//
// Example:
//
//	c, err := rdp.Dial(ctx, netip.MustParseAddrPort("127.0.0.1:6000"), rdp.Options{})
//	if err != nil { … }
//	defer c.Close()
//	tabs, err := c.ListTabs(ctx)
//	w, err := c.WatchTab(ctx, tabs[0])
//	defer w.Close()
//	target, err := w.WaitReady(ctx, "interactive")
//	title, err := c.EvaluateString(ctx, target.ConsoleActor, "JSON.stringify(document.title)", rdp.EvalOptions{})
package rdp
