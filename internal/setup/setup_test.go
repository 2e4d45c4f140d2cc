package setup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// fakeHome builds a throwaway home with profiles.ini files in the places
// Firefox builds use, and returns it with the profile directories by name.
func fakeHome(t *testing.T) (string, map[string]string) {
	t.Helper()
	home := t.TempDir()
	dirs := map[string]string{}
	mk := func(loc, ini string, profiles map[string]string) {
		if err := os.MkdirAll(filepath.Join(home, loc), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, loc, "profiles.ini"), []byte(ini), 0o600); err != nil {
			t.Fatal(err)
		}
		for name, rel := range profiles {
			d := filepath.Join(home, loc, rel)
			if err := os.MkdirAll(d, 0o700); err != nil {
				t.Fatal(err)
			}
			dirs[name] = d
		}
	}
	mk(".config/mozilla/firefox", "[Profile1]\nName=default\nIsRelative=1\nPath=aaa.default\nDefault=1\n\n"+
		"[Profile0]\nName=default-esr\nIsRelative=1\nPath=bbb.default-esr\n\n[General]\nStartWithLastProfile=1\nVersion=2\n\n"+
		"[Install3B6073811A6ABF12]\nDefault=bbb.default-esr\nLocked=1\n",
		map[string]string{"default": "aaa.default", "default-esr": "bbb.default-esr"})
	mk("snap/firefox/common/.mozilla/firefox", "; a comment\n[Profile0]\nName=snappy\nIsRelative=1\nPath=ccc.default\n",
		map[string]string{"snappy": "ccc.default"})
	mk(".var/app/org.mozilla.firefox/.mozilla/firefox", "[Profile0]\nName=flat\nIsRelative=1\nPath=ddd.default\n",
		map[string]string{"flat": "ddd.default"})
	return home, dirs
}

func testEnv(home string) Env {
	return Env{
		Home: home, Exe: "/opt/bin/firefox-rdp-mcp",
		Socket: filepath.Join(home, "run", "firefox-rdp-mcp", "rdp.sock"), DefaultSocket: filepath.Join(home, "run", "firefox-rdp-mcp", "rdp.sock"),
		Now:      func() time.Time { return time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC) },
		LookPath: func(p string) string { return map[string]string{"firefox-esr": "/usr/bin/firefox-esr"}[p] },
	}
}

// treeHash hashes every path, mode and content under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		fi, _ := os.Lstat(p)
		h.Write([]byte(p + fi.Mode().String()))
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func runSetup(t *testing.T, env Env, args ...string) (string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(args, &out, &errOut, env)
	return out.String() + errOut.String(), code
}

func TestFindProfilesEveryLocation(t *testing.T) {
	home, dirs := fakeHome(t)
	ps, err := FindProfiles(Locations(home, ""))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Profile{}
	for _, p := range ps {
		got[p.Name] = p
	}
	for name, flavor := range map[string]string{"default": FlavorDesktop, "default-esr": FlavorDesktop, "snappy": FlavorSnap, "flat": FlavorFlatpak} {
		p, ok := got[name]
		if !ok || p.Dir != dirs[name] || p.Location.Flavor != flavor {
			t.Errorf("profile %s = %+v, want dir %s flavor %s", name, p, dirs[name], flavor)
		}
	}
	if !got["default-esr"].InstallDefault || got["default"].InstallDefault || !got["default"].Default {
		t.Errorf("defaults wrong: %+v", got)
	}
	if _, _, ok := Choose(ps, ""); !ok {
		t.Error("the installation's default profile was not picked")
	}
	if p, _, ok := Choose(ps, "snappy"); !ok || p.Dir != dirs["snappy"] {
		t.Errorf("--profile snappy picked %+v", p)
	}
	if p, _, ok := Choose(ps, dirs["flat"]); !ok || p.Name != "flat" {
		t.Errorf("--profile DIR picked %+v", p)
	}
	if _, why, ok := Choose(ps, "nope"); ok || !strings.Contains(why, "nope") {
		t.Errorf("unknown --profile: %v %q", ok, why)
	}
	// Two installations' defaults: ambiguous, never a guess.
	two := append([]Profile(nil), ps...)
	for i := range two {
		two[i].InstallDefault = true
	}
	if _, why, ok := Choose(two, ""); ok || !strings.Contains(why, "qualify") {
		t.Errorf("ambiguous defaults picked one: %q", why)
	}
	// A broken profiles.ini is an error, not an empty list.
	bad := filepath.Join(t.TempDir(), "x")
	os.MkdirAll(bad, 0o700)
	os.WriteFile(filepath.Join(bad, "profiles.ini"), []byte("Name=orphan\n"), 0o600)
	if _, err := FindProfiles([]Location{{bad, FlavorDesktop}}); err == nil {
		t.Error("a key outside any section was accepted")
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	home, dirs := fakeHome(t)
	os.WriteFile(filepath.Join(dirs["default-esr"], "prefs.js"), []byte(`user_pref("devtools.chrome.enabled", false);`+"\n"), 0o600)
	before := treeHash(t, home)
	out, code := runSetup(t, testEnv(home))
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if after := treeHash(t, home); after != before {
		t.Error("a run without --write changed the home directory")
	}
	for _, want := range []string{"Nothing is changed", "using default-esr", "devtools.debugger.remote-enabled = true", "devtools.chrome.enabled = true",
		"devtools.debugger.prompt-connection = false", "set to false in prefs.js", "controls the browser", "[--write]",
		"Quit Firefox first", "firefox-esr --profile " + dirs["default-esr"] + " --start-debugger-server " + home + "/run/firefox-rdp-mcp/rdp.sock",
		"mkdir -p -m 0700 " + home + "/run/firefox-rdp-mcp", "no web page and no other user can", "[--write] create ~/run/firefox-rdp-mcp with mode 0700",
		"[Desktop Entry]", `Exec=sh -c "mkdir -p -m 0700 \\"\\$1\\" && shift && exec \\"\\$@\\"" sh ` + home + "/run/firefox-rdp-mcp firefox-esr --profile " + dirs["default-esr"] + " --start-debugger-server " + home + "/run/firefox-rdp-mcp/rdp.sock %u",
		`"command": "/opt/bin/firefox-rdp-mcp"`, "claude mcp add firefox -- /opt/bin/firefox-rdp-mcp", "/opt/bin/firefox-rdp-mcp doctor",
		"snap Firefox", "flatpak Firefox"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteSetsPrefsWithBackup(t *testing.T) {
	home, dirs := fakeHome(t)
	dir := dirs["default-esr"]
	userJS := filepath.Join(dir, "user.js")
	old := "// mine\nuser_pref(\"browser.startup.page\", 3);\nuser_pref(\"devtools.chrome.enabled\", false);\n"
	os.WriteFile(userJS, []byte(old), 0o600)
	env := testEnv(home)
	out, code := runSetup(t, env, "--write", "--port", "6123")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	got, _ := os.ReadFile(userJS)
	for _, want := range []string{"// mine\n", `user_pref("browser.startup.page", 3);`, `user_pref("devtools.debugger.remote-enabled", true);`,
		`user_pref("devtools.chrome.enabled", true);`, `user_pref("devtools.debugger.prompt-connection", false);`, marker} {
		if !strings.Contains(string(got), want) {
			t.Errorf("user.js lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), `"devtools.chrome.enabled", false`) {
		t.Errorf("the old value is still there:\n%s", got)
	}
	backup := userJS + ".firefox-rdp-mcp-20261201T093000Z.bak"
	if b, err := os.ReadFile(backup); err != nil || string(b) != old {
		t.Errorf("backup %s = %q, %v", backup, b, err)
	}
	st, err := ReadPrefs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Prefs {
		if !st[p.Name].OK(p) || st[p.Name].File != "user.js" {
			t.Errorf("%s after --write: %+v", p.Name, st[p.Name])
		}
	}
	desk, err := os.ReadFile(filepath.Join(home, ".local/share/applications", DesktopFileName))
	if err != nil || !strings.Contains(string(desk), "Exec=firefox-esr --profile "+dir+" --start-debugger-server ws:6123 %u") {
		t.Errorf("launcher: %v\n%s", err, desk)
	}
	if !strings.Contains(out, "FIREFOX_RDP_PORT=6123") || !strings.Contains(out, `"FIREFOX_RDP_PORT": "6123"`) {
		t.Errorf("client snippets do not carry the port:\n%s", out)
	}
	// Again: nothing left to write, the user.js stays as it is.
	out, code = runSetup(t, env, "--write", "--port", "6123")
	if again, _ := os.ReadFile(userJS); code != 0 || !bytes.Equal(again, got) || !strings.Contains(out, "nothing to write") {
		t.Errorf("second --write: exit %d, changed %v:\n%s", code, !bytes.Equal(again, got), out)
	}
	// A launcher that is not ours is left alone.
	os.WriteFile(filepath.Join(home, ".local/share/applications", DesktopFileName), []byte("[Desktop Entry]\nName=Mine\n"), 0o644)
	if out, code := runSetup(t, env, "--write"); code == 0 || !strings.Contains(out, "not written by setup") {
		t.Errorf("foreign launcher overwritten: exit %d\n%s", code, out)
	}
}

func TestBadUsage(t *testing.T) {
	home, _ := fakeHome(t)
	for _, args := range [][]string{{"--port", "70000"}, {"--socket", "rel/rdp.sock"}, {"--socket", "/a/../b.sock"}, {"--bogus"}, {"extra"}} {
		if out, code := runSetup(t, testEnv(home), args...); code != 2 {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	if out, code := runSetup(t, testEnv(home), "--profile", "nope"); code != 1 || !strings.Contains(out, `"nope"`) {
		t.Errorf("unknown profile: exit %d\n%s", code, out)
	}
}

func TestShellAndDesktopQuoting(t *testing.T) {
	for in, want := range map[string]string{"ws:6000": "ws:6000", "/a b/c": "'/a b/c'", "it's": `'it'\''s'`} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{"firefox": "firefox", "/a b": `"/a b"`, `a"$b%`: `"a\\"\\$b%%"`} {
		if got := desktopQuote(in); got != want {
			t.Errorf("desktopQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestWriteMakesTheSocketDirectory: --write creates the socket's directory
// with mode 0700 and names the socket in the command and the launcher; a
// socket other than the default goes into the client configuration.
func TestWriteMakesTheSocketDirectory(t *testing.T) {
	home, dirs := fakeHome(t)
	env := testEnv(home)
	sock := filepath.Join(home, "elsewhere", "ff", "rdp.sock")
	out, code := runSetup(t, env, "--write", "--socket", sock)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	fi, err := os.Stat(filepath.Dir(sock))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v", fi, err)
	}
	for _, want := range []string{"firefox-esr --profile " + dirs["default-esr"] + " --start-debugger-server " + sock,
		"Created ~/elsewhere/ff (mode 0700, yours)", `"FIREFOX_RDP_SOCKET": "` + sock + `"`, "-e FIREFOX_RDP_SOCKET=" + sock} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A directory others may enter is refused, with why.
	os.Chmod(filepath.Dir(sock), 0o755)
	if out, code := runSetup(t, env, "--write", "--socket", sock); code != 1 || !strings.Contains(out, "mode 0755") {
		t.Errorf("--write with a 0755 socket directory: exit %d\n%s", code, out)
	}
}

// TestNoProfileDryRun: without any Firefox profile, the dry run exits 0
// and says what --write will do, step by step.
func TestNoProfileDryRun(t *testing.T) {
	env := testEnv(t.TempDir())
	out, code := runSetup(t, env)
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{"No Firefox profile found", "[--write] start Firefox once", "[--write] then set the three preferences",
		"create the socket's directory and install a launcher", "nothing was changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "below follow") {
		t.Errorf("promises steps that do not follow:\n%s", out)
	}
}
