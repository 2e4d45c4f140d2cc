package doctor

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args           []string
		server         string
		port           int
		ws             bool
		profile, named string
	}{
		{[]string{"firefox-esr", "--start-debugger-server", "ws:6000"}, "ws:6000", 6000, true, "", ""},
		{[]string{"firefox", "-start-debugger-server", "6001", "-P", "work"}, "6001", 6001, false, "", "work"},
		{[]string{"firefox", "--start-debugger-server=ws:127.0.0.1:6002", "--profile", "/p"}, "ws:127.0.0.1:6002", 6002, true, "/p", ""},
		{[]string{"firefox", "--start-debugger-server", "--headless"}, "6000", 6000, false, "", ""},
		{[]string{"firefox", "https://example.com/"}, "", 0, false, "", ""},
	} {
		p := parseArgs(c.args)
		if p.Server != c.server || p.Port != c.port || p.WS != c.ws || p.Profile != c.profile || p.ProfNm != c.named {
			t.Errorf("parseArgs(%q) = %+v", c.args, p)
		}
	}
}

// TestPortOwnerAndSelf: /proc tells who listens on a port, and this
// process's own start time and command line are read back.
func TestPortOwnerAndSelf(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	if got := portOwner(port); !strings.Contains(got, "(pid "+strconv.Itoa(os.Getpid())+")") {
		t.Errorf("portOwner(%d) = %q, want this process", port, got)
	}
	if st, up := startTicks(os.Getpid()), uptime(); st <= 0 || up <= 0 || up < time.Duration(st)*time.Second/clockTicks {
		t.Errorf("start %d ticks, uptime %v", st, up)
	}
}
