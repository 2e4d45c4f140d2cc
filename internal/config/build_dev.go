//go:build !packaged

package config

// Packaged reports whether this is a distribution build (-tags packaged),
// which has restricted defaults. See build_packaged.go.
const Packaged = false
