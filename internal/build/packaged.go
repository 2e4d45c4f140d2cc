//go:build packaged

package build

// Packaged reports whether this is a distribution build (-tags packaged):
// the sandbox cannot be turned off, uploads stay disabled until
// FIREFOX_MCP_UPLOAD_ROOTS names a directory, and the log level defaults to
// warn.
const Packaged = true
