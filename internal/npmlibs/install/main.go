// Command install installs the npm libraries the tests use (internal/npmlibs'
// shared sets) into the user cache, saying how far it got on stderr.
// scripts/test runs it before the tests; without npm it says what is skipped.
package main

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

func main() {
	npm, err := exec.LookPath("npm")
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmlibs: npm not found: the tests of third-party page libraries will skip (install npm to run them)")
		return
	}
	if err := npmlibs.Install(npm, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
