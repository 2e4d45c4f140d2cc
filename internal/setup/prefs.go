package setup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Pref is one Firefox preference the server needs, with what it means for
// the user's security. These three are the whole of what setup changes.
type Pref struct {
	Name    string
	Value   bool
	Meaning string
}

// Prefs are the preferences --start-debugger-server and this server need.
var Prefs = []Pref{
	{"devtools.debugger.remote-enabled", true,
		"lets Firefox run a debugger server when started with --start-debugger-server. " +
			"Whoever can connect to it controls the browser: every tab, cookie and signed-in session."},
	{"devtools.chrome.enabled", true,
		"lets debugger clients use the browser-chrome and content-process consoles (Firefox 153 opens no debugger port at all without it). " +
			"This server needs them for trusted input, dialogs and safe file assignment; it also means a connected client " +
			"can run code with the browser's privileges, which are your user account's."},
	{"devtools.debugger.prompt-connection", false,
		"skips the \"allow incoming connection?\" prompt. Without it an MCP server cannot connect unattended; " +
			"with it, any local process can connect silently while the debugger server runs."},
}

// PrefState is what a profile's files say about a preference.
type PrefState struct {
	Set   bool   // some file sets it
	Value string // the JavaScript literal it is set to ("true", "false", …)
	File  string // "user.js" or "prefs.js": where the value that wins comes from
}

// OK reports whether the state is the value p needs.
func (s PrefState) OK(p Pref) bool {
	return s.Set && s.Value == fmt.Sprint(p.Value)
}

// maxPrefsFile bounds a prefs.js or user.js read (real ones are tens of KB).
const maxPrefsFile = 16 << 20

var prefLine = regexp.MustCompile(`^\s*user_pref\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*(true|false|-?[0-9]+|"(?:[^"\\]|\\.)*")\s*\)\s*;`)

// ReadPrefs reports the three preferences as Firefox will see them at its
// next start: user.js is applied after prefs.js, so its values win.
func ReadPrefs(dir string) (map[string]PrefState, error) {
	out := map[string]PrefState{}
	for _, file := range []string{"prefs.js", "user.js"} {
		vals, err := prefValues(filepath.Join(dir, file))
		if err != nil {
			return nil, err
		}
		for _, p := range Prefs {
			if v, ok := vals[p.Name]; ok {
				out[p.Name] = PrefState{Set: true, Value: v, File: file}
			}
		}
	}
	return out, nil
}

// ReadPrefValues reads every user_pref of a profile as Firefox will see
// them at its next start (user.js after prefs.js), as JavaScript literals.
func ReadPrefValues(dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, file := range []string{"prefs.js", "user.js"} {
		vals, err := prefValues(filepath.Join(dir, file))
		if err != nil {
			return nil, err
		}
		for k, v := range vals {
			out[k] = v
		}
	}
	return out, nil
}

// prefValues reads the user_pref lines of one file; a missing file has none.
func prefValues(path string) (map[string]string, error) {
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	vals := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxPrefsFile)
	for sc.Scan() {
		if m := prefLine.FindStringSubmatch(sc.Text()); m != nil {
			vals[m[1]] = m[2]
		}
	}
	return vals, sc.Err()
}

func readBounded(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxPrefsFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxPrefsFile)
	}
	return os.ReadFile(path)
}

// marker starts the block setup writes into user.js.
const marker = "// firefox-rdp-mcp setup"

// WriteUserJS sets the three preferences in dir/user.js: lines that set any
// of them are removed, and one marked block is appended. An existing user.js
// is first copied to user.js.firefox-rdp-mcp-<time>.bak (returned as
// backup); the new file replaces the old one by rename, so a failure leaves
// the old one whole. It refuses while a Firefox runs on the profile, which
// would overwrite prefs.js on exit and ignore user.js until restarted.
func WriteUserJS(dir string, now time.Time) (backup string, err error) {
	if running, pid := Running(dir); running {
		return "", &RunningError{Dir: dir, PID: pid}
	}
	path := filepath.Join(dir, "user.js")
	old, err := readBounded(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return "", err
	default:
		backup = path + ".firefox-rdp-mcp-" + now.UTC().Format("20060102T150405Z") + ".bak"
		if err := writeFileSync(backup, old, 0o600); err != nil {
			return "", fmt.Errorf("backup of user.js: %w", err)
		}
	}
	if err := writeFileSync(path+".tmp", newUserJS(old, now), 0o600); err != nil {
		return backup, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		os.Remove(path + ".tmp")
		return backup, err
	}
	return backup, nil
}

// newUserJS is old without its lines for the three preferences (and
// without an earlier block of ours), plus the block.
func newUserJS(old []byte, now time.Time) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(old), "\n") {
		if line == "" || strings.HasPrefix(strings.TrimSpace(line), marker) {
			continue
		}
		if m := prefLine.FindStringSubmatch(line); m != nil && isOurPref(m[1]) {
			continue
		}
		b.WriteString(line)
	}
	if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s (%s): let the firefox-rdp-mcp MCP server drive this Firefox while it runs with --start-debugger-server.\n",
		marker, now.UTC().Format(time.DateOnly))
	fmt.Fprintf(&b, "%s: to undo, delete these lines, then reset the three preferences in about:config.\n", marker)
	for _, p := range Prefs {
		fmt.Fprintf(&b, "user_pref(%q, %v);\n", p.Name, p.Value)
	}
	return b.Bytes()
}

func isOurPref(name string) bool {
	for _, p := range Prefs {
		if p.Name == name {
			return true
		}
	}
	return false
}

func writeFileSync(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// RunningError: the profile is in use by a running Firefox.
type RunningError struct {
	Dir string
	PID int
}

func (e *RunningError) Error() string {
	who := "a running Firefox"
	if e.PID > 0 {
		who = fmt.Sprintf("a running Firefox (pid %d)", e.PID)
	}
	return fmt.Sprintf("profile %s is in use by %s: quit Firefox (all its windows) and run setup again; "+
		"a running Firefox ignores user.js until it restarts and rewrites prefs.js when it quits", e.Dir, who)
}
