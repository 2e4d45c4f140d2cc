package headless

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Settle waits until Firefox is idle: until, over a window of window, all
// of its processes together use less than 5% of one CPU, or until max has
// passed. It returns how long it waited and whether Firefox became idle.
//
// Benchmarks call it before timing: a Firefox that was just launched, or
// that just loaded a large page, keeps its processes busy for a few seconds
// (start-up work, garbage and cycle collection), and the server is meant
// for the user's long-running Firefox, not for one still starting up.
func (f *Firefox) Settle(ctx context.Context, window, max time.Duration) (time.Duration, bool) {
	start := time.Now()
	prev := f.cpuTicks()
	for time.Since(start) < max {
		select {
		case <-ctx.Done():
			return time.Since(start), false
		case <-time.After(window):
		}
		now := f.cpuTicks()
		used := time.Duration(now-prev) * time.Second / userHZ
		prev = now
		if used*20 < window {
			return time.Since(start), true
		}
	}
	return time.Since(start), false
}

// userHZ is the unit of the CPU times in /proc (clock ticks per second): 100
// on every Linux architecture this project builds for.
const userHZ = 100

// cpuTicks sums user and system CPU time of the processes in Firefox's
// process group (Firefox and its content processes), in clock ticks.
func (f *Firefox) cpuTicks() uint64 {
	f.mu.Lock()
	pgid := f.PID
	f.mu.Unlock()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var total uint64
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp … utime(14) stime(15): fields after the
		// last ')' (comm may contain spaces and parentheses).
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 13 {
			continue
		}
		if g, _ := strconv.Atoi(fields[2]); g != pgid {
			continue
		}
		u, _ := strconv.ParseUint(fields[11], 10, 64)
		st, _ := strconv.ParseUint(fields[12], 10, 64)
		total += u + st
	}
	return total
}
