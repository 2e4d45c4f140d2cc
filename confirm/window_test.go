package confirm_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/xwin"
)

func request() confirm.Request {
	return confirm.Request{
		Categories: []confirm.Category{confirm.Payment},
		Reasons:    []string{"the control says it pays"},
		Origin:     "https://shop.example",
		Gesture:    "click",
		Element:    "Pay €49.00 <b>now</b>\nSite (from Firefox): https://bank.example",
		FormTarget: "https://shop.example/charge", FormMethod: "post",
		Amounts: []string{"€49.00"},
	}
}

func pair(t *testing.T, h *confirm.Helper) *confirm.Client { return xwin.Pair(t, h) }

// TestWindowAnswers shows real zenity windows on Xvfb and answers them as a
// person would: allow, the default button, Escape, and no answer at all.
func TestWindowAnswers(t *testing.T) {
	xwin.Need(t, "zenity")
	d := xwin.Start(t)
	h := &confirm.Helper{Env: d.Env(os.Getenv("PATH")), Run: xwin.Run, Timeout: 10 * time.Second}
	c := pair(t, h)
	if a := c.Availability(); !a.OK() || a.Program != "zenity" {
		t.Fatalf("availability %+v", a)
	}
	for _, tc := range []struct {
		name string
		keys []string
		want confirm.Outcome
	}{
		{"allow", xwin.Allow, confirm.Yes},
		{"default button", xwin.Refuse, confirm.No},
		{"escape", xwin.Escape, confirm.No},
		{"no answer", nil, confirm.Timeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			defer func() { <-done }() // the answerer reports to this subtest
			go func() {
				defer close(done)
				if tc.keys != nil {
					d.Answer(t, "firefox-rdp-mcp: allow a payment", tc.keys)
				}
			}()
			start := time.Now()
			a, err := c.Ask(t.Context(), request())
			if err != nil || a.Outcome != tc.want || a.Program != "zenity" {
				t.Fatalf("answer %+v, %v; want %s", a, err, tc.want)
			}
			t.Logf("%s after %v", a.Outcome, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestWindowKdialog: with zenity missing from PATH, kdialog asks.
func TestWindowKdialog(t *testing.T) {
	xwin.Need(t, "kdialog")
	d := xwin.Start(t)
	dir := t.TempDir()
	kd, _ := filepathLook("kdialog")
	if err := os.Symlink(kd, filepath.Join(dir, "kdialog")); err != nil {
		t.Fatal(err)
	}
	h := &confirm.Helper{Env: d.Env(dir), Run: xwin.Run}
	c := pair(t, h)
	if a := c.Availability(); a.Program != "kdialog" {
		t.Fatalf("availability %+v; want kdialog", a)
	}
	for _, tc := range []struct {
		keys []string
		want confirm.Outcome
	}{{xwin.Escape, confirm.No}, {xwin.Enter, confirm.Yes}} {
		done := make(chan struct{})
		go func() { defer close(done); d.Answer(t, "firefox-rdp-mcp: allow a payment", tc.keys) }()
		a, err := c.Ask(t.Context(), request())
		<-done
		if err != nil || a.Outcome != tc.want || a.Program != "kdialog" {
			t.Fatalf("keys %v: %+v, %v; want %s", tc.keys, a, err, tc.want)
		}
	}
}

func filepathLook(name string) (string, bool) {
	p := confirm.LookPath(name, os.Getenv("PATH"))
	return p, p != ""
}

// TestWindowUnavailable: no display, or no program, is an answer of its
// own with the fix; no window program was started.
func TestWindowUnavailable(t *testing.T) {
	ran := false
	for _, env := range [][]string{
		{"PATH=" + os.Getenv("PATH")},                      // no display
		{"DISPLAY=:0", "PATH=" + t.TempDir()},              // no program
		{"WAYLAND_DISPLAY=wayland-9", "PATH=relative/dir"}, // relative PATH entries never count
	} {
		h := &confirm.Helper{Env: env, Run: func(_ context.Context, _ string, _, _ []string) (int, string, error) { ran = true; return 0, "", nil }}
		a := h.Ask(ptr(request()))
		if a.Outcome != confirm.Unavailable || !strings.Contains(a.Detail, "apt install zenity") {
			t.Errorf("env %v: %+v", env, a)
		}
	}
	if ran {
		t.Error("a window program was started without a display or program")
	}
}

func ptr[T any](v T) *T { return &v }

// TestWindowText: page strings are one cleaned, bounded line each (a page
// cannot forge a line of the window), zenity gets --no-markup and Refuse as
// its default, and kdialog never sees a tag.
func TestWindowText(t *testing.T) {
	r := request()
	r.Files = []string{strings.Repeat("x", 500) + ".pdf"}
	text := confirm.WindowText(&r)
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Site (from Firefox): https://bank.example") {
			t.Errorf("the page forged a line: %q", l)
		}
	}
	if !strings.Contains(text, "On: “Pay €49.00 <b>now</b> Site (from Firefox): https://bank.example”") {
		t.Errorf("element line missing or changed:\n%s", text)
	}
	if strings.Contains(text, strings.Repeat("x", 101)) {
		t.Error("a file name was not cut")
	}
	z := confirm.Argv("zenity", &r, confirm.AnswerTimeout)
	for _, want := range []string{"--no-markup", "--default-cancel", "--timeout=90"} {
		if !slices.Contains(z, want) {
			t.Errorf("zenity argv lacks %s: %q", want, z)
		}
	}
	k := confirm.Argv("kdialog", &r, confirm.AnswerTimeout)
	if strings.ContainsAny(k[len(k)-1], "<>") {
		t.Errorf("kdialog text carries a tag: %q", k[len(k)-1])
	}
}

// A server started with no PATH (a bare client environment) still finds a
// window program in the system's directories.
func TestLookPathWithoutPATH(t *testing.T) {
	if got := confirm.LookPath("sh", ""); got != "/usr/bin/sh" && got != "/bin/sh" {
		t.Errorf(`LookPath("sh", "") = %q, want it from %s`, got, confirm.DefaultPath)
	}
	if got := confirm.LookPath("sh", "relative/bin"); got != "" {
		t.Errorf("a relative PATH entry supplied %q", got)
	}
}
