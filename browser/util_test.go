package browser

import (
	"net"
	"net/netip"
	"testing"
)

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t testing.TB) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := netip.MustParseAddrPort(l.Addr().String())
	l.Close()
	return addr
}
