package main

import "github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox/selftest"

// Hidden roles, selected by os.Args[1]. The names are constant (tests and
// the installed-package audit use them) but not guessable by accident; none
// is listed in usage.
const (
	roleBroker         = "__broker-7d3f9a1c5e2b"
	roleSelftestServer = "__selftest-server-7d3f9a1c5e2b"
	roleSelftestBroker = "__selftest-broker-7d3f9a1c5e2b"
	roleAsker          = "__asker-7d3f9a1c5e2b"
)

// runRole runs a hidden role when args[1] names one.
func runRole(args []string) (handled bool, code int) {
	if len(args) < 2 {
		return false, 0
	}
	switch args[1] {
	case roleBroker:
		return true, runBroker(args[2:])
	case roleAsker:
		return true, runAsker()
	case roleSelftestServer:
		return true, selftest.Server(args[2:])
	case roleSelftestBroker:
		return true, selftest.Broker(args[2:])
	}
	return false, 0
}
