package main

import (
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
)

// notFromConfig are the engine options that come from elsewhere than the
// configuration: the process around the engine, or tests and benchmarks.
var notFromConfig = map[string]bool{
	"Logger": true, "Files": true, "OpenSocket": true, "Sandbox": true, "Version": true, "Dial": true,
	"PageRealmOnly": true, "ReadInPageRealm": true, "ReadInIsolatedRealm": true, "NoUploadSink": true, "NoNodeBinding": true,
	// The confirmation helper serve starts, and the mode it started it for
	// (config.Config.Confirm), set together by serve.
	"Confirm": true, "ConfirmMode": true,
}

// TestEngineOptionsCopyEverySetting: every engine option that is a setting
// has the configuration field of its name and type, and engineOptions
// copies it (each field gets a distinct non-zero value, so a field left
// out, or two swapped, shows).
func TestEngineOptionsCopyEverySetting(t *testing.T) {
	cfg := config.Config{
		Socket: "/run/user/1000/firefox-rdp-mcp/rdp.sock", Host: "localhost", Addr: netip.MustParseAddrPort("127.0.0.1:6123"), RequestTimeout: 7 * time.Second,
		MaxElements: 11, MaxTextChars: 13, ChunkBytes: 17, UploadsEnabled: true, UploadRoots: []string{"/a", "/b"},
		MaxFileBytes: 19, MaxUploadBytes: 23, AllowHardlinks: true, // the broker's
	}
	got := reflect.ValueOf(engineOptions(cfg))
	src := reflect.ValueOf(cfg)
	for i := 0; i < got.NumField(); i++ {
		f := got.Type().Field(i)
		if notFromConfig[f.Name] {
			if !got.Field(i).IsZero() {
				t.Errorf("engineOptions sets %s, which is not a setting", f.Name)
			}
			continue
		}
		want := src.FieldByName(f.Name)
		if !want.IsValid() || want.Type() != f.Type {
			t.Errorf("browser.Options.%s (%v) has no config.Config field of its name and type: add one or list it in notFromConfig", f.Name, f.Type)
			continue
		}
		if want.IsZero() {
			t.Errorf("the test's config leaves %s zero: give it a value", f.Name)
		}
		if !reflect.DeepEqual(got.Field(i).Interface(), want.Interface()) {
			t.Errorf("engineOptions: %s = %v, want %v", f.Name, got.Field(i), want)
		}
	}
}
