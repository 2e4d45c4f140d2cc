package pagejs_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// inPage measures, inside the page, how long expr takes (test-side wrapper).
func (p *page) inPage(console, expr string) float64 {
	p.t.Helper()
	res, err := p.c.EvaluateString(p.ctx, console,
		"(async () => { const now = typeof performance === \"object\" ? () => performance.now() : () => ChromeUtils.now(); const t0 = now(); await "+expr+"; return String(now() - t0); })()",
		rdp.EvalOptions{Await: true})
	if err != nil {
		p.t.Fatal(err)
	}
	ms, err := strconv.ParseFloat(res, 64)
	if err != nil {
		p.t.Fatalf("timing %q: %v", res, err)
	}
	return ms
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// BenchmarkSnapshotLarge snapshots the ≈3,000-element page with limits covering it,
// page text included: per realm, the round trip per op and the median in-page time
// over 20 runs (ms-in-page); then the resident snapshot's median round trip and the
// time to install it; then the cost of binding refs to nodes (resident-bound, with and
// without page text: ms-unbound, ms-bound, %-binding).
func BenchmarkSnapshotLarge(b *testing.B) {
	p := open(b, "/large.html")
	args := pagejs.SnapshotArgs{MaxElements: 5000, MaxTextChars: 300000, IncludeAllText: true}
	// The listener marks the server makes once per document (in the background) before
	// its first walk: the walks below read them, as the server's do.
	start := time.Now()
	var m pagejs.ListenerMarksResult
	p.must(isolatedRealm, pagejs.ListenerMarks, pagejs.ListenerMarksArgs{}, &m)
	b.Logf("listener marks: %d elements looked at, %d marked, %.1f ms round trip", m.Scanned, m.Count, float64(time.Since(start).Microseconds())/1000)
	for _, r := range realms {
		b.Run(string(r), func(b *testing.B) {
			p.t = b
			console, expr := p.expr(r, pagejs.Snapshot, args)
			var inPage []float64
			for i := 0; i < 20; i++ {
				inPage = append(inPage, p.inPage(console, expr))
			}
			var s pagejs.SnapshotResult
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				res, err := p.c.EvaluateString(p.ctx, console, expr, rdp.EvalOptions{Await: true})
				if err != nil {
					b.Fatal(err)
				}
				if err := pagejs.Decode(res, &s); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if s.Total != fixtures.LargeListed {
				b.Errorf("total = %d, want %d", s.Total, fixtures.LargeListed)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/roundtrip")
			b.ReportMetric(median(inPage), "ms-in-page")
		})
	}
	// The page realm's resident snapshot (what the server uses): installing it once,
	// then calls, each timed end to end.
	b.Run("resident", func(b *testing.B) {
		p.t = b
		src, err := pagejs.Snapshot.PageResident()
		if err != nil {
			b.Fatal(err)
		}
		console := p.target().ConsoleActor
		var install []float64
		var actor string
		for i := 0; i < 5; i++ {
			start := time.Now()
			if actor, err = p.c.EvaluateObject(p.ctx, console, src, rdp.EvalOptions{}); err != nil {
				b.Fatal(err)
			}
			install = append(install, float64(time.Since(start).Microseconds())/1000)
		}
		call, err := pagejs.Snapshot.PageCall(args)
		if err != nil {
			b.Fatal(err)
		}
		var s pagejs.SnapshotResult
		var times []float64
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			res, err := p.c.EvaluateString(p.ctx, console, call, rdp.EvalOptions{Await: true, Self: actor})
			if err != nil {
				b.Fatal(err)
			}
			if err := pagejs.Decode(res, &s); err != nil {
				b.Fatal(err)
			}
			times = append(times, float64(time.Since(start).Microseconds())/1000)
		}
		b.StopTimer()
		if s.Total != fixtures.LargeListed {
			b.Errorf("total = %d, want %d", s.Total, fixtures.LargeListed)
		}
		b.ReportMetric(median(times), "ms-median")
		b.ReportMetric(median(install), "ms-install")
	})
	// The cost of binding refs to nodes: resident calls without and with the hand-off
	// (then BindRefs in the isolated realm), interleaved so both see the same load.
	b.Run("resident-bound", func(b *testing.B) {
		p.t = b
		benchBinding(b, p, args)
	})
	b.Run("resident-bound-notext", func(b *testing.B) {
		p.t = b
		benchBinding(b, p, pagejs.SnapshotArgs{MaxElements: 5000})
	})
}

func benchBinding(b *testing.B, p *page, args pagejs.SnapshotArgs) {
	src, err := pagejs.Snapshot.PageResident()
	if err != nil {
		b.Fatal(err)
	}
	tg := p.target()
	actor, err := p.c.EvaluateObject(p.ctx, tg.ConsoleActor, src, rdp.EvalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	iso, err := p.c.ContentProcessConsole(p.ctx, tg.ProcessID)
	if err != nil {
		b.Fatal(err)
	}
	snap := func(a pagejs.SnapshotArgs) int {
		call, err := pagejs.Snapshot.PageCall(a)
		if err != nil {
			b.Fatal(err)
		}
		res, err := p.c.EvaluateString(p.ctx, tg.ConsoleActor, call, rdp.EvalOptions{Await: true, Self: actor})
		if err != nil {
			b.Fatal(err)
		}
		var s pagejs.SnapshotResult
		if err := pagejs.Decode(res, &s); err != nil {
			b.Fatal(err)
		}
		return len(s.Elements)
	}
	var plain, bound []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		snap(args)
		plain = append(plain, ms(time.Since(start)))
		// As the server does: BindRefs sent with the snapshot, waiting for its hand-off.
		start = time.Now()
		a := args
		a.Pin = fmt.Sprintf("%032x", i+1)
		ba := pagejs.BindRefsArgs{Key: a.Pin, Max: 5000, WaitMS: 10000}
		expr, err := pagejs.BindRefs.Isolated(tg.InnerWindowID, ba)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan pagejs.BindRefsResult, 1)
		go func() {
			res, err := p.c.EvaluateString(p.ctx, iso, expr, rdp.EvalOptions{Await: true})
			var r pagejs.BindRefsResult
			if err == nil {
				err = pagejs.Decode(res, &r)
			}
			if err != nil {
				b.Error(err)
			}
			done <- r
		}()
		n := snap(a)
		r := <-done
		if _, ok := r.IDs(n); !ok {
			b.Fatalf("binding failed: %+v", r)
		}
		bound = append(bound, ms(time.Since(start)))
	}
	b.StopTimer()
	b.ReportMetric(median(plain), "ms-unbound")
	b.ReportMetric(median(bound), "ms-bound")
	b.ReportMetric(100*(median(bound)/median(plain)-1), "%-binding")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkActions: round trip of one script evaluation per op (build, evaluate, decode)
// for the actions, in both realms side by side, on the forms fixture; "cached" is the
// isolated realm through the copies its console keeps (IsolatedCached).
func BenchmarkActions(b *testing.B) {
	p := open(b, "/forms.html")
	s := p.snapshot(isolatedRealm)
	btn := find(b, s, "button", "Trusted only")
	user := find(b, s, "textbox", "User")
	text100 := strings.Repeat("abcdefghij", 10)
	cases := []struct {
		name   string
		script pagejs.Script
		args   any
	}{
		{"click", pagejs.Click, pagejs.ClickArgs{Sel: btn.Sel, FP: btn.FP}},
		{"fill", pagejs.Fill, pagejs.FillArgs{Sel: user.Sel, FP: user.FP, Value: "Ada Lovelace"}},
		{"typeText100", pagejs.TypeText, pagejs.TypeTextArgs{Sel: user.Sel, FP: user.FP, Text: text100, FirstChunk: true}},
		{"pressKeyEnd", pagejs.PressKey, pagejs.PressKeyArgs{Sel: user.Sel, FP: &user.FP, Key: "End"}},
		{"pageInfo", pagejs.PageInfo, nil},
		{"describe", pagejs.Describe, pagejs.DescribeArgs{Sel: user.Sel}},
		{"waitForSelector", pagejs.WaitFor, pagejs.WaitForArgs{Selector: "#user"}},
	}
	for _, c := range cases {
		for _, r := range []realm{pageRealm, isolatedRealm, cachedRealm} {
			b.Run(c.name+"/"+string(r), func(b *testing.B) {
				p.t = b
				var times []float64
				for i := 0; i < b.N; i++ {
					start := time.Now()
					p.must(r, c.script, c.args, nil)
					times = append(times, float64(time.Since(start).Microseconds())/1000)
					if c.name == "typeText100" {
						p.js(`document.getElementById("user").value = ""`)
					}
				}
				b.ReportMetric(median(times), "ms-median")
			})
		}
	}
}

// BenchmarkUpload stages and assigns files through UploadBegin/Chunk/Finish, one chunk
// evaluation at a time (the server pipelines; this is the scripts' floor), and reports
// MiB/s for 20 MiB in 256 KiB chunks and the time of a 10 KiB file.
func BenchmarkUpload(b *testing.B) {
	p := open(b, "/upload.html")
	multi := find(b, p.snapshot(isolatedRealm), "", "Attachments")
	big := testFile{"big.bin", "application/octet-stream", randomBytes(b, 20<<20)}
	small := testFile{"small.bin", "application/octet-stream", randomBytes(b, 10<<10)}
	for _, r := range realms {
		b.Run("20MiB/"+string(r), func(b *testing.B) {
			p.t = b
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := p.upload(r, multi, []testFile{big}, 256<<10); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(big.data))/(1<<20)/time.Since(start).Seconds(), "MiB/s")
		})
		b.Run("10KiB/"+string(r), func(b *testing.B) {
			p.t = b
			var ts []float64
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := p.upload(r, multi, []testFile{small}, 256<<10); err != nil {
					b.Fatal(err)
				}
				ts = append(ts, float64(time.Since(t0).Microseconds())/1000)
			}
			b.ReportMetric(median(ts), "ms-median")
		})
	}
}

// BenchmarkSnapshotLargeKeep: the resident's walks on the ≈3,000-element page, page
// text left out, as the server makes them (medians of the round trips, ms): "first" is a
// freshly installed resident's first walk (every entry made); "one-change" a walk after
// one button's aria-expanded flipped, naming the result held (one entry made afresh, a
// patch returned; no style sheet names aria-expanded, so the elements shown are the last
// walk's and only that button's row is visited); "unchanged" the {same} answer;
// "class-change" the same after a class no sheet names toggled on it; "styled-change"
// after a class a rule names (.row) toggled on it, so every element's visibility is
// judged anew. They alternate, so machine noise falls on all alike. Use -benchtime 20x.
func BenchmarkSnapshotLargeKeep(b *testing.B) {
	p := open(b, "/large.html")
	src, err := pagejs.Snapshot.PageResident()
	if err != nil {
		b.Fatal(err)
	}
	console := p.target().ConsoleActor
	call := func(actor string, have int) (pagejs.SnapshotResult, float64) {
		c, err := pagejs.Snapshot.PageCall(pagejs.SnapshotArgs{MaxElements: 5000, Have: have})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res, err := p.c.EvaluateString(p.ctx, console, c, rdp.EvalOptions{Await: true, Self: actor})
		d := ms(time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		var s pagejs.SnapshotResult
		if err := pagejs.Decode(res, &s); err != nil {
			b.Fatal(err)
		}
		return s, d
	}
	var first, change, same, class, styled []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		actor, err := p.c.EvaluateObject(p.ctx, console, src, rdp.EvalOptions{})
		if err != nil {
			b.Fatal(err)
		}
		s, d := call(actor, 0)
		if s.Total != fixtures.LargeListed || len(s.Elements) != fixtures.LargeListed {
			b.Fatalf("first walk: %d of %d elements", len(s.Elements), s.Total)
		}
		first = append(first, d)
		p.js(`document.querySelector("button").toggleAttribute("aria-expanded")`)
		s2, d := call(actor, s.Seq)
		if s2.Base != s.Seq || len(s2.Elements) != 1 {
			b.Fatalf("one change: base %d, %d fresh elements, want a patch of %d with one", s2.Base, len(s2.Elements), s.Seq)
		}
		change = append(change, d)
		s3, d := call(actor, s2.Seq)
		if s3.Same != s2.Seq {
			b.Fatalf("unchanged: same = %d, want %d", s3.Same, s2.Seq)
		}
		same = append(same, d)
		p.js(`document.querySelector("button").classList.toggle("bench")`)
		s4, d := call(actor, s3.Same)
		if s4.Base != s3.Same || len(s4.Elements) != 1 {
			b.Fatalf("class change: base %d, %d fresh elements, want a patch of %d with one", s4.Base, len(s4.Elements), s3.Same)
		}
		class = append(class, d)
		p.js(`document.querySelector("button").classList.toggle("row")`)
		s5, d := call(actor, s4.Seq)
		if s5.Base != s4.Seq || len(s5.Elements) != 1 {
			b.Fatalf("styled class change: base %d, %d fresh elements, want a patch of %d with one", s5.Base, len(s5.Elements), s4.Seq)
		}
		styled = append(styled, d)
	}
	b.StopTimer()
	b.ReportMetric(median(first), "ms-first")
	b.ReportMetric(median(change), "ms-one-change")
	b.ReportMetric(median(same), "ms-unchanged")
	b.ReportMetric(median(class), "ms-class-change")
	b.ReportMetric(median(styled), "ms-styled-change")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSnapshotPhases: the parts of a full walk of the ≈3,000-element page (page
// text left out), each on freshly evaluated lib.js (cold code, as a resident's first
// walk runs), means in ms over b.N runs (in-page clock, 1 ms steps): ms-collect
// (lib.collect: candidates, visibility), ms-entries (lib.entry for every element),
// ms-snapshot (the whole script: both, rows, JSON, deflate), ms-json and ms-deflate
// (JSON.stringify of its uncompressed value; that JSON deflated and base64-encoded).
// Use -benchtime 20x.
func BenchmarkSnapshotPhases(b *testing.B) {
	p := open(b, "/large.html")
	quote := func(s string) string {
		q, err := json.Marshal(s)
		if err != nil {
			b.Fatal(err)
		}
		return string(q)
	}
	p.js(`(window.benchLib = ` + quote("("+pagejs.LibSource+")") + `, window.benchSnap = ` + quote("("+pagejs.SnapshotSource+")") + `, 1)`)
	const args = `{maxElements: 5000, maxTextChars: 0}`
	phases := []struct{ name, setup, timed string }{
		{"collect", ``, `L.collect(false, null)`},
		{"entries", `const all = L.collect(false, null);`, `for (let i = 0; i < all.length; i++) L.entry(all[i], true)`},
		{"snapshot", `const snap = (0, eval)(benchSnap);`, `await snap(window, ` + args + `, L, null)`},
		{"json", `const out = await (0, eval)(benchSnap)(window, ` + args + `, Object.assign({}, L, {isolated: true}), null);`, `window.benchJSON = JSON.stringify(out)`},
		{"deflate", ``, `new Uint8Array(await new Response(new Blob([benchJSON]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer()).toBase64()`},
	}
	sums := make([]float64, len(phases))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, ph := range phases {
			res, err := p.c.EvaluateString(p.ctx, p.target().ConsoleActor, `(async () => { const L = (0, eval)(benchLib)(window, {realm: "page"}); `+
				ph.setup+` const t0 = performance.now(); `+ph.timed+`; return String(performance.now() - t0); })()`, rdp.EvalOptions{Await: true})
			if err != nil {
				b.Fatalf("%s: %v", ph.name, err)
			}
			ms, err := strconv.ParseFloat(res, 64)
			if err != nil {
				b.Fatalf("%s: %q", ph.name, res)
			}
			sums[j] += ms
		}
	}
	b.StopTimer()
	for j, ph := range phases {
		b.ReportMetric(sums[j]/float64(b.N), "ms-"+ph.name)
	}
	b.ReportMetric(0, "ns/op")
}
