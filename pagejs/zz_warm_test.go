package pagejs_test

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

func zmed(v []float64) float64 { s := append([]float64(nil), v...); sort.Float64s(s); return s[len(s)/2] }

func TestZZWarm(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	p := open(t, "/large.html")
	args := pagejs.SnapshotArgs{MaxElements: 5000, MaxTextChars: 300000, Pin: "0123456789abcdef0123456789abcdef"}
	rsrc, _ := pagejs.Snapshot.PageResident()
	call, _ := pagejs.Snapshot.PageCall(args)
	wa := args
	wa.Warm = true
	wcall, _ := pagejs.Snapshot.PageCall(wa)
	var cold, hot, hot2 []float64
	for i := 0; i < 10; i++ {
		for v := 0; v < 2; v++ {
			from := p.target().InnerWindowID
			p.assign(fmt.Sprintf("/large.html?%d-%d", i, v), from)
			p.w.WaitReady(p.ctx, "complete")
			console := p.target().ConsoleActor
			actor, err := p.c.EvaluateObject(p.ctx, console, rsrc, rdp.EvalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if v == 1 {
				p.c.EvaluateString(p.ctx, console, wcall, rdp.EvalOptions{Await: true, Self: actor})
			}
			time.Sleep(700 * time.Millisecond)
			if v == 1 {
				r, _ := p.c.EvaluateString(p.ctx, console, wcall, rdp.EvalOptions{Await: true, Self: actor})
				if i == 0 {
					t.Log(r)
				}
			}
			s := time.Now()
			if _, err := p.c.EvaluateString(p.ctx, console, call, rdp.EvalOptions{Await: true, Self: actor}); err != nil {
				t.Fatal(err)
			}
			d := float64(time.Since(s).Microseconds()) / 1000
			if v == 0 {
				cold = append(cold, d)
			} else {
				hot = append(hot, d)
			}
			if v == 1 {
				s := time.Now()
				p.c.EvaluateString(p.ctx, console, call, rdp.EvalOptions{Await: true, Self: actor})
				hot2 = append(hot2, float64(time.Since(s).Microseconds())/1000)
			}
		}
	}
	t.Logf("cold %.1f warm %.1f again(no have) %.1f  %v %v", zmed(cold), zmed(hot), zmed(hot2), cold, hot)
}
