package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// --write, installs the launcher.
func (s *run) startStep(p Profile) int {
	named := !p.InstallDefault
	l := launchFor(p, s.port, named, s.env.LookPath)
	s.printf("Step 3. Start Firefox with the debugger server\n")
	s.printf("  Quit Firefox first if it is running: a second start only opens a window in the running\n" +
		"  Firefox, which then has no debugger server. Then:\n")
	s.printf("      %s\n", commandLine(l.Argv))
	s.printf("  The server listens on 127.0.0.1:%d only. While it runs, every local process of every user\n"+
		"  can connect to it unauthenticated and control this Firefox: start it this way only when you\n"+
		"  want an agent to use it, on a single-user machine (see SECURITY.md).\n", s.port)
	dataHome := s.env.XDGData
	if dataHome == "" {
		dataHome = filepath.Join(s.env.Home, ".local", "share")
	}
	path := filepath.Join(dataHome, "applications", DesktopFileName)
	content := desktopFile(l, s.port)
	if !s.write {
		s.printf("  [--write] install this launcher as %s (your desktop's menu shows it):\n", tilde(path, s.env.Home))
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
