package setup

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Location is one place a Firefox build keeps its profiles.ini.
type Location struct {
	Dir    string // the directory holding profiles.ini
	Flavor string // which Firefox uses it: see flavors
}

// Flavors name the Firefox builds whose profile locations are known, with
// the command that starts each one.
const (
	FlavorDesktop = "desktop" // Debian's firefox-esr and Mozilla's firefox (tarball, .deb)
	FlavorSnap    = "snap"
	FlavorFlatpak = "flatpak"
)

// Locations lists where Firefox keeps profiles.ini for the user with home
// directory home and XDG config directory xdgConfig ("" = home/.config),
// in the order they are searched. Firefox 153 creates new profiles under
// $XDG_CONFIG_HOME/mozilla/firefox; older ones used ~/.mozilla/firefox,
// which stays in use where it exists.
func Locations(home, xdgConfig string) []Location {
	if xdgConfig == "" {
		xdgConfig = filepath.Join(home, ".config")
	}
	return []Location{
		{filepath.Join(home, ".mozilla", "firefox"), FlavorDesktop},
		{filepath.Join(xdgConfig, "mozilla", "firefox"), FlavorDesktop},
		{filepath.Join(home, "snap", "firefox", "common", ".mozilla", "firefox"), FlavorSnap},
		{filepath.Join(home, "snap", "firefox", "common", ".config", "mozilla", "firefox"), FlavorSnap},
		{filepath.Join(home, ".var", "app", "org.mozilla.firefox", ".mozilla", "firefox"), FlavorFlatpak},
		{filepath.Join(home, ".var", "app", "org.mozilla.firefox", "config", "mozilla", "firefox"), FlavorFlatpak},
	}
}

// Profile is one Firefox profile listed in a profiles.ini.
type Profile struct {
	Name string // Name= in profiles.ini
	Dir  string // absolute profile directory
	// InstallDefault: an [Install…] section names it as the profile that
	// installation of Firefox starts with (Firefox 67 and later).
	InstallDefault bool
	// Default: Default=1 in its [Profile…] section (the pre-67 default).
	Default  bool
	Location Location
}

// maxINI bounds the profiles.ini read (a real one is a few hundred bytes).
const maxINI = 1 << 20

// FindProfiles reads every profiles.ini among locs. A location without one
// is skipped; a profiles.ini that cannot be read or parsed is an error.
func FindProfiles(locs []Location) ([]Profile, error) {
	var out []Profile
	for _, loc := range locs {
		ini := filepath.Join(loc.Dir, "profiles.ini")
		f, err := os.Open(ini)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ps, err := parseProfilesINI(loc, f, ini)
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

type iniSection struct {
	name string
	keys map[string]string
}

// parseINI reads Firefox's simple INI dialect: [Section], key=value,
// comments starting with ; or #.
func parseINI(r *os.File, name string) ([]iniSection, error) {
	var secs []iniSection
	sc := bufio.NewScanner(&limitedReader{f: r, left: maxINI})
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == ';' || line[0] == '#':
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			secs = append(secs, iniSection{name: line[1 : len(line)-1], keys: map[string]string{}})
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || len(secs) == 0 {
				return nil, fmt.Errorf("%s:%d: not a key=value line in a section", name, n)
			}
			secs[len(secs)-1].keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return secs, sc.Err()
}

func parseProfilesINI(loc Location, f *os.File, name string) ([]Profile, error) {
	secs, err := parseINI(f, name)
	if err != nil {
		return nil, err
	}
	installDefaults := map[string]bool{}
	for _, s := range secs {
		if strings.HasPrefix(s.name, "Install") && s.keys["Default"] != "" {
			installDefaults[s.keys["Default"]] = true
		}
	}
	var out []Profile
	for _, s := range secs {
		if !strings.HasPrefix(s.name, "Profile") || s.keys["Path"] == "" {
			continue
		}
		path := s.keys["Path"]
		dir := path
		if s.keys["IsRelative"] == "1" {
			dir = filepath.Join(loc.Dir, filepath.FromSlash(path))
		}
		out = append(out, Profile{
			Name:           s.keys["Name"],
			Dir:            filepath.Clean(dir),
			InstallDefault: installDefaults[path],
			Default:        s.keys["Default"] == "1",
			Location:       loc,
		})
	}
	return out, nil
}

// limitedReader reads at most left bytes from f, then reports an error, so
// an oversized file is refused rather than cut.
type limitedReader struct {
	f    *os.File
	left int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errors.New("file too large")
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.f.Read(p)
	l.left -= n
	return n, err
}

// Running reports whether a Firefox has dir open as its profile, and its
// process id when known. Firefox holds an fcntl write lock on .parentlock
// while it runs (the lock goes with the process, so a crash leaves none)
// and points the lock symlink at "IP:+PID" — a link it leaves behind on
// exit, so the link alone proves nothing.
func Running(dir string) (bool, int) {
	pid := lockPID(dir)
	f, err := os.Open(filepath.Join(dir, ".parentlock"))
	if err == nil {
		defer f.Close()
		lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 0}
		if unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk) == nil && lk.Type != unix.F_UNLCK {
			if lk.Pid > 0 {
				pid = int(lk.Pid)
			}
			return true, pid
		}
	}
	if pid > 0 && isFirefox(pid) {
		return true, pid
	}
	return false, 0
}

// lockPID reads the process id from the lock symlink ("127.0.0.1:+4447").
func lockPID(dir string) int {
	target, err := os.Readlink(filepath.Join(dir, "lock"))
	if err != nil {
		return 0
	}
	_, p, ok := strings.Cut(target, ":+")
	if !ok {
		return 0
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// isFirefox reports whether pid is a live Firefox (see IsFirefox).
func isFirefox(pid int) bool { return IsFirefox(pid) }
