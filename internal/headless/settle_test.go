package headless

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestCPUTicksAndSettle: cpuTicks counts a busy process of the group (not idle
// ones, not other groups), and Settle waits while it is busy and returns once it
// is gone.
func TestCPUTicksAndSettle(t *testing.T) {
	busy := exec.Command("sh", "-c", "while :; do :; done")
	busy.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := busy.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	defer busy.Process.Kill()
	f := &Firefox{PID: busy.Process.Pid}
	// ≥ 100 ms of CPU: 300 ms on an idle machine; a loaded one (other test
	// packages run in parallel) gets there later, so the bound is generous.
	a, start := f.cpuTicks(), time.Now()
	for f.cpuTicks()-a < 10 {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("cpuTicks rose by %d ticks in 10 s of a busy loop", f.cpuTicks()-a)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if other := (&Firefox{PID: os.Getpid() + 1<<22}).cpuTicks(); other != 0 {
		t.Errorf("a group with no processes has %d ticks", other)
	}
	waited, idle := f.Settle(t.Context(), 100*time.Millisecond, 500*time.Millisecond)
	if idle || waited < 500*time.Millisecond {
		t.Errorf("Settle on a busy group: idle %v after %v, want not idle after 500ms", idle, waited)
	}
	busy.Process.Kill()
	busy.Wait()
	if waited, idle := f.Settle(t.Context(), 100*time.Millisecond, 5*time.Second); !idle || waited > 2*time.Second {
		t.Errorf("Settle on an empty group: idle %v after %v", idle, waited)
	}
}
