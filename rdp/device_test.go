package rdp

import (
	"errors"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp/rdptest"
	"regexp"
	"testing"
	"time"
)

// TestFirefoxDescribe: the real Firefox names itself and its version.
func TestFirefoxDescribe(t *testing.T) {
	c := liveClient(t)
	d, err := c.Describe(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Firefox" || !regexp.MustCompile(`^[0-9]+\.[0-9]`).MatchString(d.Version) || d.String() != "Firefox "+d.Version {
		t.Errorf("Describe = %+v (%q)", d, d.String())
	}
}

// TestFakeDescribe: the two requests, and a root without a device actor as
// a protocol error.
func TestFakeDescribe(t *testing.T) {
	addr := rdptest.Serve(t, func(p *rdptest.Peer) {
		p.Send(rdptest.Greeting)
		p.Expect("root", "getRoot")
		p.Send(`{"from":"root","deviceActor":"server1.conn0.deviceActor2"}`)
		p.Expect("server1.conn0.deviceActor2", "getDescription")
		p.Send(`{"from":"server1.conn0.deviceActor2","value":{"name":"Firefox","version":"140.5.0","appbuildid":"1"}}`)
		p.Expect("root", "getRoot")
		p.Send(`{"from":"root"}`)
		p.Idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	if d, err := c.Describe(testCtx(t)); err != nil || d != (Device{Name: "Firefox", Version: "140.5.0"}) || d.String() != "Firefox 140.5.0" {
		t.Errorf("Describe = %+v, %v", d, err)
	}
	if _, err := c.Describe(testCtx(t)); !errors.Is(err, ErrProtocol) {
		t.Errorf("Describe without deviceActor = %v, want ErrProtocol", err)
	}
}
