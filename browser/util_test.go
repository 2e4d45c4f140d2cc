package browser

import (
	"context"
	"net"
	"net/netip"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
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

// chromeScript runs a chrome script in Firefox's parent process over c (a
// test's own connection) and decodes its value into out.
func chromeScript(ctx context.Context, c *rdp.Client, script pagejs.Script, args, out any) error {
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return err
	}
	src, err := script.Chrome(args)
	if err != nil {
		return err
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	if err != nil {
		return err
	}
	return pagejs.Decode(res, out)
}
