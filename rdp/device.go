package rdp

import (
	"context"
	"fmt"
	"strings"
)

// Device is the application Firefox's device actor describes.
type Device struct {
	Name    string `json:"name"`    // "Firefox"
	Version string `json:"version"` // "140.5.0"
}

// String is the name and version, as in "Firefox 140.5.0".
func (d Device) String() string { return strings.TrimSpace(d.Name + " " + d.Version) }

// Describe asks the root for its device actor and that actor for the
// application's description.
func (c *Client) Describe(ctx context.Context) (Device, error) {
	var root struct {
		Device string `json:"deviceActor"`
	}
	if err := c.Request(ctx, "root", typeOnly{Type: "getRoot"}, &root); err != nil {
		return Device{}, fmt.Errorf("rdp: getRoot: %w", err)
	}
	if root.Device == "" {
		return Device{}, fmt.Errorf("rdp: getRoot: %w", protocolError("no deviceActor"))
	}
	var desc struct {
		Value Device `json:"value"`
	}
	if err := c.Request(ctx, root.Device, typeOnly{Type: "getDescription"}, &desc); err != nil {
		return Device{}, fmt.Errorf("rdp: getDescription: %w", err)
	}
	return desc.Value, nil
}
