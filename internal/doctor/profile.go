package doctor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/setup"
)

// profileDir finds the profile directory a Firefox process runs on:
// --profile DIR, -P NAME, or the profile Firefox starts with.
func (p *probe) profileDir(f firefoxProc) string {
	if f.Profile != "" {
		return f.Profile
	}
	ps, err := setup.FindProfiles(setup.Locations(p.o.Home, p.o.XDGConfig))
	if err != nil {
		return ""
	}
	prof, _, ok := setup.Choose(ps, f.ProfNm)
	if !ok {
		return ""
	}
	return prof.Dir
}

// profilePrefs reads the three preferences of f's profile; where names the
// profile directory ("" when it could not be found or read).
func (p *probe) profilePrefs(f firefoxProc) (map[string]string, string) {
	dir := p.profileDir(f)
	if dir == "" {
		return nil, ""
	}
	st, err := setup.ReadPrefs(dir)
	if err != nil {
		return nil, ""
	}
	out := map[string]string{}
	for name, s := range st {
		out[name] = s.Value
	}
	return out, dir
}

// profileMissing names the port-opening preferences f's profile lacks
// ("" when both are set, or the profile is unknown), and the profile.
func (p *probe) profileMissing(f firefoxProc) (missing, where string) {
	st, where := p.profilePrefs(f)
	if where == "" {
		return "", ""
	}
	var miss []string
	for _, name := range []string{"devtools.debugger.remote-enabled", "devtools.chrome.enabled"} {
		switch v, ok := st[name]; {
		case !ok:
			miss = append(miss, name+" is not set")
		case v != "true":
			miss = append(miss, name+" is "+v)
		}
	}
	return strings.Join(miss, " and "), where
}

// safeMode says why f runs in safe mode, where Firefox ignores its
// arguments (--start-debugger-server too) and opens no debugger server; ""
// when nothing says it does. The signals, in order:
//   - f.Safe: -safe-mode on its command line, or MOZ_SAFE_MODE_RESTART=1
//     in its environment: Firefox restarted itself in safe mode (procs.go);
//   - toolkit.startup.always_use_safe_mode=true in its profile;
//   - toolkit.startup.recent_crashes above toolkit.startup.max_resumed_crashes
//     (default 3; -1 turns it off): after that many start-up crashes in a
//     row Firefox starts in safe mode by itself (nsAppStartup
//     TrackStartupCrashBegin), unless MOZ_DISABLE_AUTO_SAFE_MODE is set.
func (p *probe) safeMode(f firefoxProc) string {
	if f.Safe != "" {
		return f.Safe
	}
	dir := p.profileDir(f)
	if dir == "" {
		return ""
	}
	vals, err := setup.ReadPrefValues(dir)
	if err != nil {
		return ""
	}
	if vals["toolkit.startup.always_use_safe_mode"] == "true" {
		return "toolkit.startup.always_use_safe_mode is true in " + dir
	}
	crashes, _ := strconv.Atoi(vals["toolkit.startup.recent_crashes"])
	most := 3
	if v, ok := vals["toolkit.startup.max_resumed_crashes"]; ok {
		most, _ = strconv.Atoi(v)
	}
	if most >= 0 && crashes > most && !f.noAutoSafe {
		return fmt.Sprintf("it crashed (or was killed) while starting %d times in a row (toolkit.startup.recent_crashes=%d in %s/prefs.js, more than toolkit.startup.max_resumed_crashes=%d), so it started in safe mode by itself", crashes, crashes, dir, most)
	}
	return ""
}

// safeModeFix is the fix for a Firefox in safe mode.
const safeModeFix = "quit Firefox (in safe mode it ignores --start-debugger-server), then start it again the same way: a start that does not crash resets the count. If it keeps crashing at start, start it once without the debugger flag to see why"
