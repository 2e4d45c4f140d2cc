// Command demo shows firefox-rdp-mcp end to end: it builds the server,
// starts a throwaway headless Firefox on a bundled job-search page, and
// talks MCP to the server exactly as an MCP host would, printing a readable
// transcript. Run it with scripts/demo (or go run ./internal/demo).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

//go:embed demo.html
var demoPage []byte

//go:embed sample-resume.pdf
var sampleResume []byte

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo failed:", err)
		os.Exit(1)
	}
}

// bold is the terminal's bold on/off pair, empty when stdout is not a
// terminal (a log file or a pipe gets no escape codes).
var bold = func() [2]string {
	if _, err := unix.IoctlGetTermios(int(os.Stdout.Fd()), unix.TCGETS); err != nil || os.Getenv("TERM") == "dumb" {
		return [2]string{}
	}
	return [2]string{"\033[1m", "\033[0m"}
}()

func step(format string, args ...any) {
	fmt.Printf("\n%s▶ %s%s\n", bold[0], fmt.Sprintf(format, args...), bold[1])
}

func show(text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Println("  " + l)
	}
}

// buildServer builds the packaged server into dir.
func buildServer(ctx context.Context, dir string) (string, error) {
	step("Building the server (the packaged configuration users install; the first build compiles everything, ≈30 s, later ones are cached)")
	bin := filepath.Join(dir, "firefox-rdp-mcp")
	build := exec.CommandContext(ctx, "go", "build", "-tags", "packaged", "-o", bin, "./cmd/firefox-rdp-mcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	show(bin)
	return bin, nil
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp, err := os.MkdirTemp("", "firefox-rdp-mcp-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	bin, err := buildServer(ctx, tmp)
	if err != nil {
		return err
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(demoPage)
	}))
	defer srv.Close()

	step("Starting a throwaway headless Firefox on the demo page")
	ff, err := headless.Start(ctx, headless.Options{URL: srv.URL + "/jobs"})
	if err != nil {
		return err
	}
	defer ff.Stop()
	show(fmt.Sprintf("Firefox pid %d, debugger server %s (profile %s)", ff.PID, ff.Endpoint(), ff.ProfileDir))

	docs, resume, err := demoFiles(tmp)
	if err != nil {
		return err
	}
	c, stop, err := startServer(ctx, bin, ff, docs)
	if err != nil {
		return err
	}
	defer stop()

	if err := handshake(c); err != nil {
		return err
	}
	return tour(c, srv.URL, resume)
}

// demoFiles writes the sample résumé into dir/Documents, the demo's only
// upload root.
func demoFiles(dir string) (docs, resume string, err error) {
	docs = filepath.Join(dir, "Documents")
	if err := os.Mkdir(docs, 0o700); err != nil {
		return "", "", err
	}
	resume = filepath.Join(docs, "Jane Doe résumé.pdf")
	if err := os.WriteFile(resume, sampleResume, 0o600); err != nil {
		return "", "", err
	}
	return docs, resume, nil
}

// startServer starts bin as an MCP host would (stdio), pointed at ff with
// uploads confined to docs. stop closes its stdin, waits a little for it
// to exit (then kills it) and shows what it logged.
func startServer(ctx context.Context, bin string, ff *headless.Firefox, docs string) (c *client, stop func(), err error) {
	step("Starting the MCP server as an MCP host would (stdio), sandboxed, uploads confined to %s", docs)
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = []string{
		"FIREFOX_RDP_SOCKET=" + ff.Socket,
		"FIREFOX_MCP_UPLOAD_ROOTS=" + docs,
		"FIREFOX_MCP_LOG_LEVEL=warn",
	}
	var serverLog bytes.Buffer
	cmd.Stderr = &serverLog
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop = func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		if serverLog.Len() > 0 {
			fmt.Fprintf(os.Stderr, "\nserver stderr:\n%s", serverLog.String())
		}
	}
	c = newClient(stdin, stdout)
	c.notes = func(method string, params json.RawMessage) {
		if method == "notifications/progress" {
			var p struct{ Progress, Total float64 }
			json.Unmarshal(params, &p)
			fmt.Printf("  … progress %.0f / %.0f\n", p.Progress, p.Total)
		}
	}
	return c, stop, nil
}

// handshake is initialize and tools/list, shown.
func handshake(c *client) error {
	step("initialize")
	start := time.Now()
	raw, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "demo", "version": "1"},
	})
	if err != nil {
		return err
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name, Version string }
	}
	json.Unmarshal(raw, &init)
	show(fmt.Sprintf("%s %s, protocol %s, answered %d ms after start", init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion, time.Since(start).Milliseconds()))
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return err
	}

	step("tools/list")
	raw, err = c.call("tools/list", nil)
	if err != nil {
		return err
	}
	var tl struct{ Tools []struct{ Name string } }
	json.Unmarshal(raw, &tl)
	var names []string
	for _, t := range tl.Tools {
		names = append(names, t.Name)
	}
	show(strings.Join(names, ", "))

	return nil
}

// agent calls tools as an MCP host would and shows each call and answer.
type agent struct{ c *client }

func (a agent) tool(name string, args map[string]any) (toolResult, error) {
	b, _ := json.Marshal(args)
	step("%s %s", name, b)
	r, err := a.c.tool(name, args, name)
	if err != nil {
		return r, err
	}
	show(r.text())
	if r.IsError {
		return r, fmt.Errorf("%s failed: %s", name, r.text())
	}
	return r, nil
}

// tour drives the demo page the way an agent would: search, apply, type a
// name, attach the résumé, then look at the result.
func tour(c *client, site, resume string) error {
	a := agent{c}
	snap, name, err := a.apply(resume)
	if err != nil {
		return err
	}
	return a.inspect(snap, name, site)
}

// apply searches, opens the application form, types a name and attaches
// the résumé; it returns the final snapshot (with the page text) and the
// name field's ref.
func (a agent) apply(resume string) (snap toolResult, name string, err error) {
	tool := a.tool
	if _, err := tool("browser_status", map[string]any{}); err != nil {
		return snap, name, err
	}
	if _, err := tool("list_tabs", map[string]any{}); err != nil {
		return snap, name, err
	}
	if _, err := tool("select_tab", map[string]any{"index": 0}); err != nil {
		return snap, name, err
	}
	snap, err = tool("snapshot_page", map[string]any{})
	if err != nil {
		return snap, name, err
	}
	refs := parseRefs(snap.text())
	q, err := refs.find("textbox", "Job title")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("fill", map[string]any{"element": q, "value": "AI engineer"}); err != nil {
		return snap, name, err
	}
	where, err := refs.find("combobox", "Location")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("select_option", map[string]any{"element": where, "options": []string{"Remote"}}); err != nil {
		return snap, name, err
	}
	search, err := refs.find("button", "Search")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("click", map[string]any{"element": search}); err != nil {
		return snap, name, err
	}
	if _, err := tool("wait_for", map[string]any{"text": "job(s) found", "timeout_ms": 5000}); err != nil {
		return snap, name, err
	}
	snap, err = tool("snapshot_page", map[string]any{})
	if err != nil {
		return snap, name, err
	}
	refs = parseRefs(snap.text())
	apply, err := refs.find("button", "Apply to Acme")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("click", map[string]any{"element": apply}); err != nil {
		return snap, name, err
	}
	snap, err = tool("snapshot_page", map[string]any{})
	if err != nil {
		return snap, name, err
	}
	refs = parseRefs(snap.text())
	name, err = refs.find("textbox", "Full name")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("type_text", map[string]any{"element": name, "text": "Jane Doe"}); err != nil {
		return snap, name, err
	}
	file, err := refs.find("", "Attach résumé")
	if err != nil {
		return snap, name, err
	}
	if _, err := tool("upload_files", map[string]any{"element": file, "paths": []string{resume}}); err != nil {
		return snap, name, err
	}
	r, err := tool("wait_for", map[string]any{"text": "sha256", "timeout_ms": 5000})
	if err != nil {
		return snap, name, err
	}
	_ = r
	snap, err = tool("snapshot_page", map[string]any{"include_all_text": true, "max_elements": 1})
	if err != nil {
		return snap, name, err
	}
	return snap, name, nil
}

// inspect takes a screenshot and the console, checks what the page
// received and that nothing was submitted, and opens and closes a tab.
func (a agent) inspect(snap toolResult, name, site string) error {
	tool := a.tool
	shot, err := tool("screenshot", map[string]any{"element": name})
	if err == nil && (len(shot.Content) != 2 || shot.Content[1].Type != "image" || len(shot.Content[1].Data) == 0) {
		err = errors.New("screenshot returned no image")
	}
	if err != nil {
		return err
	}
	show(fmt.Sprintf("(image content: %s, %d bytes)", shot.Content[1].MIMEType, len(shot.Content[1].Data)))
	if _, err := tool("console_messages", map[string]any{}); err != nil {
		return err
	}
	sum := sha256.Sum256(sampleResume)
	want := hex.EncodeToString(sum[:])
	step("Checking what the page received")
	if !strings.Contains(snap.text(), want) {
		return errors.New("the page did not report the résumé's SHA-256 " + want)
	}
	show(fmt.Sprintf("The page hashed the file it received to %s — the same SHA-256 as the file on disk (%d bytes).", want, len(sampleResume)))
	if strings.Contains(snap.text(), "SUBMITTED") {
		return errors.New("the application form was submitted, which must never happen on its own")
	}
	show("The application form was not submitted: uploading never submits.")

	opened, err := tool("new_tab", map[string]any{"url": site + "/jobs", "select": false})
	if err != nil {
		return err
	}
	id, _ := opened.Structured["tab_id"].(string)
	if _, err := tool("close_tab", map[string]any{"tab_id": id}); err != nil {
		return err
	}
	return nil
}

// refs are the element lines of a snapshot.
type refs []struct{ ref, role, name string }

var lineRE = regexp.MustCompile(`^\[(e\d+)\] (\S+)(?: ("(?:[^"\\]|\\.)*"))?`)

func parseRefs(text string) refs {
	var out refs
	for _, l := range strings.Split(text, "\n") {
		m := lineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name, _ := strconv.Unquote(m[3])
		out = append(out, struct{ ref, role, name string }{m[1], m[2], name})
	}
	return out
}

func (r refs) find(role, name string) (string, error) {
	for _, e := range r {
		if (role == "" || e.role == role) && strings.Contains(e.name, name) {
			return e.ref, nil
		}
	}
	return "", fmt.Errorf("no %s %q in the snapshot", role, name)
}
