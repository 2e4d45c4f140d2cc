// Package config reads firefox-rdp-mcp's configuration from the environment,
// once, at start-up.
//
// Every value is checked here and an invalid one is an error that names its
// variable, so the server never starts half-configured. The debugger
// endpoint is a Unix socket by default (FIREFOX_RDP_SOCKET, an absolute
// path in a directory only the user can enter: CheckSocketDir). Setting
// FIREFOX_RDP_HOST or FIREFOX_RDP_PORT chooses the ws: endpoint instead,
// which every web page on a loopback origin can reach; its host must
// resolve to loopback: the Firefox debugger endpoint has no authentication,
// so the server refuses to talk to anything that is not this machine. The
// host is resolved here, before the sandbox is entered, and only the
// resulting IP literal is used afterwards (a name lookup would read
// /etc/hosts, which the sandboxed process cannot open).
package config

import (
	"context"
	"errors"
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Variable names.
const (
	EnvSocket         = "FIREFOX_RDP_SOCKET"
	EnvHost           = "FIREFOX_RDP_HOST"
	EnvPort           = "FIREFOX_RDP_PORT"
	EnvMaxFileBytes   = "FIREFOX_MCP_MAX_FILE_BYTES"
	EnvMaxUploadBytes = "FIREFOX_MCP_MAX_UPLOAD_BYTES"
	EnvChunkBytes     = "FIREFOX_MCP_UPLOAD_CHUNK_BYTES"
	EnvMaxElements    = "FIREFOX_MCP_MAX_ELEMENTS"
	EnvMaxTextChars   = "FIREFOX_MCP_MAX_TEXT_CHARS"
	EnvTimeoutMS      = "FIREFOX_MCP_REQUEST_TIMEOUT_MS"
	EnvLogLevel       = "FIREFOX_MCP_LOG_LEVEL"
	EnvUploadRoots    = "FIREFOX_MCP_UPLOAD_ROOTS"
	EnvSandbox        = "FIREFOX_MCP_SANDBOX"
	EnvAllowHardlinks = "FIREFOX_MCP_ALLOW_HARDLINKS"
	EnvConfirm        = "FIREFOX_MCP_CONFIRM"
)

// Config is the validated configuration.
type Config struct {
	// Socket is the debugger's Unix socket (the default endpoint); "" when
	// FIREFOX_RDP_HOST or FIREFOX_RDP_PORT chose the ws: endpoint instead.
	Socket         string
	Host           string         // ws: only: as configured, for messages
	Addr           netip.AddrPort // ws: only: resolved loopback IP literal and port
	MaxFileBytes   int64
	MaxUploadBytes int64
	ChunkBytes     int
	MaxElements    int
	MaxTextChars   int
	RequestTimeout time.Duration
	LogLevel       slog.Level
	UploadRoots    []string // absolute, clean directories; empty = anywhere (dev builds)
	UploadsEnabled bool     // false in packaged builds until UploadRoots is set
	AllowHardlinks bool     // accept files with more than one hard link beneath UploadRoots
	Sandbox        build.SandboxMode
	Confirm        build.ConfirmMode // who answers the lock on consequential actions
}

// Hard bounds on the numeric settings, so a typo cannot make a limit
// meaningless.
const (
	maxFileBytesCap   = 1 << 30 // 1 GiB
	maxChunkBytes     = 4 << 20
	minChunkBytes     = 4 << 10
	maxElementsCap    = 20000
	maxTextCharsCap   = 2_000_000
	minTimeoutMS      = 100
	maxTimeoutMS      = 600_000
	maxUploadRoots    = 64
	maxUploadRootPath = 4096
)

// Var describes one variable for `-h`.
type Var struct{ Name, Default, Meaning string }

// Vars lists every variable with its default in this build.
func Vars() []Var {
	confirmMeaning := "window (default): consequential actions (payment, deletion, change of a secret, sending your files or data) wait for your yes in a zenity/kdialog window; elicit: in your MCP client, when it declares elicitation; off: never ask (dev builds only)"
	if build.Packaged {
		confirmMeaning = "window (default) or elicit: who answers the lock on consequential actions (it cannot be turned off in this build)"
	}
	logDefault, sandboxMeaning, rootsMeaning := "info", "enforce (default) or off (dev builds only): the Landlock and seccomp sandbox", "colon-separated absolute directories; when set, only regular files beneath them can be uploaded"
	if build.Packaged {
		logDefault = "warn"
		sandboxMeaning = "enforce: the Landlock and seccomp sandbox (cannot be turned off in this build)"
		rootsMeaning += "; uploads are disabled until it names at least one directory"
	}
	return []Var{
		{EnvSocket, "$XDG_RUNTIME_DIR/firefox-rdp-mcp/rdp.sock", "Firefox's debugger Unix socket (firefox-esr --start-debugger-server PATH), in a directory only you can enter; without XDG_RUNTIME_DIR, /tmp/firefox-rdp-mcp-UID/rdp.sock"},
		{EnvHost, "", "use the ws: endpoint on this host instead of the socket (loopback only; every web page on a loopback origin can reach a ws: endpoint)"},
		{EnvPort, "", "use the ws: endpoint on this port instead of the socket (firefox-esr --start-debugger-server ws:PORT; 6000 when only the host is set)"},
		{EnvMaxFileBytes, "26214400", "maximum bytes per uploaded file"},
		{EnvMaxUploadBytes, "52428800", "maximum bytes per upload_files call"},
		{EnvChunkBytes, "131072", "raw bytes per RDP upload chunk (4 KiB to 4 MiB)"},
		{EnvMaxElements, "500", "maximum elements per snapshot (a call may ask for fewer)"},
		{EnvMaxTextChars, "50000", "maximum page-text characters per snapshot"},
		{EnvTimeoutMS, "30000", "default RDP request timeout in milliseconds"},
		{EnvLogLevel, logDefault, "debug, info, warn or error (stderr only)"},
		{EnvUploadRoots, "", rootsMeaning},
		{EnvSandbox, "enforce", sandboxMeaning},
		{EnvConfirm, "window", confirmMeaning},
		{EnvAllowHardlinks, "0", "1 accepts files with more than one hard link beneath the upload roots (refused by default: another link may be a file outside them)"},
	}
}

// Error is a configuration error naming its variable.
type Error struct {
	Var, Value, Reason string
}

func (e *Error) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %s", e.Var, e.Reason)
	}
	return fmt.Sprintf("%s=%q: %s", e.Var, e.Value, e.Reason)
}

// Resolver resolves a host name; net.DefaultResolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Load reads the configuration through getenv (os.Getenv in production) and
// resolves the host with r. It returns every problem found, joined.
func Load(ctx context.Context, getenv func(string) string, r Resolver) (Config, error) {
	var errs []error
	bad := func(name, value, reason string) { errs = append(errs, &Error{name, value, reason}) }

	intVar := func(name string, def, lo, hi int64) int64 {
		s := strings.TrimSpace(getenv(name))
		if s == "" {
			return def
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			bad(name, s, "not a whole number")
			return def
		}
		if v < lo || v > hi {
			bad(name, s, fmt.Sprintf("must be between %d and %d", lo, hi))
			return def
		}
		return v
	}

	c := Config{
		MaxFileBytes:   intVar(EnvMaxFileBytes, 26214400, 1, maxFileBytesCap),
		MaxUploadBytes: intVar(EnvMaxUploadBytes, 52428800, 1, 4*maxFileBytesCap),
		// 128 KiB: measured fastest of 64 KiB–2 MiB end to end on ESR 153
		// (packets over 256 KiB are much slower to decode in Firefox's main
		// thread; README, "Tests and benchmarks"), and it keeps memory low.
		ChunkBytes:     int(intVar(EnvChunkBytes, 131072, minChunkBytes, maxChunkBytes)),
		MaxElements:    int(intVar(EnvMaxElements, 500, 1, maxElementsCap)),
		MaxTextChars:   int(intVar(EnvMaxTextChars, 50000, 0, maxTextCharsCap)),
		RequestTimeout: time.Duration(intVar(EnvTimeoutMS, 30000, minTimeoutMS, maxTimeoutMS)) * time.Millisecond,
	}
	if c.MaxUploadBytes < c.MaxFileBytes {
		// Not an error: a single file is still bounded by the smaller total.
		c.MaxFileBytes = c.MaxUploadBytes
	}
	port := intVar(EnvPort, 6000, 1, 65535)
	webSocket := strings.TrimSpace(getenv(EnvHost)) != "" || strings.TrimSpace(getenv(EnvPort)) != ""

	// Log level.
	c.LogLevel = slog.LevelInfo
	if build.Packaged {
		c.LogLevel = slog.LevelWarn
	}
	if s := strings.TrimSpace(getenv(EnvLogLevel)); s != "" {
		if err := c.LogLevel.UnmarshalText([]byte(s)); err != nil || strings.ContainsAny(s, "+-") {
			bad(EnvLogLevel, s, "must be debug, info, warn or error")
		}
	}

	c.loadModes(getenv, bad)

	// Upload roots.
	if s := getenv(EnvUploadRoots); strings.TrimSpace(s) != "" {
		roots, err := parseRoots(s)
		if err != nil {
			bad(EnvUploadRoots, s, err.Error())
		}
		c.UploadRoots = roots
	}
	c.UploadsEnabled = !build.Packaged || len(c.UploadRoots) > 0
	c.AllowHardlinks = switchVar(getenv, EnvAllowHardlinks, bad)

	c.loadEndpoint(ctx, getenv, r, webSocket, port, bad)
	return c, errors.Join(errs...)
}

// loadModes reads the sandbox and confirmation modes; a packaged build
// refuses to turn either off.
func (c *Config) loadModes(getenv func(string) string, bad func(name, value, reason string)) {
	mode, err := build.ParseSandboxMode(strings.TrimSpace(getenv(EnvSandbox)))
	switch {
	case errors.Is(err, build.ErrOffPackaged):
		bad(EnvSandbox, getenv(EnvSandbox), "this is a packaged build: the sandbox cannot be turned off")
	case err != nil:
		bad(EnvSandbox, getenv(EnvSandbox), `must be "enforce" or "off"`)
	}
	c.Sandbox = mode
	cm, err := build.ParseConfirmMode(strings.TrimSpace(getenv(EnvConfirm)))
	switch {
	case errors.Is(err, build.ErrConfirmOffPackaged):
		bad(EnvConfirm, getenv(EnvConfirm), "this is a packaged build: consequential actions always wait for the user's yes")
	case err != nil:
		bad(EnvConfirm, getenv(EnvConfirm), `must be "window", "elicit" or "off"`)
	}
	c.Confirm = cm
}

// loadEndpoint reads the debugger endpoint: the Unix socket unless
// FIREFOX_RDP_HOST or FIREFOX_RDP_PORT chose ws: (webSocket).
func (c *Config) loadEndpoint(ctx context.Context, getenv func(string) string, r Resolver, webSocket bool, port int64, bad func(name, value, reason string)) {
	sock := strings.TrimSpace(getenv(EnvSocket))
	if !webSocket {
		if sock == "" {
			sock = DefaultSocket(getenv)
		}
		if reason := checkSocketPath(sock); reason != "" {
			bad(EnvSocket, sock, reason)
		}
		c.Socket = sock
		return
	}
	if sock != "" {
		bad(EnvSocket, sock, "set either "+EnvSocket+" (the Unix socket) or "+EnvHost+"/"+EnvPort+" (the ws: endpoint), not both")
	}
	// Host: loopback only, resolved now to an IP literal.
	c.Host = strings.TrimSpace(getenv(EnvHost))
	if c.Host == "" {
		c.Host = "127.0.0.1"
	}
	if ip, err := resolveLoopback(ctx, c.Host, r); err != nil {
		bad(EnvHost, c.Host, err.Error())
	} else {
		c.Addr = netip.AddrPortFrom(ip, uint16(port))
	}
}

// Endpoint names the debugger endpoint for messages: "unix:/path" or
// "ws://127.0.0.1:6000/".
func (c Config) Endpoint() string {
	if c.Socket != "" {
		return "unix:" + c.Socket
	}
	return "ws://" + c.Addr.String() + "/"
}

// DebuggerArg is what Firefox's --start-debugger-server takes for c's
// endpoint.
func (c Config) DebuggerArg() string {
	if c.Socket != "" {
		return c.Socket
	}
	return "ws:" + strconv.Itoa(int(c.Addr.Port()))
}

// maxSocketPath is sun_path's size less its NUL: a longer path cannot be
// a Unix socket's.
const maxSocketPath = 107

// DefaultSocket is the debugger socket's default path: in
// $XDG_RUNTIME_DIR (the user's own 0700 directory on a systemd desktop), or
// in a directory of /tmp named for the user's uid.
func DefaultSocket(getenv func(string) string) string {
	if x := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(x) && filepath.Clean(x) == x {
		return filepath.Join(x, "firefox-rdp-mcp", "rdp.sock")
	}
	return filepath.Join(os.TempDir(), "firefox-rdp-mcp-"+strconv.Itoa(os.Getuid()), "rdp.sock")
}

func checkSocketPath(p string) string {
	switch {
	case !filepath.IsAbs(p):
		return "not an absolute path (Firefox takes a relative name for an abstract socket, which every local process can reach)"
	case filepath.Clean(p) != p:
		return fmt.Sprintf("not clean (write it as %q)", filepath.Clean(p))
	case len(p) > maxSocketPath:
		return fmt.Sprintf("longer than the %d bytes a Unix socket's path can have", maxSocketPath)
	case strings.ContainsRune(p, 0):
		return "contains a NUL byte"
	}
	return ""
}

// CheckSocketDir says what is wrong with the directory that holds the
// debugger socket: Firefox makes the socket readable and writable by
// everyone (mode 0666), so the directory is what keeps other users out. It
// must be a directory (not a link) owned by this user that no one else may
// enter. A directory that does not exist yet is not an error (nil):
// `firefox-rdp-mcp setup` makes it, and the launcher it writes.
func CheckSocketDir(socket string) error {
	dir := filepath.Dir(socket)
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d): another user could replace Firefox's socket", dir, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %#o: other users could connect to Firefox's debugger (run chmod 700 %s)", dir, perm, dir)
	}
	return nil
}

// switchVar reads a 0/1 variable (unset = 0).
func switchVar(getenv func(string) string, name string, bad func(name, value, reason string)) bool {
	switch s := strings.TrimSpace(getenv(name)); s {
	case "", "0":
		return false
	case "1":
		return true
	default:
		bad(name, s, `must be "0" or "1"`)
		return false
	}
}

func parseRoots(s string) ([]string, error) {
	parts := strings.Split(s, ":")
	if len(parts) > maxUploadRoots {
		return nil, fmt.Errorf("at most %d directories", maxUploadRoots)
	}
	var roots []string
	for _, p := range parts {
		switch {
		case p == "":
			return nil, errors.New("empty entry (check for a doubled or trailing ':')")
		case len(p) > maxUploadRootPath:
			return nil, fmt.Errorf("an entry is longer than %d bytes", maxUploadRootPath)
		case strings.ContainsRune(p, 0):
			return nil, errors.New("an entry contains a NUL byte")
		case !filepath.IsAbs(p):
			return nil, fmt.Errorf("%q is not an absolute path", p)
		case filepath.Clean(p) != p:
			return nil, fmt.Errorf("%q is not clean (write it as %q)", p, filepath.Clean(p))
		case p == "/":
			return nil, errors.New(`"/" would allow every file; leave the variable unset instead`)
		}
		roots = append(roots, p)
	}
	return roots, nil
}

// resolveLoopback accepts an IP literal or a name; every address must be
// loopback. It prefers IPv4, where Firefox's debugger server listens.
func resolveLoopback(ctx context.Context, host string, r Resolver) (netip.Addr, error) {
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		if strings.ContainsAny(host, "/:") {
			return netip.Addr{}, errors.New("not a host name or IP address (give the port in " + EnvPort + ")")
		}
		if r == nil {
			r = net.DefaultResolver
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		addrs, err = r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return netip.Addr{}, fmt.Errorf("cannot resolve: %v", err)
		}
		if len(addrs) == 0 {
			return netip.Addr{}, errors.New("resolves to no address")
		}
	}
	var best netip.Addr
	for _, a := range addrs {
		a = a.Unmap()
		if !a.IsLoopback() {
			return netip.Addr{}, fmt.Errorf("resolves to %s, which is not loopback: the RDP endpoint has no authentication, so only this machine's loopback is allowed", a)
		}
		if !best.IsValid() || (a.Is4() && !best.Is4()) {
			best = a
		}
	}
	return best.WithZone(""), nil
}
