package build

import (
	"errors"
	"testing"
)

func TestParseSandboxMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SandboxMode
		err  error // nil: no error; errAny: some error
	}{
		{"", SandboxEnforce, nil},
		{"enforce", SandboxEnforce, nil},
		{"off", SandboxOff, nil}, // adjusted below for packaged builds
		{"Off", "", errAny},
		{"permissive", "", errAny},
		{" enforce", "", errAny},
	} {
		want, wantErr := tc.want, tc.err
		if tc.in == "off" && Packaged {
			want, wantErr = "", ErrOffPackaged
		}
		got, err := ParseSandboxMode(tc.in)
		switch {
		case wantErr == nil && err != nil, wantErr != nil && err == nil:
			t.Errorf("ParseSandboxMode(%q) error = %v, want %v", tc.in, err, wantErr)
		case wantErr != nil && wantErr != errAny && !errors.Is(err, wantErr):
			t.Errorf("ParseSandboxMode(%q) error = %v, want %v", tc.in, err, wantErr)
		case got != want:
			t.Errorf("ParseSandboxMode(%q) = %q, want %q", tc.in, got, want)
		}
	}
}

var errAny = errors.New("any error")

// A mode made without the parser is held to the same rule.
func TestCheck(t *testing.T) {
	if err := SandboxEnforce.Check(); err != nil {
		t.Errorf("enforce: %v", err)
	}
	if err := SandboxOff.Check(); (err == nil) != OffAllowed {
		t.Errorf("off: %v in a build with OffAllowed = %v", err, OffAllowed)
	}
	if err := SandboxMode("").Check(); err == nil {
		t.Error("the empty mode passed Check")
	}
	if OffAllowed == Packaged {
		t.Errorf("OffAllowed = %v and Packaged = %v", OffAllowed, Packaged)
	}
}
