// Package npmlibs fetches third-party page libraries from npm for tests: pinned
// versions, installed once into the user cache (outside the repository, never
// committed), without running their install scripts.
//
// The libraries are listed in shared sets (sets.go): all tests use one
// installation of each set, not one per combination of libraries, and the
// files no page loads (source maps, type declarations, documentation) are
// removed once npm is done. scripts/test installs the sets before the tests
// (go run ./internal/npmlibs/install), with progress on stderr.
//
// Bundle and BundleSvelte build an app of the caller's testdata with esbuild
// (and the Svelte compiler), as the app's own build would.
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
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// Dir returns a node_modules directory that holds libs (each
// "name@exact-version"), installed once into the user cache: the shared
// installation of the set that lists them all (sets.go), or, for libraries
// in no set, an installation of their own. The first test that needs a set
// installs it, saying how far it got on stderr; others wait for it.
// t is a *testing.T or *testing.B (headless.TB: this package does not import
// testing, which production packages never do).
func Dir(t headless.TB, libs ...string) string {
	t.Helper()
	npm := findNPM(t)
	s, inSet := setFor(libs)
	what := "set " + s.name
	all := libs
	if inSet {
		all = s.libs
	} else {
		what = strings.Join(libs, " ")
		fmt.Fprintf(os.Stderr, "npmlibs: %v are in no shared set (internal/npmlibs/sets.go): installed on their own\n", libs)
	}
	mods, err := install(npm, dirName(s, inSet, all), all, what, os.Stderr)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return mods
}

// findNPM returns npm's path, or skips t (fails it when
// FIREFOX_MCP_REQUIRE_FIREFOX=1) without npm.
func findNPM(t headless.TB) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv(headless.RequireEnv) == "1" {
			t.Fatalf("npm is needed for the page-library tests: %v", err)
		}
		t.Skipf("npm not found: %v", err)
	}
	return npm
}

// esbuild bundles the pages whose libraries ship only as ES modules with bare
// imports (Radix): it is fetched from npm like the libraries (its native
// binary comes as the optional dependency @esbuild/<os>-<arch>, which needs
// no install script).
const esbuild = "esbuild@0.28.2"

// Bundle bundles the page script entry (a file of the caller's testdata that
// imports libs, each "name@exact-version") with esbuild into one classic
// script, once per content of entry and libs, and returns the bundle's path
// in the user cache. Like an application's build: React and the libraries'
// production builds, JSX through React.createElement.
func Bundle(t headless.TB, entry string, libs ...string) string {
	t.Helper()
	src, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("npmlibs: %v", err)
	}
	mods := Dir(t, append([]string{esbuild}, libs...)...)
	out, part := bundlePath(mods, entry, libs, src)
	if part == "" {
		return out
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	bin := filepath.Join(mods, "@esbuild", runtime.GOOS+"-"+arch, "bin", "esbuild")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("npmlibs: esbuild's binary for %s/%s: %v", runtime.GOOS, runtime.GOARCH, err)
	}
	cmd := exec.Command(bin, "--bundle", "--format=iife", "--loader=jsx", "--minify",
		"--define:process.env.NODE_ENV=\"production\"", "--sourcefile="+filepath.Base(entry), "--outfile="+part)
	cmd.Dir = filepath.Dir(mods) // bare imports resolve from here: node_modules
	cmd.Stdin = strings.NewReader(string(src))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild %s: %v\n%s", entry, err, b)
	}
	return keep(t, part, out)
}

// bundlePath returns where the bundle of entry (its content src) with libs is
// kept in mods, and the file to write it to first, "" when it is made.
func bundlePath(mods, entry string, libs []string, src []byte) (out, part string) {
	sum := sha256.Sum256(append([]byte(strings.Join(libs, "\n")+"\n\n"), src...))
	out = filepath.Join(mods, ".bundles", filepath.Base(entry)+"-"+hex.EncodeToString(sum[:8])+".js")
	if _, err := os.Stat(out); err == nil {
		return out, ""
	}
	return out, out + ".part" + strconv.Itoa(os.Getpid())
}

// keep moves the bundle written to part to out and returns out.
func keep(t headless.TB, part, out string) string {
	t.Helper()
	if err := os.Rename(part, out); err != nil {
		t.Fatalf("npmlibs: %v", err)
	}
	return out
}

//go:embed svelte.cjs
var svelteBuild string

// BundleSvelte bundles a Svelte app as Bundle bundles a React one: entry (a
// script of the caller's testdata that mounts a component) and the .svelte
// files beside it, compiled by the Svelte compiler through esbuild-svelte
// (svelte.cjs, run by node), with libs (svelte and esbuild-svelte among them),
// once per content of the files and libs.
func BundleSvelte(t headless.TB, entry string, libs ...string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(filepath.Dir(entry), "*.svelte"))
	var src []byte
	for _, f := range append([]string{entry}, files...) {
		b, rerr := os.ReadFile(f)
		err = errors.Join(err, rerr)
		src = append(append(src, f+"\n"...), b...)
	}
	abs, aerr := filepath.Abs(entry)
	if err = errors.Join(err, aerr); err != nil {
		t.Fatalf("npmlibs: %v", err)
	}
	mods := Dir(t, append([]string{esbuild}, libs...)...)
	out, part := bundlePath(mods, entry, libs, src)
	if part == "" {
		return out
	}
	cmd := exec.Command(findNode(t), "-", abs, part, mods)
	cmd.Dir = filepath.Dir(mods) // the script's requires resolve from here: node_modules
	cmd.Stdin = strings.NewReader(svelteBuild)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bundling the Svelte app %s: %v\n%s", entry, err, b)
	}
	return keep(t, part, out)
}

// findNode returns node's path, or skips t (fails it when
// FIREFOX_MCP_REQUIRE_FIREFOX=1) without node.
func findNode(t headless.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv(headless.RequireEnv) == "1" {
			t.Fatalf("node is needed for this test: %v", err)
		}
		t.Skipf("node not found: %v", err)
	}
	return node
}

// Server runs script (a Node.js program that listens on a loopback port it
// chooses and prints "listening PORT" as its first line) with libs installed
// (Dir) on its module path, and returns the port; cleanup registers how to
// stop it (the test's Cleanup). A real server from npm for tests: a
// Socket.IO server, as sites run one.
func Server(t headless.TB, cleanup func(func()), script string, libs ...string) int {
	t.Helper()
	mods := Dir(t, libs...)
	cmd := exec.Command(findNode(t), script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("npmlibs: %v", err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("npmlibs: starting %s: %v", script, err)
	}
	cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case l := <-line:
		port, err := strconv.Atoi(strings.TrimPrefix(l, "listening "))
		if err != nil || port <= 0 {
			t.Fatalf("npmlibs: %s said %q, not \"listening PORT\"", script, l)
		}
		return port
	case <-time.After(30 * time.Second):
		t.Fatalf("npmlibs: %s did not start listening within 30 s", script)
	}
	return 0
}
