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
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// Dir installs libs (each "name@exact-version") once into the user cache and
// returns their node_modules directory.
// t is a *testing.T or *testing.B (headless.TB: this package does not import
// testing, which production packages never do).
func Dir(t headless.TB, libs ...string) string {
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
	name := "npm-" + strings.Join(libs, "-")
	if len(name) > 120 { // a file name has at most 255 bytes: long sets are named by their hash
		sum := sha256.Sum256([]byte(strings.Join(libs, "\n")))
		name = "npm-" + libs[0] + "-and-" + strconv.Itoa(len(libs)-1) + "-" + hex.EncodeToString(sum[:8])
	}
	dir := filepath.Join(cache, "firefox-rdp-mcp-tests", name)
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, ".installed")); err == nil {
		return mods
	}
	args := append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", dir}, libs...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		t.Fatalf("npm install %v: %v\n%s", libs, err, out)
	}
	if err := os.WriteFile(filepath.Join(mods, ".installed"), nil, 0o644); err != nil {
		t.Fatalf("npmlibs: %v", err)
	}
	return mods
}
