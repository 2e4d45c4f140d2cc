//go:build !packaged

package build

// Packaged reports whether this is a distribution build (-tags packaged),
// which has restricted defaults. See packaged.go.
const Packaged = false
