package xwin

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestStartRuns(t *testing.T) {
	d := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	code, stderr, err := Run(ctx, "/usr/bin/zenity", []string{"zenity", "--question", "--text=x", "--timeout=1"}, d.Env(os.Getenv("PATH")))
	if code != 5 || err != nil {
		t.Fatalf("zenity on %s: %d %q %v", d.Name, code, stderr, err)
	}
}
