// Package setup is the `firefox-rdp-mcp setup` subcommand: it prepares the
// user's own Firefox for the server, explaining each step, and changes
// nothing unless asked to with --write.
//
// It runs as the user, outside the sandbox (it reads and writes the user's
// Firefox profile, which the server itself can never touch). It finds the
// profiles (profiles.ini of Debian's firefox-esr and Mozilla's firefox, in
// ~/.mozilla/firefox and $XDG_CONFIG_HOME/mozilla/firefox, and the snap and
// flatpak locations), shows the three preferences the debugger server needs
// and what each one means for security, and with --write puts them into the
// chosen profile's user.js (after a backup; never while that profile is in
// use) and installs a .desktop launcher. It then prints how to start
// Firefox with the debugger server and the MCP client configuration with
// this binary's absolute path.
//
// # Limitations
//
// It does not edit prefs.js (Firefox rewrites it on exit) and does not undo:
// the user.js block says how. A profile on another machine (NFS home, lock
// held by another host) is reported as in use only while its .parentlock
// lock is visible here.
package setup

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Env is what setup needs from the program around it.
type Env struct {
	Home      string // the user's home directory
	XDGConfig string // $XDG_CONFIG_HOME ("" = Home/.config)
	XDGData   string // $XDG_DATA_HOME ("" = Home/.local/share)
	Exe       string // absolute path of this binary (os.Executable)
	// Socket is the debugger's Unix socket the server is configured for
	// (FIREFOX_RDP_SOCKET, else config.DefaultSocket); DefaultSocket is
	// the default path, which the client configuration need not name.
	Socket, DefaultSocket string
	// Port is the ws: endpoint's port when FIREFOX_RDP_HOST/PORT chose it
	// (0 = the socket).
	Port     int
	Now      func() time.Time
	LookPath func(string) string // path of a program on PATH, "" when absent
	// CreateProfile runs argv (a Firefox that creates its default profile
	// and exits) and waits for it; nil = not offered. cmd wires it: no
	// package but cmd starts processes.
	CreateProfile func(argv []string) error
}

// Run is `firefox-rdp-mcp setup [--write] [--profile NAME|DIR] [--socket PATH | --port N]`.
// It returns the process exit code: 0 done (or nothing to do), 1 a step
// failed, 2 bad usage.
func Run(args []string, stdout, stderr io.Writer, env Env) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("write", false, "make the changes (otherwise only explain them)")
	profile := fs.String("profile", "", "the profile to set up, by name (from profiles.ini) or directory")
	socket := fs.String("socket", env.Socket, "the debugger's Unix socket (an absolute path)")
	port := fs.Int("port", env.Port, "use the ws: endpoint on this port instead of the socket (every web page on a loopback origin can reach it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "setup: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "setup: --port %d is not a TCP port\n", *port)
		return 2
	}
	if *port == 0 && (!filepath.IsAbs(*socket) || filepath.Clean(*socket) != *socket) {
		fmt.Fprintf(stderr, "setup: --socket %q is not a clean absolute path\n", *socket)
		return 2
	}
	s := &run{out: stdout, env: env, write: *write, port: *port}
	if *port == 0 {
		s.socket = *socket
	}
	return s.main(*profile)
}

// run is one setup invocation.
type run struct {
	out    io.Writer
	env    Env
	write  bool
	socket string // the debugger's Unix socket ("" with ws:)
	port   int    // the ws: port (0 with the socket)
}

// debuggerArg is what --start-debugger-server takes.
func (s *run) debuggerArg() string {
	if s.socket != "" {
		return s.socket
	}
	return "ws:" + strconv.Itoa(s.port)
}

func (s *run) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

func (s *run) main(want string) int {
	if s.write {
		s.printf("firefox-rdp-mcp setup --write: preparing your Firefox for an AI agent, step by step.\n\n")
	} else {
		s.printf("firefox-rdp-mcp setup: what it takes for an AI agent to drive your Firefox, step by step.\n" +
			"Nothing is changed: run it again with --write to make the changes marked [--write].\n\n")
	}
	p, code := s.chooseProfile(want)
	if code != 0 {
		return code
	}
	if p.Dir == "" { // no profile yet, and a dry run: said what --write does
		return 0
	}
	if code := s.prefsStep(p); code != 0 {
		return code
	}
	if code := s.startStep(p); code != 0 {
		return code
	}
	s.printf("Step 4. Check everything (Firefox running as above):\n    %s doctor\n\n", commandLine([]string{s.env.Exe}))
	s.printf("Step 5. Tell your MCP client about the server (the path is this binary's):\n%s", clientSnippets(s.env.Exe, s.clientEnv(), s.uploadRoot()))
	s.printf("  Uploads: in a packaged build they stay off until FIREFOX_MCP_UPLOAD_ROOTS names directories\n"+
		"  (colon-separated) in the client's \"env\" entry, such as \"env\": {\"FIREFOX_MCP_UPLOAD_ROOTS\": \"%s\"};\n"+
		"  an export in a shell profile does not reach a server the client starts.\n", filepath.Join(s.env.Home, "Documents"))
	return 0
}

// uploadRoot suggests ~/Documents when it exists.
func (s *run) uploadRoot() string {
	d := filepath.Join(s.env.Home, "Documents")
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return d
	}
	return ""
}

// chooseProfile lists the profiles and picks one (creating Firefox's
// default profile with --write when there is none).
func (s *run) chooseProfile(want string) (Profile, int) {
	s.printf("Step 1. Your Firefox profiles\n")
	locs := Locations(s.env.Home, s.env.XDGConfig)
	ps, err := FindProfiles(locs)
	if err != nil {
		s.printf("  cannot read a profiles.ini: %v\n", err)
		return Profile{}, 1
	}
	if len(ps) == 0 {
		if ps, err = s.createProfile(locs); errors.Is(err, errNoProfileYet) {
			return Profile{}, 0
		} else if err != nil || len(ps) == 0 {
			return Profile{}, 1
		}
	}
	for _, p := range ps {
		s.printf("  %-20s %s%s\n", quoteName(p.Name), tilde(p.Dir, s.env.Home), s.profileNotes(p))
	}
	p, why, ok := Choose(ps, want)
	if !ok {
		s.printf("\n  %s\n  Choose one with --profile NAME (or --profile DIR).\n", why)
		return Profile{}, 1
	}
	s.printf("  → using %s (%s). Another one: --profile NAME or --profile DIR.\n\n", quoteName(p.Name), why)
	return p, 0
}

func quoteName(n string) string {
	if n == "" {
		return `""`
	}
	return n
}

func (s *run) profileNotes(p Profile) string {
	var notes []string
	switch p.Location.Flavor {
	case FlavorSnap:
		notes = append(notes, "snap Firefox")
	case FlavorFlatpak:
		notes = append(notes, "flatpak Firefox")
	}
	if p.InstallDefault {
		notes = append(notes, "the profile Firefox starts with")
	} else if p.Default {
		notes = append(notes, "Default=1")
	}
	if running, pid := Running(p.Dir); running {
		notes = append(notes, fmt.Sprintf("in use by a running Firefox (pid %d)", pid))
	}
	if len(notes) == 0 {
		return ""
	}
	return "  (" + strings.Join(notes, "; ") + ")"
}

// Choose chooses the profile: the one asked for, else the single profile an
// installation starts with, else the single Default=1 one, else the only one.
func Choose(ps []Profile, want string) (Profile, string, bool) {
	if want != "" {
		abs, _ := filepath.Abs(want)
		for _, p := range ps {
			if p.Name == want || p.Dir == filepath.Clean(want) || p.Dir == abs {
				return p, "asked for with --profile", true
			}
		}
		return Profile{}, fmt.Sprintf("no profile is named %q or lives in that directory.", want), false
	}
	for _, rule := range []struct {
		why string
		is  func(Profile) bool
	}{
		{"the profile Firefox starts with", func(p Profile) bool { return p.InstallDefault }},
		{"marked Default=1", func(p Profile) bool { return p.Default }},
		{"the only profile", func(Profile) bool { return true }},
	} {
		var hits []Profile
		for _, p := range ps {
			if rule.is(p) {
				hits = append(hits, p)
			}
		}
		if len(hits) == 1 {
			return hits[0], rule.why, true
		}
		if len(hits) > 1 {
			return Profile{}, fmt.Sprintf("%d profiles qualify (%s).", len(hits), rule.why), false
		}
	}
	return Profile{}, "no profile found.", false
}

// errNoProfileYet: a dry run found no profile and said what --write does.
var errNoProfileYet = errors.New("no profile yet")

// createProfile handles a user for whom Firefox never ran: with --write it
// starts Firefox once, headless, to create its default profile.
func (s *run) createProfile(locs []Location) ([]Profile, error) {
	bin := "firefox-esr"
	if s.env.LookPath(bin) == "" {
		bin = "firefox"
	}
	shot := filepath.Join(os.TempDir(), "firefox-rdp-mcp-setup-"+strconv.Itoa(os.Getpid())+".png")
	argv := []string{bin, "--headless", "--screenshot", shot, "about:blank"}
	s.printf("  No Firefox profile found: Firefox has not run for this user yet.\n")
	if s.env.LookPath(bin) == "" || (s.write && s.env.CreateProfile == nil) {
		s.printf("  No Firefox on PATH either. Install it (Debian: sudo apt-get install firefox-esr), start it once, quit it, and run setup again.\n")
		return nil, errors.New("no firefox")
	}
	if !s.write {
		s.printf("  [--write] start Firefox once, headless, so that it creates its default profile (it exits by itself in a few seconds):\n      %s\n", commandLine(argv))
		s.printf("  [--write] then set the three preferences the debugger server needs in that profile's user.js (Step 2),\n" +
			"  create the socket's directory and install a launcher that starts Firefox on that profile with the\n" +
			"  debugger server (Step 3), and print the command that does the same and your MCP client's configuration.\n" +
			"  Run `firefox-rdp-mcp setup --write` to do it; nothing was changed.\n")
		return nil, errNoProfileYet
	}
	s.printf("  Starting Firefox once, headless, so that it creates its default profile:\n      %s\n", commandLine(argv))
	err := s.env.CreateProfile(argv)
	os.Remove(shot)
	if err != nil {
		s.printf("  That failed: %v\n  Start Firefox once yourself, quit it, and run setup again.\n", err)
		return nil, err
	}
	ps, err := FindProfiles(locs)
	if err != nil || len(ps) == 0 {
		s.printf("  Firefox ran but no profiles.ini appeared in the known places (%v).\n", err)
		return nil, errors.New("no profile after first run")
	}
	return ps, nil
}
