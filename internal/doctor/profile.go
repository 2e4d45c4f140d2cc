package doctor

import (
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
