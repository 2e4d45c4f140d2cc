package npmlibs

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPrunedRows: each row removes the files it names, and a page's
// JavaScript, CSS, JSON and fonts stay.
func TestPrunedRows(t *testing.T) {
	for _, p := range pruned {
		if name := "index" + p.suffix; !isPruned(name) {
			t.Errorf("row %q (%s): %s kept", p.suffix, p.why, name)
		}
	}
	for _, kept := range []string{"index.js", "index.mjs", "index.cjs", "styles.css", "package.json", "cdn.min.js",
		"font.woff2", "LICENSE", "map.js", "ts.js", "index.js.LICENSE.txt", "mdn.js"} {
		if isPruned(kept) {
			t.Errorf("%s pruned", kept)
		}
	}
}

// TestSetFor: libraries of one set share its installation; libraries of two
// sets, or in none, do not.
func TestSetFor(t *testing.T) {
	for _, c := range []struct {
		libs []string
		want string
	}{
		{[]string{"react@18.3.1", "react-dom@18.3.1", "antd@6.6.8"}, "main"},
		{[]string{esbuild, "react@18.3.1"}, "main"},
		{[]string{"vue@3.5.45", "vuetify@4.3.0"}, "main"},
		{[]string{"vue@2.7.16", "vue-select@3.20.4"}, "vue2"},
		{[]string{"vue@2.7.16", "vuetify@4.3.0"}, ""},
		{[]string{"react@18.2.0"}, ""},
	} {
		s, ok := setFor(c.libs)
		if got := map[bool]string{true: s.name}[ok]; got != c.want {
			t.Errorf("setFor(%v) = %q, want %q", c.libs, got, c.want)
		}
	}
}

// TestEveryTestLibraryInASet: every pinned library that a test of this
// repository names is in a shared set, so that the suite installs each set
// once. A new library: add it to a set in sets.go (a new set only when its
// version clashes with one there).
func TestEveryTestLibraryInASet(t *testing.T) {
	pinned := regexp.MustCompile(`"((?:@[a-z0-9.-]+/)?[a-z0-9.-]+@[0-9]+\.[0-9]+\.[0-9]+)"`)
	var all []string
	for _, s := range sets {
		all = append(all, s.libs...)
	}
	for l := range bare {
		if !slices.Contains(all, l) {
			t.Errorf("bare %s is in no set", l)
		}
	}
	for _, dir := range []string{"../../browser", "../../pagejs", "../../e2e", "../../tools", "../../mcp", "../../security-tests"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range pinned.FindAllStringSubmatch(string(b), -1) {
				if !slices.Contains(all, m[1]) {
					t.Errorf("%s uses %s, which is in no set of internal/npmlibs/sets.go", f, m[1])
				}
			}
		}
	}
}

// fakeNPM writes an "npm" that installs a package with a script, its source
// map and its README, counting its runs in runs.
func fakeNPM(t *testing.T) (npm, runs string) {
	dir := t.TempDir()
	runs = filepath.Join(dir, "runs")
	npm = filepath.Join(dir, "npm")
	script := `#!/bin/sh
echo run >> "` + runs + `"
while [ "$1" != "--prefix" ]; do shift; done
m="$2/node_modules/lib"
mkdir -p "$m" && echo 'x' > "$m/index.js" && echo '{}' > "$m/index.js.map" && echo doc > "$m/README.md"
`
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return npm, runs
}

// TestInstallOnce: concurrent installs of one set run npm once (the others
// wait on the lock and say so), the result is pruned, a changed set replaces
// the old installation, and progress goes to the writer.
func TestInstallOnce(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	npm, runs := fakeNPM(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var progress bytes.Buffer
	mods := make([]string, 3)
	for i := range mods {
		wg.Go(func() {
			var out bytes.Buffer
			m, err := install(npm, "set-x-aaaa", []string{"lib@1.0.0"}, "set x", &out)
			if err != nil {
				t.Error(err)
			}
			mods[i] = m
			mu.Lock()
			progress.Write(out.Bytes())
			mu.Unlock()
		})
	}
	wg.Wait()
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "run") != 1 {
		t.Errorf("npm ran %q, want once", b)
	}
	if mods[0] == "" || mods[0] != mods[1] || mods[1] != mods[2] {
		t.Errorf("want one node_modules, got %q", mods)
	}
	for name, want := range map[string]bool{"index.js": true, "index.js.map": false, "README.md": false} {
		if _, err := os.Stat(filepath.Join(mods[0], "lib", name)); (err == nil) != want {
			t.Errorf("%s: present=%v, want %v", name, err == nil, want)
		}
	}
	if p := progress.String(); !strings.Contains(p, "npmlibs: installing set x") || !strings.Contains(p, "set x installed in") {
		t.Errorf("progress: %q", p)
	}
	// A changed set is a new installation; the old one stays while tests (of
	// another checkout) used it lately, and goes once unused for staleAfter.
	if _, err := install(npm, "set-x-bbbb", []string{"lib@1.0.1"}, "set x", &progress); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(mods[0])); err != nil {
		t.Errorf("the installation used a moment ago is gone: %v", err)
	}
	old := time.Now().Add(-staleAfter - time.Hour)
	if err := os.Chtimes(filepath.Join(mods[0], ".installed"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := install(npm, "set-x-cccc", []string{"lib@1.0.2"}, "set x", &progress); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(mods[0])); !os.IsNotExist(err) {
		t.Errorf("the installation unused for %v is left: %v", staleAfter, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(mods[0])), "set-x-bbbb")); err != nil {
		t.Errorf("the installation used a moment ago is gone: %v", err)
	}
}

// TestUntar: a package's files land under its directory, the pruned ones,
// links and paths leaving the directory left out.
func TestUntar(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		typ  byte
	}{
		{"package/build/app.js", tar.TypeReg}, {"package/build/app.js.map", tar.TypeReg},
		{"package/README.md", tar.TypeReg}, {"package/../../evil.js", tar.TypeReg},
		{"package/link.js", tar.TypeSymlink}, {"package/package.json", tar.TypeReg},
	} {
		h := &tar.Header{Name: f.name, Typeflag: f.typ, Mode: 0o644, Size: 2, Linkname: "/etc/passwd"}
		if f.typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if f.typ == tar.TypeReg {
			tw.Write([]byte("x\n"))
		}
	}
	tw.Close()
	gz.Close()
	dir := t.TempDir()
	tgz := filepath.Join(dir, "p.tgz")
	if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "node_modules", "@scope", "p")
	if err := untar(tgz, pkg); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			got = append(got, rel)
		}
		return nil
	})
	want := []string{"node_modules/@scope/p/build/app.js", "node_modules/@scope/p/package.json", "p.tgz"}
	if !slices.Equal(got, want) {
		t.Errorf("unpacked %q, want %q", got, want)
	}
}
