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
	a := f.cpuTicks()
	time.Sleep(300 * time.Millisecond)
	if b := f.cpuTicks(); b-a < 10 { // ≥ 100 ms of CPU in 300 ms
		t.Fatalf("cpuTicks rose by %d ticks in 300 ms of a busy loop", b-a)
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
