package main

import (
	"io"
	"os"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/doctor"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// runDoctor wires `doctor` (see internal/doctor): the report on w, progress
// while waiting for a Firefox that is still starting on stderr.
func runDoctor(w io.Writer) int {
	cfg, err := loadConfig()
	home, _ := os.UserHomeDir()
	return doctor.Run(doctor.Options{
		Config:    cfg,
		ConfigErr: err,
		Out:       w,
		Progress:  os.Stderr,
		Home:      home,
		XDGConfig: os.Getenv("XDG_CONFIG_HOME"),
		Sandbox:   sandbox.Probe,
		Window:    func() confirm.Availability { return confirm.Probe(os.Environ()) },
	})
}
