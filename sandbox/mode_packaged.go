//go:build packaged

package sandbox

// OffAllowed is false in packaged builds: the sandbox cannot be turned off.
const OffAllowed = false
