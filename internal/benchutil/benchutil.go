// Package benchutil holds what the benchmarks share: timing tool calls
// against a real Firefox and reporting medians (one run is a whole tool call
// or process start, where machine noise makes the mean meaningless), and the
// snapshot-line figures the issues ask for. Used by tests only.
package benchutil

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// Run runs f b.N times, setup (may be nil) untimed before each, reports the
// median as ms-median (ns/op is zeroed) and returns the durations.
func Run(b *testing.B, setup, f func()) []time.Duration {
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if setup != nil {
			setup()
		}
		start := time.Now()
		f()
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(MedianMS(d), "ms-median")
	b.ReportMetric(0, "ns/op")
	return d
}

// RunClean is Run for a benchmark that drives the server as a process of its
// own: the benchmark process's garbage is collected before each timed call
// (untimed), so that the client's own collection of what earlier calls left
// (a 3,000-element snapshot's answer is ≈120 KB, which the SDK client
// decodes several times over) does not land in the server's figure. What
// the timed call itself allocates is still collected when it must be.
func RunClean(b *testing.B, setup, f func()) []time.Duration {
	return Run(b, func() {
		if setup != nil {
			setup()
		}
		runtime.GC()
	}, f)
}

// Median is the median duration.
func Median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// MedianMS is Median in milliseconds.
func MedianMS(d []time.Duration) float64 { return float64(Median(d).Microseconds()) / 1000 }

// ReportLines reports how many element lines ("[e12] …") a snapshot text
// has and their mean length in characters.
func ReportLines(b *testing.B, snapshot string) {
	n, chars := 0, 0
	for _, l := range strings.Split(snapshot, "\n") {
		if strings.HasPrefix(l, "[e") {
			n++
			chars += len([]rune(l))
		}
	}
	b.ReportMetric(float64(n), "elements")
	b.ReportMetric(float64(chars)/float64(max(n, 1)), "chars/line")
}
