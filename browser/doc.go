// Package browser is the engine of firefox-rdp-mcp: it owns the life of
// the tab the server drives in the user's Firefox. It holds the RDP
// connection (dialled lazily, redialled after a failure, over the small
// Connection and TabWatch interfaces onto package rdp), the selected tab
// and its ref generation, the refs bound to page nodes, the choice of realm
// a script runs in and the residents kept there, the upload sink, and the
// watching of dialogs, navigations, console and network. It turns an
// operation into RDP requests and page scripts (package pagejs), and reads
// local files only through the broker client (package broker).
//
// The tool table above it (package tools) decodes each tool call and words
// each answer; the engine knows no tool. It offers operations on a held tab
// (Op: Session.Page, Acting, Viewing, Watching) and whole verbs (Snapshot,
// Status, ListTabs, SelectTab, NewTab, CloseTab), with results in Go types.
//
// # Trust boundary
//
// Two kinds of input arrive here, and neither is trusted for the server's
// own claims:
//
//   - everything a page says (titles, URLs, names, values, dialog text, script
//     results): handed up as page-derived strings, rendered only between
//     nonce markers (Untrusted, Page), bounded, and never used to decide what
//     the server reports about itself. Whether input was trusted comes from
//     where the script ran (ExecInfo.Trusted), not from the page's reply, and
//     refs are checked against a server-side fingerprint, or the node itself,
//     before every action, so a page cannot steer an action onto a
//     look-alike;
//   - Firefox's replies over RDP: decoded with caps on every size.
//
// Actions run in Firefox's isolated realm (system principal, the page seen
// through Xray wrappers) when it is available, so page monkeypatches are
// invisible and input events are trusted; the page realm is a
// feature-detected fallback whose results are never trusted.
//
// # Limitations
//
// IMPORTANT: the server acts with the user's signed-in sessions. It never
// submits a form on its own, but a click the agent asks for is the user's
// click: sites see no difference. Uploads read only files whose absolute
// paths the client names, through the broker's checks; what the page does
// with them after assignment (many widgets send them at once) is the page's.
//
// # Example
//
//	s := browser.New(browser.Options{Host: "127.0.0.1", Addr: addr, RequestTimeout: 30 * time.Second,
//		MaxElements: 500, MaxTextChars: 50000, Logger: log})
//	defer s.Close()
//	op, err := s.Acting(ctx, "e12")
//	if err != nil {
//		return err
//	}
//	defer op.Release()
//	l := op.Element()
//	var r pagejs.ActionResult
//	info, err := op.Run(ctx, browser.ActionRealm, pagejs.Click, pagejs.ClickArgs{Sel: l.Sel(), FP: l.FP(), Ref: l.Node()}, &r)
//	trusted := info.Trusted(r.Trusted)
package browser
