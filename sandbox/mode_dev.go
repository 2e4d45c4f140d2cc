//go:build !packaged

package sandbox

// OffAllowed reports whether FIREFOX_MCP_SANDBOX=off may be used. Development
// builds allow it for debugging; the caller must warn loudly when it is used.
const OffAllowed = true
