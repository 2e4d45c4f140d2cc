package npmlibs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// root is the directory, in the user cache, that holds the installations.
func root() string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "firefox-rdp-mcp-tests")
}

// dirName names the installation of libs: a set by its name and the hash of
// what it installs (a changed set, or a change of how it is installed, is a
// new installation, and replaces the old one), other libraries by themselves.
func dirName(s set, inSet bool, libs []string) string {
	var how []string
	for _, l := range libs {
		if _, ok := bare[l]; ok {
			l += " bare"
		}
		how = append(how, l)
	}
	for _, p := range pruned {
		how = append(how, "prune "+p.suffix)
	}
	sum := sha256.Sum256([]byte(strings.Join(how, "\n")))
	if inSet {
		return "set-" + s.name + "-" + hex.EncodeToString(sum[:6])
	}
	name := "npm-" + strings.Join(libs, "-")
	if len(name) > 120 { // a file name has at most 255 bytes: long sets are named by their hash
		name = "npm-" + libs[0] + "-and-" + strconv.Itoa(len(libs)-1) + "-" + hex.EncodeToString(sum[:8])
	}
	return name
}

// Install installs every set that is not installed yet, saying what it does
// on progress (scripts/test runs it before the tests, so that its progress
// shows; the tests then find the sets installed).
func Install(npm string, progress io.Writer) error {
	for _, s := range sets {
		if _, err := install(npm, dirName(s, true, s.libs), s.libs, "set "+s.name, progress); err != nil {
			return err
		}
	}
	return nil
}

// install installs libs into dir (a name under root) once, under a lock that
// other test processes wait on, and returns its node_modules. Earlier
// installations of the same set that no test used for staleAfter are removed.
func install(npm, dir string, libs []string, what string, progress io.Writer) (string, error) {
	base := root()
	final := filepath.Join(base, dir)
	mods := filepath.Join(final, "node_modules")
	if installed(mods) {
		return mods, nil
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	unlock, err := lock(filepath.Join(base, ".lock"), what, progress)
	if err != nil {
		return "", err
	}
	defer unlock()
	if installed(mods) { // another process installed it while this one waited
		return mods, nil
	}
	removeStale(base, dir)
	part := final + ".part"
	os.RemoveAll(part)
	start := time.Now()
	fmt.Fprintf(progress, "npmlibs: installing %s (%d pinned npm packages and their dependencies) into %s; once: later runs reuse it\n", what, len(libs), final)
	var deps, alone []string
	for _, l := range libs {
		if _, ok := bare[l]; ok {
			alone = append(alone, l)
		} else {
			deps = append(deps, l)
		}
	}
	if err := runNPM(npm, part, deps, progress); err != nil {
		os.RemoveAll(part)
		return "", fmt.Errorf("npm install %v: %w", deps, err)
	}
	if err := packBare(npm, filepath.Join(part, "node_modules"), alone); err != nil {
		os.RemoveAll(part)
		return "", fmt.Errorf("npm pack %v: %w", alone, err)
	}
	n, size, err := prune(filepath.Join(part, "node_modules"))
	if err == nil {
		err = os.WriteFile(filepath.Join(part, "node_modules", ".installed"), nil, 0o644)
	}
	if err == nil {
		err = os.Rename(part, final)
	}
	if err != nil {
		os.RemoveAll(part)
		return "", fmt.Errorf("npmlibs: %w", err)
	}
	fmt.Fprintf(progress, "npmlibs: %s installed in %s: %d files, %d MB\n", what, time.Since(start).Round(time.Second), n, size>>20)
	return mods, nil
}

// installed reports whether mods is installed, marking it used now.
func installed(mods string) bool {
	now := time.Now()
	return os.Chtimes(filepath.Join(mods, ".installed"), now, now) == nil
}

// staleAfter is how long an earlier installation of a set is kept unused:
// tests of another checkout (an older branch on the same machine) may still
// use it.
const staleAfter = 3 * 24 * time.Hour

// removeStale removes the other installations of dir's set that no test used
// for staleAfter.
func removeStale(base, dir string) {
	i := strings.LastIndex(dir, "-")
	if !strings.HasPrefix(dir, "set-") || i < 0 {
		return
	}
	others, _ := filepath.Glob(filepath.Join(base, dir[:i+1]+"*"))
	for _, o := range others {
		info, err := os.Stat(filepath.Join(o, "node_modules", ".installed"))
		if o != filepath.Join(base, dir) && (err != nil || time.Since(info.ModTime()) > staleAfter) {
			os.RemoveAll(o)
		}
	}
}

// lock takes an exclusive lock on path, saying so on progress when another
// process holds it; the returned function releases it.
func lock(path, what string, progress io.Writer) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		fmt.Fprintf(progress, "npmlibs: waiting for another test process that installs npm packages (%s wanted)\n", what)
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() { f.Close() }, nil
}

// runNPM runs npm install of libs into dir, with a download cache of its own
// that is removed afterwards (the user's ~/.npm does not grow by the
// tarballs), printing every 15 s how far it got.
func runNPM(npm, dir string, libs []string, progress io.Writer) error {
	tmpCache := dir + "-npm-cache"
	defer os.RemoveAll(tmpCache)
	args := append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
		"--cache", tmpCache, "--prefix", dir}, libs...)
	cmd := exec.Command(npm, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return fmt.Errorf("%w\n%s", err, out.String())
			}
			return nil
		case <-tick.C:
			_, got, _ := treeSize(tmpCache, false)
			_, wrote, _ := treeSize(dir, false)
			fmt.Fprintf(progress, "npmlibs: %s: downloaded %d MB, unpacked %d MB\n",
				time.Since(start).Round(time.Second), got>>20, wrote>>20)
		}
	}
}

// prune removes the files pruned names from mods and returns how many files
// are left and their size.
func prune(mods string) (files int, size int64, err error) {
	return treeSize(mods, true)
}

// treeSize counts the files under dir and their size, removing the pruned
// ones first when remove is set.
func treeSize(dir string, remove bool) (files int, size int64, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil && !remove {
			return nil // npm is still writing: count what is there
		}
		if err != nil || d.IsDir() {
			return err
		}
		if remove && isPruned(d.Name()) {
			return os.Remove(path)
		}
		if info, err := d.Info(); err == nil {
			files++
			size += info.Size()
		}
		return nil
	})
	if os.IsNotExist(err) {
		err = nil
	}
	return files, size, err
}
