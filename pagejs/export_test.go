package pagejs

// KeptName returns the sandbox-global name under which the isolated realm keeps s
// (for tests: a page that defines the same names must change nothing).
func KeptName(s Script) string { return keptNames[s.name] }

// LibKept is the name of lib.js's kept copy.
var LibKept = libKept

// LibSource and SnapshotSource are lib.js and snapshot.js as the builders embed them
// (BenchmarkSnapshotPhases times their parts on their own).
var (
	LibSource      = libSrc
	SnapshotSource = Snapshot.src
)
