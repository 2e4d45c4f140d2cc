package npmlibs

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// maxBareFile caps one file of a package unpacked by packBare.
const maxBareFile = 64 << 20

// packBare fetches libs (bare: without their dependencies) with npm pack and
// unpacks each into mods/<name>, leaving out the pruned files.
func packBare(npm, mods string, libs []string) error {
	if len(libs) == 0 {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(mods), "pack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args := append([]string{"pack", "--json", "--loglevel=error", "--cache", filepath.Join(tmp, "cache"), "--pack-destination", tmp}, libs...)
	cmd := exec.Command(npm, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%w\n%s", err, stderr.String())
	}
	var packed []struct{ Name, Filename string }
	if err := json.Unmarshal(out, &packed); err != nil {
		return fmt.Errorf("npm pack --json: %w", err)
	}
	if len(packed) != len(libs) {
		return fmt.Errorf("npm pack gave %d packages for %d", len(packed), len(libs))
	}
	for _, p := range packed {
		if err := untar(filepath.Join(tmp, filepath.Base(p.Filename)), filepath.Join(mods, filepath.FromSlash(p.Name))); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	return nil
}

// untar unpacks an npm package tarball (its files under package/) into dir:
// regular files and directories only, none outside dir.
func untar(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		_, rel, ok := strings.Cut(h.Name, "/") // "package/dist/x.js"
		if !ok || h.Typeflag != tar.TypeReg || isPruned(rel) || !filepath.IsLocal(rel) {
			continue
		}
		if h.Size > maxBareFile {
			return fmt.Errorf("%s: %d bytes, over %d", rel, h.Size, maxBareFile)
		}
		if err := writeFile(filepath.Join(dir, rel), tr); err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
