package pagejs_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// The settle window, measured on renders that frameworks make late: React 18 and
// Preact 10 (pinned, fetched from npm at test set-up, never committed) and plain
// animation-frame renders (testdata/settle/apps.html).

var settleLibs = []string{"react@18.3.1", "react-dom@18.3.1", "preact@10.29.8", "jquery@3.7.1"}

// appsServer serves the apps page, the libraries and /api/slow.
func appsServer(t testing.TB) *httptest.Server {
	t.Helper()
	mods := npmlibs.Dir(t, settleLibs...)
	mux := http.NewServeMux()
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
	mux.HandleFunc("/apps.html", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/settle/apps.html") })
	mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		time.Sleep(time.Duration(min(ms, 2000)) * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, `["alpha","beta","gamma"]`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// appTrial is what the page logged of one click (times in ms from the click).
type appTrial struct {
	T0     float64      `json:"t0"` // the click, in the page's clock
	Done   bool         `json:"done"`
	DoneAt float64      `json:"doneAt"`
	Muts   []float64    `json:"muts"`
	Reqs   [][2]float64 `json:"reqs"`
	// SettledBy is when, at the latest, the settle had ended (page clock, ms
	// after the click), read right after it.
	SettledBy string `json:"-"`
}

// idleGap is the longest stretch without activity (a mutation, a request in flight)
// between the click and the render of its result: the shortest window that a settle
// by time alone needs not to end before the render.
func (tr appTrial) idleGap() float64 {
	type span struct{ from, to float64 }
	spans := []span{{0, 0}}
	for _, m := range tr.Muts {
		if m <= tr.DoneAt {
			spans = append(spans, span{m, m})
		}
	}
	for _, r := range tr.Reqs {
		spans = append(spans, span{r[0], r[1]})
	}
	slices.SortFunc(spans, func(a, b span) int { return int((a.from - b.from) * 1000) })
	gap, end := 0.0, 0.0
	for _, s := range spans {
		if s.from > tr.DoneAt {
			break
		}
		gap = max(gap, s.from-end)
		end = max(end, s.to)
	}
	return gap
}

// appPage opens the apps page for lib.
func appPage(t testing.TB, srv *httptest.Server, lib string) *page {
	t.Helper()
	p := openOn(t, srv.URL, "/apps.html?lib="+lib)
	if got := p.waitJS(`window.__ready === true`, "true"); got != "true" {
		t.Fatalf("the %s page did not start", lib)
	}
	return p
}

// appTrialRun clicks mode's button, settles with args in the isolated realm (as an
// action does) and returns the settle's result, whether the result was rendered when
// it ended, and the page's log once the render is there.
func appTrialRun(t testing.TB, p *page, k int, mode string, args pagejs.SettleArgs) (pagejs.SettleResult, bool, appTrial) {
	t.Helper()
	p.js(`__begin(` + strconv.Itoa(k) + `, "` + mode + `")`)
	var res pagejs.SettleResult
	p.must(isolatedRealm, pagejs.Settle, args, &res)
	by := p.js(`__since()`)
	report := `__report(` + strconv.Itoa(k) + `)`
	var tr appTrial
	if err := json.Unmarshal([]byte(p.js(report)), &tr); err != nil {
		t.Fatal(err)
	}
	covered := tr.Done
	deadline := time.Now().Add(5 * time.Second)
	for !tr.Done && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if err := json.Unmarshal([]byte(p.js(report)), &tr); err != nil {
			t.Fatal(err)
		}
	}
	if !tr.Done {
		t.Fatalf("%s: trial %d never rendered its result", mode, k)
	}
	time.Sleep(60 * time.Millisecond) // the page quiet again before the next click
	tr.SettledBy = by
	return res, covered, tr
}

// TestFirefoxSettleFrames: with longMs, a settle in a visible document ends only
// after an animation frame that began after the last change and the 0 ms timers the
// page set in it: a render the click put off to the next frame or the one after, and
// Preact's effects (run after the next frame) with the request they start, are inside
// the wait. A page that changes again and again, or shows no frames, is quiet only
// after longMs.
// (longMs is long here, so that the frame decides, whatever the machine's load.)
func TestFirefoxSettleFrames(t *testing.T) {
	srv := appsServer(t)
	args := pagejs.SettleArgs{QuietMS: 5, CapMS: 5000, LongMS: 3000}
	cases := []struct{ lib, mode string }{{"raf", "raf"}, {"raf", "raf2"}, {"preact", "effect"}, {"react", "effect"}, {"preact", "chain"}}
	for _, c := range cases {
		t.Run(c.lib+"-"+c.mode, func(t *testing.T) {
			p := appPage(t, srv, c.lib)
			// Three trials whose settle began within 50 ms of the click, as the
			// server's does; on a loaded machine one began 370 ms after it, when
			// the chain's first answer was in and its next request not yet asked
			// (the page's main thread starved): a trial of another case, made again
			// (at most five more).
			for k, late := 1, 0; k <= 3+late; k++ {
				res, covered, tr := appTrialRun(t, p, k, c.mode, args)
				if began := res.StartedMS - tr.T0; began > 50 && late < 5 {
					t.Logf("trial %d: the settle began %.0f ms after the click; made again", k, began)
					late++
					continue
				}
				if !res.Quiet || res.Frames == 0 || !covered {
					t.Errorf("trial %d: %+v, result rendered before the settle ended: %v (rendered at %.1f ms; settled by %s ms; mutations at %v; requests %v)",
						k, res, covered, tr.DoneAt, tr.SettledBy, tr.Muts, tr.Reqs)
				}
			}
		})
	}
	t.Run("jquery-fade-late-frames", func(t *testing.T) {
		// jQuery's fadeOut changes the panel's opacity in every animation frame for
		// 600 ms, then hides it; every frame here takes 45 ms longer (as on a loaded
		// machine), so the gap between two of its changes is longer than longMs. With
		// the figures the server sends (10 and 30 ms), the wait still ends only after
		// a frame without a change: once the panel is hidden.
		p := appPage(t, srv, "jquery")
		p.js(`__slow(45)`)
		defer p.js(`__slow(0)`)
		for k := 1; k <= 3; k++ {
			res, covered, tr := appTrialRun(t, p, k, "fade", pagejs.SettleArgs{QuietMS: 10, CapMS: 3000, LongMS: 30})
			if !res.Quiet || res.Frames == 0 || !covered {
				t.Errorf("trial %d: %+v, result rendered before the settle ended: %v (rendered at %.1f ms; settled by %s ms; mutations at %v)",
					k, res, covered, tr.DoneAt, tr.SettledBy, tr.Muts)
			}
		}
	})
	t.Run("changing", func(t *testing.T) {
		// A page that changes every 5 ms (more than one burst) needs longMs of quiet.
		// The ticks come from a worker, whose timers a tab just opened does not throttle.
		p := appPage(t, srv, "raf")
		p.js(`(() => { const w = new Worker(URL.createObjectURL(new Blob(["let k = 0; const iv = setInterval(() => { postMessage(k++); if (k > 400) clearInterval(iv); }, 5);"], {type: "text/javascript"}))); w.onmessage = (ev) => { document.body.dataset.n = String(ev.data); }; window.__w = w; return 1; })()`)
		var res pagejs.SettleResult
		p.must(isolatedRealm, pagejs.Settle, pagejs.SettleArgs{QuietMS: 20, CapMS: 300, LongMS: 3000}, &res)
		p.js(`window.__w.terminate()`)
		if res.Quiet || res.WaitedMS < 300 || res.Mutations < 2 {
			t.Errorf("changing page: %+v, want the cap (300 ms)", res)
		}
	})
	t.Run("no-frames", func(t *testing.T) {
		// A hidden document, which shows no frame (here, in the page realm, its
		// requestAnimationFrame never calls back and it says it is hidden), is
		// quiet after longMs.
		p := appPage(t, srv, "raf")
		p.js(`(() => { window.requestAnimationFrame = () => 1; Object.defineProperty(document, "visibilityState", {get: () => "hidden"}); return 1; })()`)
		var res pagejs.SettleResult
		p.must(pageRealm, pagejs.Settle, pagejs.SettleArgs{QuietMS: 5, CapMS: 2000, LongMS: 80}, &res)
		if !res.Quiet || res.WaitedMS < 80 || res.WaitedMS >= 2000 || res.Frames != 0 {
			t.Errorf("no frames: %+v, want quiet after longMs (80) without frames", res)
		}
	})
}

// BenchmarkSettleWindow prints, for each settle rule and each kind of late render,
// how many settles ended before the render (premature) and the median wait, and, for
// each kind of render, the longest idle stretch (no mutation, no request in flight)
// between the click and the render: the window that time alone would need. b.N
// trials per cell (use -benchtime 10x).
func BenchmarkSettleWindow(b *testing.B) {
	srv := appsServer(b)
	rules := []struct {
		name string
		args pagejs.SettleArgs
	}{
		{"quiet30", pagejs.SettleArgs{QuietMS: 30, CapMS: 1000}},
		{"quiet15", pagejs.SettleArgs{QuietMS: 15, CapMS: 1000}},
		{"quiet10", pagejs.SettleArgs{QuietMS: 10, CapMS: 1000}},
		{"quiet5", pagejs.SettleArgs{QuietMS: 5, CapMS: 1000}},
		{"frame+quiet10", pagejs.SettleArgs{QuietMS: 10, CapMS: 1000, LongMS: 30}},
		{"frame+quiet8", pagejs.SettleArgs{QuietMS: 8, CapMS: 1000, LongMS: 30}},
		{"frame+quiet6", pagejs.SettleArgs{QuietMS: 6, CapMS: 1000, LongMS: 30}},
		{"frame+quiet5", pagejs.SettleArgs{QuietMS: 5, CapMS: 1000, LongMS: 30}},
	}
	cases := []struct{ lib, mode string }{
		{"react", "handler"}, {"react", "effect"}, {"react", "chain"},
		{"preact", "handler"}, {"preact", "effect"}, {"preact", "chain"},
		{"raf", "raf"}, {"raf", "raf2"}, {"raf", "timer8"},
	}
	pages := map[string]*page{}
	k := 0
	for _, c := range cases {
		if pages[c.lib] == nil {
			pages[c.lib] = appPage(b, srv, c.lib)
		}
		var gaps []float64
		for _, r := range rules {
			var waits []float64
			premature := 0
			for i := 0; i < b.N; i++ {
				k++
				res, covered, tr := appTrialRun(b, pages[c.lib], k, c.mode, r.args)
				if !covered {
					premature++
				}
				waits = append(waits, float64(res.WaitedMS))
				gaps = append(gaps, tr.idleGap())
			}
			b.Logf("%-7s %-8s %-14s premature %2d/%d  median wait %5.1f ms", c.lib, c.mode, r.name, premature, b.N, median(waits))
		}
		slices.Sort(gaps)
		b.Logf("%-7s %-8s idle gap before the render: median %.1f ms, p90 %.1f, max %.1f (%d trials)", c.lib, c.mode,
			median(gaps), gaps[len(gaps)*9/10], gaps[len(gaps)-1], len(gaps))
	}
	b.ReportMetric(0, "ns/op")
}
