package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
)

// wsWarning is what doctor says of a ws: endpoint (browser_status says the
// same).
const wsWarning = "a ws: debugger endpoint is reachable by every web page you open on a loopback origin (Firefox checks no Origin), " +
	"and such a page can take control of the browser and of your account"

const wsFix = "unless your Firefox build cannot listen on a Unix socket, unset FIREFOX_RDP_HOST and FIREFOX_RDP_PORT in the MCP client's \"env\" entry, " +
	"run `firefox-rdp-mcp setup --write` and start Firefox with the command it prints (--start-debugger-server on a Unix socket)"

// attemptSocket runs the checks once against the Unix socket: its
// directory (there, yours, 0700), the socket file, a connection, the
// greeting, then the session.
func (p *probe) attemptSocket() verdict {
	if v, ok := p.socketDir(); !ok {
		return v
	}
	fail := func(detail, fix string) verdict {
		return verdict{}.add(check{name: "endpoint reachable", detail: detail, fix: fix, blocking: true})
	}
	fi, err := os.Lstat(p.socket)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p.refused("there is no socket " + p.socket)
	case err != nil:
		return fail(err.Error(), p.startCmd())
	case fi.Mode().Type() != fs.ModeSocket:
		return fail(fmt.Sprintf("%s exists but is a %v, not a socket", p.socket, fi.Mode().Type()),
			"remove it (Firefox creates the socket itself when it starts), then start Firefox with --start-debugger-server "+p.arg())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	greeted, err := browser.GreetSocket(ctx, p.socket, 3*time.Second)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return p.refused("the socket " + p.socket + " is there, but nothing listens on it (connection refused): it is left from a Firefox that has exited or crashed")
	case errors.Is(err, syscall.EACCES):
		return fail(p.socket+": permission denied", "the socket must be yours: quit the Firefox that made it, or "+envFix("FIREFOX_RDP_SOCKET", "/a/directory/of/yours/rdp.sock"))
	case err != nil:
		return fail(p.socket+": "+err.Error(), p.startCmd())
	}
	v := verdict{}.add(check{name: "endpoint reachable", ok: true, detail: "Unix socket " + p.socket + " (in a 0700 directory of yours: no web page and no other user can reach it)"})
	if !greeted {
		g := p.silent("Firefox accepted the connection but sent no greeting within 3 s")
		v.checks = append(v.checks, g.checks...)
		v.retry = g.retry
		return v
	}
	return p.session(v.add(check{name: "Firefox greeting", ok: true, detail: "Firefox's debugger server (Unix socket) greeted"}))
}

// socketDir checks the socket's directory: it must exist (Firefox does not
// create it), be a directory of this user's, and be 0700 (Firefox makes the
// socket itself 0666, so the directory is what keeps others out).
func (p *probe) socketDir() (verdict, bool) {
	dir := filepath.Dir(p.socket)
	fail := func(detail, fix string) (verdict, bool) {
		return verdict{}.add(check{name: "socket directory", detail: detail, fix: fix, blocking: true}), false
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		detail := dir + " does not exist: Firefox cannot create its socket there (it makes the socket, not its directory)"
		if f, ok := p.firefoxOnPort(); ok {
			detail += fmt.Sprintf(", so Firefox (pid %d), started with --start-debugger-server %s, has no debugger server", f.PID, p.arg())
		}
		return fail(detail, fmt.Sprintf("run `firefox-rdp-mcp setup --write` (or mkdir -m 0700 -p %s; the launcher setup writes does it too), then start Firefox again", dir))
	}
	if err := config.CheckSocketDir(p.socket); err != nil {
		return fail(err.Error(), fmt.Sprintf("chmod 700 %s if it is yours; otherwise %s", dir, envFix("FIREFOX_RDP_SOCKET", "/a/directory/of/yours/rdp.sock")))
	}
	return verdict{}, true
}
