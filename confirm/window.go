package confirm

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AnswerTimeout is how long the window waits for the user: no answer in
// that time is a refusal.
const AnswerTimeout = 90 * time.Second

// Programs are the window programs, in the order they are tried.
var Programs = []string{"zenity", "kdialog"}

// WindowEnv are the variables a window program gets from the helper's
// environment (nothing else: no secrets of the server's environment).
var WindowEnv = []string{"DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE",
	"DBUS_SESSION_BUS_ADDRESS", "HOME", "PATH", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"}

// Fix is what the user can do when no window can be shown.
const Fix = "run the server inside your graphical session (DISPLAY or WAYLAND_DISPLAY set) with zenity or kdialog installed " +
	"(Debian/Ubuntu: apt install zenity)"

// Probe says whether a window can be shown with env (as os.Environ) and
// which program would show it. It reads only the environment and PATH.
func Probe(env []string) Availability {
	get := envGetter(env)
	var a Availability
	switch {
	case get("WAYLAND_DISPLAY") != "":
		a.Display = "wayland " + get("WAYLAND_DISPLAY")
	case get("DISPLAY") != "":
		a.Display = "x11 " + get("DISPLAY")
	}
	for _, p := range Programs {
		if path := LookPath(p, get("PATH")); path != "" {
			a.Program = p
			break
		}
	}
	switch {
	case a.Display == "" && a.Program == "":
		a.Problem = "no graphical display (DISPLAY and WAYLAND_DISPLAY are unset) and neither zenity nor kdialog on PATH"
	case a.Display == "":
		a.Problem = "no graphical display (DISPLAY and WAYLAND_DISPLAY are unset)"
	case a.Program == "":
		a.Problem = "neither zenity nor kdialog is on PATH"
	}
	return a
}

func envGetter(env []string) func(string) string {
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
}

// FilterEnv keeps the WindowEnv variables of env.
func FilterEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(WindowEnv, k) {
			out = append(out, kv)
		}
	}
	return out
}

// DefaultPath is where a window program is looked for when the server's
// environment has no PATH (an MCP client may start it with a bare
// environment): the system's own directories.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// LookPath finds an executable regular file named name in the absolute
// directories of path (DefaultPath when path is empty; "" when none has
// it); relative entries are skipped, so the current directory never
// supplies a window program.
func LookPath(name, path string) string {
	if path == "" {
		path = DefaultPath
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// Argv is the window program's argument vector for r (program name first).
// It is run without a shell; page strings are arguments, never parsed.
func Argv(program string, r *Request, timeout time.Duration) []string {
	title := Title(r)
	text := WindowText(r)
	yes, no := "Allow this once", "Refuse"
	if program == "kdialog" {
		// kdialog shows rich text when the text looks like HTML: the page
		// strings must not carry a tag.
		text = strings.NewReplacer("<", "‹", ">", "›", "&", "＆").Replace(text)
		return []string{"kdialog", "--title", title, "--yes-label", yes, "--no-label", no, "--warningyesno", text}
	}
	secs := max(1, int(timeout.Round(time.Second)/time.Second))
	return []string{"zenity", "--question", "--no-markup", "--default-cancel", "--icon-name=dialog-warning",
		"--title=" + title, "--text=" + text, "--ok-label=" + yes, "--cancel-label=" + no,
		"--timeout=" + strconv.Itoa(secs), "--width=560"}
}

// Title names what is asked.
func Title(r *Request) string {
	var cs []string
	for _, c := range r.Categories {
		cs = append(cs, categoryWords[c])
	}
	return "firefox-rdp-mcp: allow " + strings.Join(cs, ", ") + "?"
}

var categoryWords = map[Category]string{
	Payment: "a payment", Deletion: "a deletion", SecretChange: "a change of a secret", Submission: "sending your data",
}

// WindowText is the window's text: what the engine read at the gesture, one item
// a line, page strings cleaned and cut (Clean).
func WindowText(r *Request) string {
	var b strings.Builder
	b.WriteString("An AI agent is about to act in your Firefox through firefox-rdp-mcp.\n\n")
	describe(&b, r)
	fmt.Fprintf(&b, "\nAllow this one action? Refuse is the default; no answer within %d s refuses.", int(AnswerTimeout/time.Second))
	return b.String()
}

// describe writes what the engine read at the gesture, one item a line,
// page strings cleaned and cut (Clean): the body of the window's text and
// of the elicitation's message.
func describe(b *strings.Builder, r *Request) {
	line := func(label, v string) {
		if v = Clean(v, MaxField); v != "" {
			fmt.Fprintf(b, "%s: %s\n", label, v)
		}
	}
	list := func(label string, l []string) {
		var vs []string
		for _, v := range l[:min(len(l), MaxList)] {
			if v = Clean(v, MaxField/2); v != "" {
				vs = append(vs, v)
			}
		}
		if len(l) > MaxList {
			vs = append(vs, fmt.Sprintf("and %d more", len(l)-MaxList))
		}
		line(label, strings.Join(vs, "; "))
	}
	line("Site (from Firefox)", r.Origin)
	line("Action", r.Gesture)
	line("On", quoteIf(r.Element))
	line("Inside a frame of", r.FrameOrigin)
	if r.FormTarget != "" {
		line("The form sends to", strings.TrimSpace(strings.ToUpper(Clean(r.FormMethod, 10))+" "+r.FormTarget))
	}
	list("Amounts on the page", r.Amounts)
	list("Files attached", r.Files)
	list("Why this asks", r.Reasons)
}

func quoteIf(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return "“" + s + "”"
}

// Interpret turns the window program's exit into an outcome. stderr is the
// start of what it wrote there: a program that could not reach the display
// exits as a refusal would, so its complaint decides.
func Interpret(program string, exit int, stderr string) (Outcome, string) {
	if strings.Contains(stderr, "cannot open display") || strings.Contains(stderr, "could not connect to display") ||
		strings.Contains(stderr, "no Qt platform plugin") {
		return Unavailable, program + " could not open the display; " + Fix
	}
	switch {
	case exit == 0:
		return Yes, ""
	case program == "zenity" && exit == 5:
		return Timeout, ""
	case exit == 1 || (program == "kdialog" && exit == 2):
		return No, ""
	}
	return Unavailable, fmt.Sprintf("%s failed (exit status %d: %s); %s", program, exit, Clean(stderr, 200), Fix)
}
