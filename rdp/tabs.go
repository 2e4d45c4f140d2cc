package rdp

import (
	"context"
	"errors"
	"fmt"
)

// Tab is one top-level tab as the root actor describes it. BrowserID is the
// stable tab identity; Actor (the tab descriptor) is valid for this
// connection only.
type Tab struct {
	Actor     string
	BrowserID int64
	Title     string
	URL       string
	Selected  bool
}

type tabForm struct {
	Actor     string `json:"actor"`
	BrowserID int64  `json:"browserId"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Selected  bool   `json:"selected"`
}

func (f tabForm) tab() Tab {
	return Tab(f)
}

type getTabRequest struct {
	Type      string `json:"type"`
	BrowserID int64  `json:"browserId"`
}

// ListTabs returns the tabs in the order Firefox lists them.
func (c *Client) ListTabs(ctx context.Context) ([]Tab, error) {
	var resp struct {
		Tabs []tabForm `json:"tabs"`
	}
	if err := c.Request(ctx, "root", typeOnly{Type: "listTabs"}, &resp); err != nil {
		return nil, fmt.Errorf("rdp: listTabs: %w", err)
	}
	tabs := make([]Tab, 0, len(resp.Tabs))
	for _, f := range resp.Tabs {
		if f.Actor == "" {
			return nil, fmt.Errorf("rdp: listTabs: %w", protocolError("tab without actor"))
		}
		tabs = append(tabs, f.tab())
	}
	return tabs, nil
}

// GetTab returns the tab with browserID, or ErrTabClosed when there is none.
func (c *Client) GetTab(ctx context.Context, browserID int64) (Tab, error) {
	var resp struct {
		Tab *tabForm `json:"tab"`
	}
	err := c.Request(ctx, "root", getTabRequest{Type: "getTab", BrowserID: browserID}, &resp)
	if ae := (*ActorError)(nil); errors.As(err, &ae) && ae.Code == "noTab" {
		return Tab{}, fmt.Errorf("rdp: getTab %d: %w", browserID, ErrTabClosed)
	}
	if err != nil {
		return Tab{}, fmt.Errorf("rdp: getTab %d: %w", browserID, err)
	}
	if resp.Tab == nil || resp.Tab.Actor == "" {
		return Tab{}, fmt.Errorf("rdp: getTab %d: %w", browserID, ErrTabClosed)
	}
	return resp.Tab.tab(), nil
}

type processForm struct {
	Actor    string `json:"actor"`
	ID       int64  `json:"id"`
	IsParent bool   `json:"isParent"`
}

type getProcessRequest struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
}

type processTargetReply struct {
	Process *struct {
		Actor        string `json:"actor"`
		ConsoleActor string `json:"consoleActor"`
	} `json:"process"`
}

func (c *Client) processConsole(ctx context.Context, descriptor string) (string, error) {
	var resp processTargetReply
	if err := c.Request(ctx, descriptor, typeOnly{Type: "getTarget"}, &resp); err != nil {
		return "", err
	}
	if resp.Process == nil || resp.Process.ConsoleActor == "" {
		return "", protocolError("getTarget on %s: no process.consoleActor", descriptor)
	}
	return resp.Process.ConsoleActor, nil
}

// ContentProcessConsole returns the console actor of the content process
// whose id is processID (a Target's ProcessID). It evaluates with the system
// principal in that process: only ever send it constant scripts with
// JSON-encoded arguments. The actor is cached per processID until it dies.
func (c *Client) ContentProcessConsole(ctx context.Context, processID int64) (string, error) {
	var cached string
	c.update(func(s *state) { cached = s.consoles[processID] })
	if cached != "" {
		return cached, nil
	}
	var resp struct {
		Processes []processForm `json:"processes"`
	}
	if err := c.Request(ctx, "root", typeOnly{Type: "listProcesses"}, &resp); err != nil {
		return "", fmt.Errorf("rdp: listProcesses: %w", err)
	}
	desc := ""
	for _, p := range resp.Processes {
		if p.ID == processID {
			desc = p.Actor
			break
		}
	}
	if desc == "" {
		return "", fmt.Errorf("rdp: no content process with id %d: %w", processID, ErrTargetGone)
	}
	console, err := c.processConsole(ctx, desc)
	if err != nil {
		return "", fmt.Errorf("rdp: content process %d console: %w", processID, err)
	}
	c.update(func(s *state) { s.consoles[processID] = console })
	return console, nil
}

// ParentProcessConsole returns the console actor of Firefox's parent
// (chrome) process, where gBrowser lives. It is fully privileged: only ever
// send it constant scripts with JSON-encoded arguments. Cached until it dies.
func (c *Client) ParentProcessConsole(ctx context.Context) (string, error) {
	var cached string
	c.update(func(s *state) { cached = s.parent })
	if cached != "" {
		return cached, nil
	}
	var resp struct {
		ProcessDescriptor *processForm `json:"processDescriptor"`
	}
	if err := c.Request(ctx, "root", getProcessRequest{Type: "getProcess", ID: 0}, &resp); err != nil {
		return "", fmt.Errorf("rdp: getProcess 0: %w", err)
	}
	if resp.ProcessDescriptor == nil || resp.ProcessDescriptor.Actor == "" {
		return "", fmt.Errorf("rdp: getProcess 0: %w", protocolError("no processDescriptor"))
	}
	console, err := c.processConsole(ctx, resp.ProcessDescriptor.Actor)
	if err != nil {
		return "", fmt.Errorf("rdp: parent process console: %w", err)
	}
	c.update(func(s *state) { s.parent = console })
	return console, nil
}
