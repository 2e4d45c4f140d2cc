package setup

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// firefoxBinaries are the names Firefox's main program has on Linux, each
// with the builds that use it. A process is Firefox when /proc/PID/exe
// resolves to one of them; its command name is no evidence: any program
// can be called "firefox…" (this one is "firefox-rdp-mcp").
var firefoxBinaries = []struct{ name, reason string }{
	{"firefox", "Mozilla's tarball, .deb, snap and flatpak builds, and most distributions' packages"},
	{"firefox-esr", "Debian's and Ubuntu's ESR package (/usr/lib/firefox-esr/firefox-esr)"},
	{"firefox-bin", "the binary behind the launcher script of older tarballs and some distributions"},
}

// notFirefox are executables that are never Firefox even when their names
// say "firefox", with why.
var notFirefox = []struct {
	is     func(exe string) bool
	reason string
}{
	{func(exe string) bool { self, err := os.Executable(); return err == nil && exe == self }, "this program itself (doctor, setup)"},
	{func(exe string) bool { return strings.HasPrefix(filepath.Base(exe), "firefox-rdp-mcp") }, "an MCP server of this project, run by an MCP client"},
}

// IsFirefox reports whether pid is a running Firefox: its executable has
// one of Firefox's names and Firefox's omni.ja beside it (a Gecko
// application directory). The executable is read through the process's
// own root, so a flatpak Firefox (/app/lib/firefox) is found too.
func IsFirefox(pid int) bool {
	exe := Executable(pid)
	if exe == "" || !firefoxName(exe) {
		return false
	}
	for _, n := range notFirefox {
		if n.is(exe) {
			return false
		}
	}
	root := filepath.Join("/proc", strconv.Itoa(pid), "root")
	_, err := os.Stat(filepath.Join(root, filepath.Dir(exe), "omni.ja"))
	return err == nil
}

// Executable is the path /proc/PID/exe resolves to ("" when it cannot be
// read: another user's process, or one that has exited). A binary replaced
// by an update while it runs keeps its old path.
func Executable(pid int) string {
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(exe, " (deleted)")
}

func firefoxName(exe string) bool {
	base := filepath.Base(exe)
	for _, b := range firefoxBinaries {
		if base == b.name {
			return true
		}
	}
	return false
}
