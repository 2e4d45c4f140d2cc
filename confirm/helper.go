package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Runner starts path with argv (argv[0] is the program's name) and env,
// without a shell, and waits for it; ctx ending kills it. It returns the
// exit status and the start of what the program wrote to stderr.
type Runner func(ctx context.Context, path string, argv, env []string) (exit int, stderr string, err error)

// Helper is the window helper's role: started before the server's sandbox,
// outside it, it answers one Request at a time with the user's answer.
type Helper struct {
	Env []string // the window programs' environment (FilterEnv of the helper's own)
	Run Runner
	// Timeout replaces AnswerTimeout. Tests only (a hook that shortens the
	// wait for a no-answer case); the program never sets it.
	Timeout time.Duration
}

func (h *Helper) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return AnswerTimeout
}

// Serve says hello on conn, then answers requests until the server closes
// the channel (nil) or sends anything malformed (an error: the caller
// exits). It never shows more than one window at a time.
func (h *Helper) Serve(conn *net.UnixConn) error {
	if err := write(conn, Hello{Hello: true, Avail: Probe(h.Env)}); err != nil {
		return err
	}
	buf := make([]byte, MaxMessage+1)
	oob := make([]byte, 64)
	for {
		n, oobn, flags, _, err := conn.ReadMsgUnix(buf, oob)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("confirm helper: read: %w", err)
		}
		if n == 0 {
			return nil
		}
		if flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || oobn != 0 || n > MaxMessage {
			return fmt.Errorf("%w: truncated or carries ancillary data", ErrMalformed)
		}
		var req Request
		if err := decodeStrict(buf[:n], &req); err != nil {
			return err
		}
		if err := req.Check(); err != nil {
			return err
		}
		if err := write(conn, h.Ask(&req)); err != nil {
			return err
		}
	}
}

// Ask shows the window for r and waits for the answer.
func (h *Helper) Ask(r *Request) Answer {
	a := Answer{ID: r.ID}
	avail := Probe(h.Env)
	if !avail.OK() {
		a.Outcome, a.Detail = Unavailable, avail.Problem+"; "+Fix
		return a
	}
	a.Program = avail.Program
	path := LookPath(avail.Program, envGetter(h.Env)("PATH"))
	ctx, cancel := context.WithTimeout(context.Background(), h.timeout()+2*time.Second)
	defer cancel()
	exit, stderr, err := h.Run(ctx, path, Argv(avail.Program, r, h.timeout()), utf8Env(h.Env))
	switch {
	case ctx.Err() != nil:
		a.Outcome = Timeout // kdialog has no timeout of its own: killed
	case err != nil:
		a.Outcome, a.Detail = Unavailable, fmt.Sprintf("%s could not be started (%v); %s", filepath.Base(path), err, Fix)
	default:
		a.Outcome, a.Detail = Interpret(avail.Program, exit, stderr)
	}
	return a
}

func write(conn *net.UnixConn, m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > MaxMessage {
		return fmt.Errorf("confirm: message of %d bytes", len(b))
	}
	conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, _, err = conn.WriteMsgUnix(b, nil, nil)
	return err
}

// utf8Env makes sure the window program reads its arguments as UTF-8: in
// the C locale (MCP clients often start servers with a bare environment)
// glib refuses every argument that is not ASCII ("This option is not
// available"), and page strings seldom are.
func utf8Env(env []string) []string {
	get := envGetter(env)
	loc := get("LC_ALL")
	if loc == "" {
		loc = get("LANG")
	}
	if l := strings.ToLower(loc); strings.Contains(l, "utf-8") || strings.Contains(l, "utf8") {
		return env
	}
	return append(slices.Clone(env), "LC_ALL=C.UTF-8")
}
