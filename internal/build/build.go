// Package build holds the facts fixed when the binary is built, each defined
// once: whether this is a packaged (distribution) build, and the sandbox
// modes with the rule that packaged builds cannot turn the sandbox off.
// Configuration, the sandbox, the broker start and doctor all read them
// from here.
package build

import (
	"errors"
	"fmt"
)

// SandboxMode selects whether the Landlock and seccomp sandbox is applied.
type SandboxMode string

// Sandbox modes. SandboxOff exists only in development builds (OffAllowed).
const (
	SandboxEnforce SandboxMode = "enforce"
	SandboxOff     SandboxMode = "off"
)

// OffAllowed reports whether FIREFOX_MCP_SANDBOX=off may be used:
// development builds allow it for debugging (the caller warns loudly);
// packaged builds do not.
const OffAllowed = !Packaged

// ErrOffPackaged is the answer to "off" in a packaged build.
var ErrOffPackaged = errors.New(`sandbox mode "off" is not available in packaged builds: the sandbox cannot be turned off`)

// Check reports whether m may be used in this build.
func (m SandboxMode) Check() error {
	switch m {
	case SandboxEnforce:
		return nil
	case SandboxOff:
		if !OffAllowed {
			return ErrOffPackaged
		}
		return nil
	}
	return fmt.Errorf(`unknown sandbox mode %q (want "enforce" or "off")`, string(m))
}

// ParseSandboxMode parses FIREFOX_MCP_SANDBOX; the empty string means
// enforce.
func ParseSandboxMode(s string) (SandboxMode, error) {
	m := SandboxMode(s)
	if s == "" {
		m = SandboxEnforce
	}
	if err := m.Check(); err != nil {
		return "", err
	}
	return m, nil
}

// ConfirmMode selects who answers the lock on consequential actions
// (package confirm): a window the server opens, the MCP client's
// elicitation, or nobody (development builds only).
type ConfirmMode string

// Confirmation modes.
const (
	ConfirmWindow ConfirmMode = "window" // zenity/kdialog, outside the MCP client's reach (default)
	ConfirmElicit ConfirmMode = "elicit" // the operator declares their client shows elicitation to a person
	ConfirmOff    ConfirmMode = "off"    // no confirmation: development builds only, warned at every start
)

// ErrConfirmOffPackaged is the answer to "off" in a packaged build.
var ErrConfirmOffPackaged = errors.New(`confirmation mode "off" is not available in packaged builds`)

// ParseConfirmMode parses FIREFOX_MCP_CONFIRM; the empty string means window.
func ParseConfirmMode(s string) (ConfirmMode, error) {
	switch m := ConfirmMode(s); m {
	case "":
		return ConfirmWindow, nil
	case ConfirmWindow, ConfirmElicit:
		return m, nil
	case ConfirmOff:
		if Packaged {
			return "", ErrConfirmOffPackaged
		}
		return m, nil
	}
	return "", fmt.Errorf(`unknown confirmation mode %q (want "window", "elicit" or "off")`, s)
}
