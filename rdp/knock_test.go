package rdp

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestKnock: each kind of port is told apart — Firefox greeting over
// WebSocket, a WebSocket that stays silent (the connection prompt), the
// plain TCP transport, and a program that is no debugger at all.
func TestKnock(t *testing.T) {
	ctx := context.Background()
	greets := fakeFirefox(t, func(p *peer) { p.send(greetingJSON); p.idle(2 * time.Second) })
	silent := fakeFirefox(t, func(p *peer) { p.idle(2 * time.Second) })

	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(`75:{"from":"root","applicationType":"browser","traits":{}}`))
			time.AfterFunc(2*time.Second, func() { c.Close() })
		}
	}()
	plain := netip.MustParseAddrPort(l.Addr().String())
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	other := netip.MustParseAddrPort(strings.TrimPrefix(web.URL, "http://"))

	for _, c := range []struct {
		name      string
		addr      netip.AddrPort
		handshake bool
		want      Knock
	}{
		{"greets", greets, false, Knock{Greeted: true}},
		{"silent", silent, false, Knock{}},
		{"plain TCP", plain, true, Knock{PlainTCP: true}},
		{"other program", other, true, Knock{}},
	} {
		k := KnockAt(ctx, c.addr, 500*time.Millisecond)
		if (k.Handshake != nil) != c.handshake || k.PlainTCP != c.want.PlainTCP || k.Greeted != c.want.Greeted {
			t.Errorf("%s: KnockAt = %+v", c.name, k)
		}
	}
}
