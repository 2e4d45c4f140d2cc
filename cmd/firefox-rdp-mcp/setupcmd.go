package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/setup"
)

// runSetup wires `setup`: it runs as the user, unsandboxed (it edits the
// user's Firefox profile, which the server can never reach).
func runSetup(args []string) int {
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s setup: %v\n", name, err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s setup: cannot find this binary's path: %v\n", name, err)
		return 1
	}
	// The endpoint the server will use: FIREFOX_RDP_SOCKET or the default
	// socket, unless FIREFOX_RDP_HOST/PORT chose the ws: endpoint.
	def := config.DefaultSocket(os.Getenv)
	socket, port := def, 0
	if s := os.Getenv(config.EnvSocket); s != "" {
		socket = s
	}
	if os.Getenv(config.EnvHost) != "" || os.Getenv(config.EnvPort) != "" {
		port = 6000
		if p, err := strconv.Atoi(os.Getenv(config.EnvPort)); err == nil && p > 0 && p < 65536 {
			port = p
		}
	}
	return setup.Run(args, os.Stdout, os.Stderr, setup.Env{
		Home:          home,
		XDGConfig:     os.Getenv("XDG_CONFIG_HOME"),
		XDGData:       os.Getenv("XDG_DATA_HOME"),
		Exe:           exe,
		Socket:        socket,
		DefaultSocket: def,
		Port:          port,
		Now:           time.Now,
		LookPath: func(prog string) string {
			p, _ := exec.LookPath(prog)
			return p
		},
		CreateProfile: createProfile,
	})
}

// createProfile runs a Firefox that creates its default profile and exits
// (setup passes a headless --screenshot run), within a minute.
func createProfile(argv []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "MOZ_HEADLESS=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w: %s", err, truncateOutput(out))
	}
	return nil
}

func truncateOutput(b []byte) string {
	if len(b) > 500 {
		b = b[len(b)-500:]
	}
	return string(b)
}
