package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// logOnFailure is an option that keeps the engine's debug log (each settle's
// figures among it) and prints it when the test fails: what a failure seen only
// in CI needs to be understood.
func logOnFailure(t testing.TB) func(*browser.Options) {
	var (
		mu  sync.Mutex
		buf bytes.Buffer
	)
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	})
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			defer mu.Unlock()
			t.Logf("the engine's log:\n%s", buf.String())
		}
	})
	return func(o *browser.Options) {
		o.Logger = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t testing.TB) netip.AddrPort {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := netip.MustParseAddrPort(l.Addr().String())
	l.Close()
	return addr
}

// chromeScript runs a chrome script in Firefox's parent process over c (a
// test's own connection) and decodes its value into out.
func chromeScript(ctx context.Context, c *rdp.Client, script pagejs.Script, args, out any) error {
	console, err := c.ParentProcessConsole(ctx)
	if err != nil {
		return err
	}
	src, err := script.Chrome(args)
	if err != nil {
		return err
	}
	res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
	if err != nil {
		return err
	}
	return pagejs.Decode(res, out)
}

// structured is a result's structured content as a map of its JSON names
// to its Go values (pointers followed, nested structs as maps, Page and
// slices kept as they are), so tests read fields by the name a client
// sees and compare them with typed values.
func structured(v any) any {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.Type() == reflect.TypeFor[browser.Page]() {
		return rv.Interface()
	}
	m := map[string]any{}
	addFields(m, rv)
	return m
}

func addFields(m map[string]any, rv reflect.Value) {
	for i := range rv.NumField() {
		f, fv := rv.Type().Field(i), rv.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			addFields(m, fv)
			continue
		}
		tag := strings.Split(f.Tag.Get("json"), ",")
		if !f.IsExported() || tag[0] == "" || tag[0] == "-" {
			continue
		}
		if slices.Contains(tag[1:], "omitempty") && fv.IsZero() {
			continue
		}
		if fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map {
			m[tag[0]] = fv.Interface()
			continue
		}
		m[tag[0]] = structured(fv.Interface())
	}
}

// tabRow is a tab of list_tabs' structured result, as a client reads it.
type tabRow struct {
	TabID      string `json:"tab_id"`
	Index      int    `json:"index"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	Selected   bool   `json:"selected"`
	OpenedHere bool   `json:"opened_here"`
}

// tabsOf reads the tabs of a list_tabs result through their JSON.
func tabsOf(t testing.TB, res tools.Result) []tabRow {
	t.Helper()
	b, err := json.Marshal(res.Structured.(map[string]any)["tabs"])
	if err != nil {
		t.Fatal(err)
	}
	var rows []tabRow
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// vendorServer serves testdata with libs (npm packages, "name@exact-version",
// fetched once at test set-up: internal/npmlibs) under /vendor/; more, when
// set, adds routes.
func vendorServer(t *testing.T, libs []string, more func(mux *http.ServeMux)) *httptest.Server {
	t.Helper()
	mods := npmlibs.Dir(t, libs...)
	mux := http.NewServeMux()
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	if more != nil {
		more(mux)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// openVendored serves testdata with libs (from npm) under /vendor/, opens
// page in a new session's tab and returns the session and the navigation's
// answer.
func openVendored(t *testing.T, libs []string, page string, opts ...func(*browser.Options)) (*session, string) {
	t.Helper()
	srv := vendorServer(t, libs, nil)
	s := newSession(t, opts...)
	must(t, s, "select_tab", map[string]any{"index": 0})
	return s, must(t, s, "navigate", map[string]any{"url": srv.URL + page, "wait": "complete"}).Text
}

// openApp serves the application bundled from testdata/<name>.jsx with libs
// (npmlibs.Bundle) as /app.js of testdata/app.html, opens it in a new session's
// tab and returns the session and the page's "Sort by: Newest" and "Easy Apply"
// buttons, which the job applications there have.
func openApp(t *testing.T, name string, libs []string) (s *session, sort, apply string) {
	t.Helper()
	s, snap := openBundled(t, name, libs)
	return s, ref(t, snap, "button", "Sort by: Newest"), ref(t, snap, "button", "Easy Apply")
}

// openBundled serves the application bundled from testdata/<name>.jsx with
// libs as openApp does and returns a new session with it open, and the
// navigation's answer.
func openBundled(t *testing.T, name string, libs []string, opts ...func(*browser.Options)) (*session, string) {
	t.Helper()
	bundle := npmlibs.Bundle(t, "testdata/"+name+".jsx", libs...)
	srv := vendorServer(t, libs, func(mux *http.ServeMux) {
		mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	})
	s := newSession(t, opts...)
	must(t, s, "select_tab", map[string]any{"index": 0})
	return s, must(t, s, "navigate", map[string]any{"url": srv.URL + "/app.html", "wait": "complete"}).Text
}

// sortsBySalary opens the app's sort menu, which keeps the page's four other
// elements (its heading, field and two buttons) inert while open (it is modal),
// and picks Salary.
func sortsBySalary(t *testing.T, s *session, sort string) {
	t.Helper()
	res := must(t, s, "click", map[string]any{"element": sort})
	if c := changes(t, res); c["inert"] != 4 {
		t.Errorf("the open menu: want the page's heading, field and two buttons inert:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "menuitem", "Salary")})
	if !strings.Contains(res.Text, "["+sort+`] button "Sort by: Salary" collapsed`) {
		t.Errorf("a menu item picked: want the button's new name:\n%s", res.Text)
	}
}
