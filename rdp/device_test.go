package rdp

import (
	"errors"
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
	addr := fakeFirefox(t, func(p *peer) {
		p.send(greetingJSON)
		p.expect("root", "getRoot")
		p.send(`{"from":"root","deviceActor":"server1.conn0.deviceActor2"}`)
		p.expect("server1.conn0.deviceActor2", "getDescription")
		p.send(`{"from":"server1.conn0.deviceActor2","value":{"name":"Firefox","version":"140.5.0","appbuildid":"1"}}`)
		p.expect("root", "getRoot")
		p.send(`{"from":"root"}`)
		p.idle(time.Second)
	})
	c := dialFake(t, addr, Options{})
	if d, err := c.Describe(testCtx(t)); err != nil || d != (Device{Name: "Firefox", Version: "140.5.0"}) || d.String() != "Firefox 140.5.0" {
		t.Errorf("Describe = %+v, %v", d, err)
	}
	if _, err := c.Describe(testCtx(t)); !errors.Is(err, ErrProtocol) {
		t.Errorf("Describe without deviceActor = %v, want ErrProtocol", err)
	}
}
