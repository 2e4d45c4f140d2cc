package setup

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
)

// Launch says how to start one Firefox build with the debugger server.
type Launch struct {
	Argv []string // the command line, program first
	Icon string   // the icon name its own .desktop file uses
}

// launchFor returns the command line that starts the Firefox of p's
// location on p with the debugger server at arg (a socket path or ws:PORT).
// The profile is always named: a Firefox started without --profile may
// start another profile than the one setup prepared.
func launchFor(p Profile, arg string, lookPath func(string) string) Launch {
	flag := []string{"--profile", p.Dir, "--start-debugger-server", arg}
	switch p.Location.Flavor {
	case FlavorSnap:
		return Launch{Argv: append([]string{"/snap/bin/firefox"}, flag...), Icon: "firefox"}
	case FlavorFlatpak:
		return Launch{Argv: append([]string{"flatpak", "run", "org.mozilla.firefox"}, flag...), Icon: "org.mozilla.firefox"}
	}
	bin, icon := "firefox-esr", "firefox-esr"
	if lookPath("firefox-esr") == "" && lookPath("firefox") != "" {
		bin, icon = "firefox", "firefox"
	}
	return Launch{Argv: append([]string{bin}, flag...), Icon: icon}
}

// withSocketDir wraps argv so that the socket's directory exists, mode
// 0700, before Firefox starts (Firefox creates the socket, not its
// directory): sh -c 'mkdir -p -m 0700 "$1" && shift && exec "$@"' sh DIR argv…
func withSocketDir(dir string, argv []string) []string {
	return append([]string{"sh", "-c", `mkdir -p -m 0700 "$1" && shift && exec "$@"`, "sh", dir}, argv...)
}

// shellQuote quotes one word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func commandLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// desktopQuote quotes one Exec= argument as the Desktop Entry
// Specification asks: double quotes, with ", `, $ and \ escaped, and %
// doubled.
func desktopQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`%=") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\\\`, `"`, `\\"`, "`", "\\\\`", `$`, `\\$`, `%`, `%%`)
	return `"` + r.Replace(s) + `"`
}

// DesktopFileName is the launcher's file name under
// $XDG_DATA_HOME/applications.
const DesktopFileName = "firefox-rdp-mcp.desktop"

// desktopMarker identifies a launcher setup wrote (it replaces only those).
const desktopMarker = "X-Firefox-RDP-MCP=1"

// desktopFile renders a launcher running argv; where says where the
// debugger server listens and who can reach it.
func desktopFile(l Launch, argv []string, name, comment string) string {
	exec := make([]string, len(argv))
	for i, a := range argv {
		exec[i] = desktopQuote(a)
	}
	return strings.Join([]string{
		"[Desktop Entry]",
		"Type=Application",
		"Name=" + name,
		"Comment=" + comment,
		"Exec=" + strings.Join(exec, " ") + " %u",
		"Icon=" + l.Icon,
		"Terminal=false",
		"Categories=Network;WebBrowser;",
		"StartupNotify=true",
		desktopMarker,
		"",
	}, "\n")
}

// clientSnippets are the MCP client configurations for the binary at exe
// with the variables env (the endpoint's, when not the default) and the
// upload root (when there is one to suggest).
func clientSnippets(exe string, env map[string]string, uploadRoot string) string {
	env = maps.Clone(env)
	if uploadRoot != "" {
		env["FIREFOX_MCP_UPLOAD_ROOTS"] = uploadRoot
	}
	var claudeEnv []string
	for _, k := range envOrder {
		if v, ok := env[k]; ok {
			claudeEnv = append(claudeEnv, "-e", k+"="+v)
		}
	}
	server := map[string]any{"command": exe}
	if len(env) > 0 {
		server["env"] = env
	}
	desktop, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"firefox": server}}, "  ", "  ")
	vsServer := map[string]any{"type": "stdio", "command": exe}
	if len(env) > 0 {
		vsServer["env"] = env
	}
	vscode, _ := json.MarshalIndent(map[string]any{"servers": map[string]any{"firefox": vsServer}}, "  ", "  ")
	claude := append([]string{"claude", "mcp", "add", "firefox"}, claudeEnv...)
	claude = append(claude, "--", exe)
	var b strings.Builder
	fmt.Fprintf(&b, "  Claude Code:\n    %s\n", commandLine(claude))
	fmt.Fprintf(&b, "  Claude Desktop (~/.config/Claude/claude_desktop_config.json), Cursor (~/.cursor/mcp.json):\n  %s\n", desktop)
	fmt.Fprintf(&b, "  VS Code (.vscode/mcp.json):\n  %s\n", vscode)
	fmt.Fprintf(&b, "  MCP Inspector (one call, no client needed):\n    %s\n",
		commandLine(append(append([]string{"npx", "@modelcontextprotocol/inspector", "--cli"}, inspectorEnv(env)...), exe, "--method", "tools/call", "--tool-name", "browser_status")))
	return b.String()
}

// envOrder is the order the snippets give the variables in.
var envOrder = []string{"FIREFOX_RDP_SOCKET", "FIREFOX_RDP_PORT", "FIREFOX_MCP_UPLOAD_ROOTS"}

func inspectorEnv(env map[string]string) []string {
	var out []string
	for _, k := range envOrder {
		if v, ok := env[k]; ok {
			out = append(out, "-e", k+"="+v)
		}
	}
	return out
}

// tilde shortens a path under home to ~/… for display.
func tilde(path, home string) string {
	if home != "" && (path == home || strings.HasPrefix(path, home+string(filepath.Separator))) {
		return "~" + path[len(home):]
	}
	return path
}
