package rdp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// probePage is an ordinary web page that tries to open Firefox's debugger
// as a WebSocket on the port its URL names, as a hostile page on a loopback
// origin would, and writes what happened into its title.
const probePage = `<!doctype html><title>trying</title><script>
const port = new URLSearchParams(location.search).get("port");
const ws = new WebSocket("ws://127.0.0.1:" + port + "/");
ws.onmessage = e => { document.title = "reached: " + String(e.data).slice(0, 60); ws.close(); };
ws.onerror = () => { if (!document.title.startsWith("reached")) document.title = "refused"; };
</script>`

func probeServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, probePage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pageTitleOnce waits until the page's title is no longer "trying".
func pageTitleOnce(t *testing.T, ctx context.Context, c *Client, url string) string {
	t.Helper()
	_, _, target := watched(t, ctx, c, url, "complete")
	deadline := time.Now().Add(10 * time.Second)
	for {
		var title string
		evalJSON(t, ctx, c, target.ConsoleActor, "JSON.stringify(document.title)", &title)
		if title != "trying" || time.Now().After(deadline) {
			return title
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// No web page can reach the debugger. With the Unix socket (the default)
// Firefox listens on no TCP port at all, and a page's WebSocket to the
// legacy port is refused; the socket's directory is the user's alone. With
// the legacy ws: endpoint, the same page reaches the debugger and reads its
// greeting: the hole the socket closes (and the warning doctor and
// browser_status give for ws:).
func TestFirefoxEndpointUnreachableFromPages(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := probeServer(t)
	if ports := listeningTCPPorts(t, ff.PID); len(ports) != 0 {
		t.Fatalf("Firefox with a Unix-socket debugger listens on TCP ports %v", ports)
	}
	if fi, err := os.Stat(filepath.Dir(ff.Socket)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v", fi.Mode(), err)
	}
	c := liveClient(t)
	if got := pageTitleOnce(t, ctx, c, srv.URL+"/probe?port=6000"); got != "refused" {
		t.Fatalf("a page's WebSocket to 127.0.0.1:6000: %q, want refused", got)
	}

	// The legacy ws: endpoint: the page gets in.
	ws, err := headless.Start(ctx, headless.Options{WebSocket: true})
	headless.SkipOrFail(t, err)
	defer ws.Stop()
	wc, err := Dial(ctx, ws.Addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wc.Close()
	got := pageTitleOnce(t, ctx, wc, srv.URL+"/probe?port="+strconv.Itoa(int(ws.Addr.Port())))
	if !strings.HasPrefix(got, "reached: ") || !strings.Contains(got, `"from":"root"`) {
		t.Fatalf("a page's WebSocket to the ws: endpoint: %q, want the root greeting", got)
	}
}

// listeningTCPPorts lists the TCP ports in LISTEN state whose sockets
// belong to the process group pgid (Firefox and its content processes).
func listeningTCPPorts(t *testing.T, pgid int) []int {
	t.Helper()
	inodes := map[string]int{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" { // 0A = LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); err == nil {
				inodes["socket:["+fs[9]+"]"] = int(p)
			}
		}
	}
	var ports []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !inGroup(pid, pgid) {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", e.Name(), "fd"))
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", e.Name(), "fd", fd.Name())); err == nil {
				if p, ok := inodes[l]; ok {
					ports = append(ports, p)
				}
			}
		}
	}
	return ports
}

func inGroup(pid, pgid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	return len(f) > 2 && f[2] == strconv.Itoa(pgid)
}
