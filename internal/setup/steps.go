package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
)

// prefsStep shows the three preferences and, with --write, sets them.
func (s *run) prefsStep(p Profile) int {
	s.printf("Step 2. Three preferences in %s\n", tilde(p.Dir, s.env.Home))
	st, err := ReadPrefs(p.Dir)
	if err != nil {
		s.printf("  cannot read its preferences: %v\n", err)
		return 1
	}
	missing := 0
	for _, pr := range Prefs {
		now := "not set (Firefox's default applies)"
		if v, ok := st[pr.Name]; ok {
			now = "set to " + v.Value + " in " + v.File
		}
		mark := "needs changing"
		if st[pr.Name].OK(pr) {
			mark = "already right"
		} else {
			missing++
		}
		s.printf("  %s = %v   (now: %s; %s)\n      %s\n", pr.Name, pr.Value, now, mark, pr.Meaning)
	}
	userJS := filepath.Join(p.Dir, "user.js")
	if missing == 0 {
		s.printf("  All three are set: nothing to write.\n\n")
		return 0
	}
	running, pid := Running(p.Dir)
	if !s.write {
		s.printf("  [--write] set them in %s (Firefox reads it at every start; a copy of an existing user.js is kept next to it).\n", tilde(userJS, s.env.Home))
		if running {
			s.printf("  That profile is in use by a running Firefox (pid %d): quit Firefox first, or --write will refuse.\n", pid)
		}
		s.printf("\n")
		return 0
	}
	backup, err := WriteUserJS(p.Dir, s.env.Now())
	var re *RunningError
	if errors.As(err, &re) {
		s.printf("  Not written: %v\n", err)
		return 1
	}
	if err != nil {
		s.printf("  Writing %s failed: %v\n", userJS, err)
		return 1
	}
	if backup != "" {
		s.printf("  Kept the previous user.js as %s.\n", tilde(backup, s.env.Home))
	}
	s.printf("  Wrote the three preferences to %s. They take effect when Firefox next starts.\n\n", tilde(userJS, s.env.Home))
	return 0
}

// startStep says how to start Firefox with the debugger server and, with
// --write, creates the socket's directory and installs the launcher.
func (s *run) startStep(p Profile) int {
	l := launchFor(p, s.debuggerArg(), s.env.LookPath)
	s.printf("Step 3. Start Firefox with the debugger server, on this profile\n")
	s.printf("  Quit Firefox first if it is running: a second start only opens a window in the running\n" +
		"  Firefox, which then has no debugger server. Then:\n")
	argv, name, comment := l.Argv, "", ""
	if s.socket != "" {
		dir := filepath.Dir(s.socket)
		s.printf("      mkdir -p -m 0700 %s   # once: Firefox creates the socket, not its directory\n", shellQuote(dir))
		s.printf("      %s\n", commandLine(l.Argv))
		s.printf("  Firefox then listens on the Unix socket %s, in a directory only you can enter:\n"+
			"  your own programs can connect to it and control this Firefox (every tab, cookie and signed-in\n"+
			"  session); no web page and no other user can. Start it this way when you want an agent to use it.\n", tilde(s.socket, s.env.Home))
		argv = withSocketDir(dir, l.Argv)
		name = "Firefox for AI agents (debugger on a private socket)"
		comment = "Firefox with its DevTools debugger server on the Unix socket " + s.socket + " for firefox-rdp-mcp; your own programs can control it while it runs"
		if code := s.socketDirStep(dir); code != 0 {
			return code
		}
	} else {
		s.printf("      %s\n", commandLine(l.Argv))
		s.printf("  The server listens on 127.0.0.1:%d. While it runs, every local process of every user, and every\n"+
			"  web page you open on a loopback origin (Firefox checks no Origin), can connect to it unauthenticated\n"+
			"  and control this Firefox. Use the Unix socket (setup without --port) unless your Firefox cannot.\n", s.port)
		name = fmt.Sprintf("Firefox for AI agents (debugger on port %d)", s.port)
		comment = fmt.Sprintf("Firefox with its DevTools debugger server on 127.0.0.1:%d for firefox-rdp-mcp; any local process and any loopback web page can control it while it runs", s.port)
	}
	dataHome := s.env.XDGData
	if dataHome == "" {
		dataHome = filepath.Join(s.env.Home, ".local", "share")
	}
	path := filepath.Join(dataHome, "applications", DesktopFileName)
	content := desktopFile(l, argv, name, comment)
	if !s.write {
		s.printf("  [--write] install this launcher as %s (your desktop's menu shows it; it makes the directory too):\n", tilde(path, s.env.Home))
		s.printf("      %s\n\n", strings.ReplaceAll(strings.TrimRight(content, "\n"), "\n", "\n      "))
		return 0
	}
	if err := installDesktop(path, content); err != nil {
		s.printf("  Launcher not installed: %v\n\n", err)
		return 1
	}
	s.printf("  Installed the launcher %s: \"Firefox for AI agents\" in your desktop's menu starts it the same way.\n\n", tilde(path, s.env.Home))
	return 0
}

// socketDirStep creates the socket's directory (mode 0700) with --write,
// and checks the one that is there.
func (s *run) socketDirStep(dir string) int {
	if !s.write {
		s.printf("  [--write] create %s with mode 0700.\n", tilde(dir, s.env.Home))
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		s.printf("  Cannot create %s: %v\n\n", dir, err)
		return 1
	}
	if err := config.CheckSocketDir(s.socket); err != nil {
		s.printf("  The socket's directory will not do: %v\n", err)
		if s.write {
			s.printf("\n")
			return 1
		}
	} else if s.write {
		s.printf("  Created %s (mode 0700, yours).\n", tilde(dir, s.env.Home))
	}
	return 0
}

// clientEnv are the variables the MCP client must pass for the endpoint:
// none for the default socket.
func (s *run) clientEnv() map[string]string {
	switch {
	case s.socket == "":
		return map[string]string{"FIREFOX_RDP_PORT": strconv.Itoa(s.port)}
	case s.socket != s.env.DefaultSocket:
		return map[string]string{"FIREFOX_RDP_SOCKET": s.socket}
	}
	return map[string]string{}
}

// installDesktop writes the launcher, replacing only a launcher of ours.
func installDesktop(path, content string) error {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case !strings.Contains(string(old), desktopMarker):
		return fmt.Errorf("%s exists and was not written by setup; leaving it alone", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := writeFileSync(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
