// Package npmlibs fetches third-party page libraries from npm for tests: pinned
// versions, installed once into the user cache (outside the repository, never
// committed), without running their install scripts.
//
// Without npm a test that needs them skips, or fails when
// FIREFOX_MCP_REQUIRE_FIREFOX=1 (CI), like the browser tests.
//
// Example:
//
//	mods := npmlibs.Dir(t, "sortablejs@1.15.7")
//	http.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
package npmlibs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// Dir installs libs (each "name@exact-version") once into the user cache and
// returns their node_modules directory.
func Dir(t testing.TB, libs ...string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv(headless.RequireEnv) == "1" {
			t.Fatalf("npm is needed for the page-library tests: %v", err)
		}
		t.Skipf("npm not found: %v", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "firefox-rdp-mcp-tests", "npm-"+strings.Join(libs, "-"))
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, ".installed")); err == nil {
		return mods
	}
	args := append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", dir}, libs...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		t.Fatalf("npm install %v: %v\n%s", libs, err, out)
	}
	if err := os.WriteFile(filepath.Join(mods, ".installed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return mods
}
