package main

import (
	"errors"
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"log/slog"
	"os"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// enterSandbox confines the server process: it pre-touches what the Go
// runtime would open lazily, then applies Landlock (no filesystem, TCP
// connect to rdpPort only) and the server seccomp allowlist on all threads.
// Mode "off" skips it with a loud warning; packaged builds refuse "off".
func enterSandbox(mode sandbox.Mode, rdpPort uint16, log *slog.Logger) (sandbox.Report, error) {
	if err := mode.Check(); err != nil {
		return sandbox.Report{}, err
	}
	if mode == build.SandboxOff {
		sup := sandbox.Probe()
		fmt.Fprintln(os.Stderr, offBanner)
		log.Warn("SANDBOX DISABLED: this process can read and write your files and reach the network", "env", "FIREFOX_MCP_SANDBOX=off")
		return sandbox.Report{Mode: build.SandboxOff, LandlockABI: sup.LandlockABI}, nil
	}
	sandbox.PrepareRuntime()
	rep, err := sandbox.ApplyServer(rdpPort)
	if err != nil {
		return sandbox.Report{}, explainSandboxError(err)
	}
	log.Debug("sandbox applied", "landlock_abi", rep.LandlockABI, "seccomp", rep.Seccomp, "syscalls", rep.Syscalls)
	return rep, nil
}

const offBanner = `
************************************************************************
*  WARNING: FIREFOX_MCP_SANDBOX=off -- the sandbox is DISABLED.        *
*  This process and its file broker run with all of your rights.      *
*  Use this only to debug the sandbox itself.                          *
************************************************************************`

// explainSandboxError turns a kernel shortfall into what is missing and
// what the user can do about it.
func explainSandboxError(err error) error {
	var ue *sandbox.UnsupportedError
	if !errors.As(err, &ue) {
		return err
	}
	var b strings.Builder
	b.WriteString("the sandbox cannot be enforced on this kernel (FIREFOX_MCP_SANDBOX=enforce). Missing:\n")
	for _, m := range ue.Missing {
		b.WriteString("  - " + m + "\n")
	}
	b.WriteString("To proceed: run on Linux 6.12 or newer with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y and \"landlock\" in the lsm= boot parameter) and seccomp filters (CONFIG_SECCOMP_FILTER=y)")
	if build.OffAllowed {
		b.WriteString(", or, to debug only, set FIREFOX_MCP_SANDBOX=off (this development build then runs unconfined)")
	} else {
		b.WriteString("; this packaged build cannot run without the sandbox")
	}
	return errors.New(b.String())
}
