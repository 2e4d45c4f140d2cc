package e2e

import (
	"bufio"
	"os/exec"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// startToInitialize starts the binary and measures the time until its
// answer to initialize is read.
func startToInitialize(b *testing.B, env []string) time.Duration {
	cmd := exec.Command(binary)
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n")); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil || len(line) == 0 {
		b.Fatalf("no initialize answer: %v", err)
	}
	return time.Since(start)
}

func benchStart(b *testing.B, env []string) {
	samples := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		samples = append(samples, startToInitialize(b, env))
	}
	b.ReportMetric(benchutil.MedianMS(samples), "ms-median")
}

// BenchmarkStartToInitialize: process start → initialize answered, with the
// broker started and the sandbox on (the default), and with it off.
// Run with -benchtime=20x for medians of 20.
func BenchmarkStartToInitialize(b *testing.B) {
	b.Run("sandbox=enforce", func(b *testing.B) { benchStart(b, nil) })
	b.Run("sandbox=off", func(b *testing.B) { benchStart(b, []string{"FIREFOX_MCP_SANDBOX=off"}) })
}
