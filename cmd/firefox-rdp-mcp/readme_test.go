package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
)

// testOnlyVars are variables the docs name that the server does not read:
// the test suite's.
var testOnlyVars = map[string]string{
	"FIREFOX_MCP_REQUIRE_FIREFOX": "browser tests fail instead of skipping (internal/headless)",
	"FIREFOX_MCP_BINARY":          "the binary the e2e tests and benchmarks drive",
	"FIREFOX_MCP_STARTUP_RUNS":    "how many Firefox starts the e2e start-up test makes (e2e/startup_test.go)",
}

// docs returns README.md and every docs/*.md, by name.
func docs(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// TestDocsNameTheVariablesOfHelp: every variable the README or docs/ name is
// one -h lists (or a test's), and docs/configuration.md lists every one -h
// does.
func TestDocsNameTheVariablesOfHelp(t *testing.T) {
	var help bytes.Buffer
	usage(&help)
	var vars []string
	for _, v := range config.Vars() {
		vars = append(vars, v.Name)
		if !strings.Contains(help.String(), v.Name) {
			t.Errorf("-h does not list %s", v.Name)
		}
	}
	name := regexp.MustCompile(`\bFIREFOX_[A-Z_]+[A-Z]\b`)
	for file, text := range docs(t) {
		for _, v := range name.FindAllString(text, -1) {
			if _, test := testOnlyVars[v]; !test && !slices.Contains(vars, v) {
				t.Errorf("%s names %s, which -h does not list", file, v)
			}
		}
	}
	conf := docs(t)["configuration.md"]
	for _, v := range vars {
		if !strings.Contains(conf, "| `"+v+"` |") {
			t.Errorf("docs/configuration.md has no row for %s", v)
		}
	}
}

// TestReadmeCommandsMatchHelp: the commands the README runs are ones -h
// lists, and its command that starts Firefox is -h's: the same program and
// flags, the socket at its default path.
func TestReadmeCommandsMatchHelp(t *testing.T) {
	var help bytes.Buffer
	usage(&help)
	h := help.String()
	readme := docs(t)["README.md"]
	for _, m := range regexp.MustCompile(`firefox-rdp-mcp ([a-z]+)\b`).FindAllStringSubmatch(readme, -1) {
		if !strings.Contains(h, "firefox-rdp-mcp "+m[1]+" ") {
			t.Errorf("README runs `firefox-rdp-mcp %s`, which -h does not list", m[1])
		}
	}
	start := regexp.MustCompile(`(?m)^\s*(firefox(?:-esr)?) (--profile \S+ )?--start-debugger-server (\S+)\s*$`)
	helpStart := start.FindStringSubmatch(h)
	if helpStart == nil {
		t.Fatalf("-h gives no command that starts Firefox:\n%s", h)
	}
	readmeStart := start.FindAllStringSubmatch(readme, -1)
	if len(readmeStart) == 0 {
		t.Fatal("README gives no command that starts Firefox")
	}
	socket := ""
	for _, v := range config.Vars() {
		if v.Name == config.EnvSocket {
			socket = `"` + v.Default + `"`
		}
	}
	for _, r := range readmeStart {
		if r[1] != helpStart[1] || (r[2] == "") != (helpStart[2] == "") {
			t.Errorf("README starts Firefox with\n  %s\n-h with\n  %s", strings.TrimSpace(r[0]), strings.TrimSpace(helpStart[0]))
		}
		if r[3] != socket {
			t.Errorf("README's Firefox listens on %s, the server's default socket is %s", r[3], socket)
		}
	}
}

// runAsCommand makes the test binary run the command (TestMain).
const runAsCommand = "README_TEST_RUN_COMMAND"

// TestReadmeSetupPrintsItsClientLines runs the README's `setup` (the dry
// run) for a user with a Firefox profile and ~/Documents, and finds the
// README's commands that start Firefox, its Claude Code line and its doctor
// command in what it prints, the paths being this user's.
func TestReadmeSetupPrintsItsClientLines(t *testing.T) {
	home := t.TempDir()
	prof := filepath.Join(home, ".mozilla", "firefox")
	for _, d := range []string{filepath.Join(prof, "abcd1234.default-esr"), filepath.Join(home, "Documents")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ini := "[Profile0]\nName=default-esr\nIsRelative=1\nPath=abcd1234.default-esr\nDefault=1\n"
	if err := os.WriteFile(filepath.Join(prof, "profiles.ini"), []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "setup")
	run := filepath.Join(home, "run")
	cmd.Env = append(os.Environ(), runAsCommand+"=1", "HOME="+home, "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_RUNTIME_DIR="+run,
		"FIREFOX_RDP_SOCKET=", "FIREFOX_RDP_HOST=", "FIREFOX_RDP_PORT=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	readme := docs(t)["README.md"]
	here := strings.NewReplacer("~/.local/bin/firefox-rdp-mcp", exe, `"$HOME/Documents"`, filepath.Join(home, "Documents"),
		"~/.mozilla/firefox/PROFILE", filepath.Join(prof, "abcd1234.default-esr"), `"$XDG_RUNTIME_DIR/`, run+"/", `rdp.sock"`, "rdp.sock",
		`firefox-rdp-mcp"   #`, "firefox-rdp-mcp   #")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^claude mcp add .*$`),
		regexp.MustCompile(`(?m)^\s*~/.local/bin/firefox-rdp-mcp doctor$`),
		regexp.MustCompile(`(?m)^\s*mkdir -p -m 0700 .*$`),
		regexp.MustCompile(`(?m)^\s*firefox-esr --profile .*$`),
	} {
		line := strings.TrimSpace(want.FindString(readme))
		if line == "" {
			t.Errorf("README has no line like %s", want)
			continue
		}
		if mine := here.Replace(line); !strings.Contains(string(out), mine) {
			t.Errorf("README's\n  %s\nis not what setup prints:\n  %s\nin:\n%s", line, mine, out)
		}
	}
}
