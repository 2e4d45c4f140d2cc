package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// PrepareRuntime makes the Go runtime do now what it would otherwise do
// lazily, after the sandbox has taken the files away:
//   - time.Local: the first local-time format reads /etc/localtime (or $TZ);
//   - GOMAXPROCS: since Go 1.25 sysmon re-reads the cgroup CPU limit about
//     once a second; setting GOMAXPROCS explicitly stops that (documented by
//     the runtime for sandboxed programs).
func PrepareRuntime() {
	_ = time.Local.String()
	_ = time.Now().Format(time.RFC3339)
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
}

// TidyFDs marks every open fd ≥ 3 close-on-exec, so nothing the server
// inherited reaches the broker (os/exec passes on fds without FD_CLOEXEC).
// The runtime's own fds (netpoller, cgroup files) already carry the flag,
// so marking them again changes nothing.
func TidyFDs() error {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("sandbox: list fds: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return fmt.Errorf("sandbox: list fds: %w", err)
	}
	for _, n := range names {
		fd, err := strconv.Atoi(n)
		if err != nil || fd < 3 {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil {
			if errors.Is(err, unix.EBADF) {
				continue // the directory fd used for the listing
			}
			return fmt.Errorf("sandbox: fd %d: %w", fd, err)
		}
		if flags&unix.FD_CLOEXEC == 0 {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC); err != nil {
				return fmt.Errorf("sandbox: fd %d: %w", fd, err)
			}
		}
	}
	return nil
}
