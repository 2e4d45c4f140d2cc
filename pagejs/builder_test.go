package pagejs

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

const testWindowID = 12884901889

type goldenCase struct {
	file   string
	script Script
	realm  realms
	args   any
}

func goldenCases() []goldenCase {
	sel := Sel{"#host", ":host > div > button:nth-of-type(2)"}
	fp := Fingerprint{Tag: "button", Role: "button", Type: "submit", Name: "Apply </script> & \u2028", Href: ""}
	page := func(s Script, args any) goldenCase { return goldenCase{s.name + ".page", s, realmPage, args} }
	iso := func(s Script, args any) goldenCase { return goldenCase{s.name + ".isolated", s, realmIsolated, args} }
	chrome := func(s Script, args any) goldenCase { return goldenCase{s.name + ".chrome", s, realmChrome, args} }
	resident := func(s Script) goldenCase { return goldenCase{s.name + ".resident", s, realmResident, nil} }
	started := func(s Script, args any) goldenCase { return goldenCase{s.name + ".started", s, realmResident, args} }
	call := func(s Script, args any) goldenCase { return goldenCase{s.name + ".call", s, realmCall, args} }
	cached := func(s Script, args any) goldenCase { return goldenCase{s.name + ".cached", s, realmCached, args} }
	snap := SnapshotArgs{MaxElements: 500, MaxTextChars: 20000, IncludeAllText: true}
	click := ClickArgs{Sel: sel, FP: fp}
	fill := FillArgs{Sel: sel, FP: fp, Value: `"); alert(1); ("`, Submit: true}
	typ := TypeTextArgs{Sel: sel, FP: fp, Text: "héllo 🌍\n", FirstChunk: true}
	key := PressKeyArgs{Sel: sel, FP: &fp, Key: "k", Mods: []string{"Control", "Shift"}}
	wait := WaitForArgs{Text: "Thanks</script>", Selector: "#done", State: "present"}
	files := []UploadFile{{Name: `cv "final" \ résumé.pdf`, Type: "application/pdf", Size: 1234, LastModified: 1700000000000}}
	begin := UploadBeginArgs{Key: strings.Repeat("ab", 16), Sel: sel, FP: fp, Files: files}
	chunk := UploadChunkArgs{Key: strings.Repeat("ab", 16), File: 0, Index: 3, Data: "AAEC/w=="}
	finish := UploadFinishArgs{Key: strings.Repeat("ab", 16), Sel: sel, FP: fp}
	abort := UploadAbortArgs{Key: strings.Repeat("ab", 16)}
	text := "ok"
	return []goldenCase{
		page(Snapshot, snap), iso(Snapshot, snap), resident(Snapshot), call(Snapshot, snap),
		started(Snapshot, SnapshotArgs{Warm: true, MaxElements: 500}),
		resident(PageInfo), call(PageInfo, nil),
		page(Describe, DescribeArgs{Sel: sel}), iso(Describe, DescribeArgs{Sel: sel}),
		page(Click, click), iso(Click, click), cached(Click, click),
		page(Fill, fill), iso(Fill, fill),
		iso(FillForm, FillFormArgs{Fields: []FormField{{Sel: sel, FP: fp, Name: "e3", Value: json.RawMessage(`"</script>"`)}, {Sel: sel, FP: fp, Ref: 9, Name: "e4", Value: json.RawMessage(`true`)}}, Submit: true}),
		page(TypeText, typ), iso(TypeText, typ),
		page(PressKey, key), iso(PressKey, key),
		page(Hover, click), iso(Hover, click),
		page(Drag, DragArgs{Sel: sel, FP: fp, To: DragTo{Sel: Sel{"#b"}, FP: fp}}), iso(Drag, DragArgs{Sel: sel, FP: fp, To: DragTo{Sel: Sel{"#b"}, FP: fp}}),
		page(Scroll, ScrollArgs{Mode: "by", Direction: "down", Pages: 2}), iso(Scroll, ScrollArgs{Sel: sel, FP: &fp, Mode: "to", To: "bottom"}),
		page(SelectOption, SelectOptionArgs{Sel: sel, FP: fp, Options: []string{"a", "</script>"}}), iso(SelectOption, SelectOptionArgs{Sel: sel, FP: fp, Options: []string{"b"}}),
		page(WaitFor, wait), iso(WaitFor, wait),
		page(Settle, SettleArgs{QuietMS: 40, CapMS: 250}), iso(Settle, SettleArgs{QuietMS: 40, CapMS: 250}), cached(Settle, SettleArgs{QuietMS: 40, CapMS: 250}),
		page(PageInfo, nil), iso(PageInfo, nil),
		page(CaptureRect, CaptureRectArgs{Sel: sel, FP: &fp}), iso(CaptureRect, CaptureRectArgs{}),
		page(UploadBegin, begin), iso(UploadBegin, begin),
		page(UploadChunk, chunk), iso(UploadChunk, chunk),
		page(UploadFinish, finish), iso(UploadFinish, finish),
		page(UploadAbort, abort), iso(UploadAbort, abort), cached(UploadAbort, abort),
		iso(Probe, nil), iso(FocusedFrame, nil), iso(FrameReach, FrameReachArgs{Frame: 42, At: &ViewPoints{Points: []Point{{X: 10, Y: 20}}, W: 640, H: 300}}),
		iso(FramePoint, FramePointArgs{Sel: sel, FP: fp, Ref: 3, Center: true}),
		iso(BindRefs, BindRefsArgs{Key: strings.Repeat("ab", 16), Max: 500, WaitMS: 5000}),
		iso(ListenerMarks, ListenerMarksArgs{}),
		chrome(DialogState, DialogStateArgs{BrowserID: 9}),
		chrome(DialogAnswer, DialogAnswerArgs{BrowserID: 9, Action: "accept", Text: &text}),
		chrome(TabOpen, TabOpenArgs{URL: "https://example.com/?q=</script>"}),
		chrome(TabSelect, TabArgs{BrowserID: 9}),
		chrome(TabClose, TabArgs{BrowserID: 9}),
		chrome(TabDocument, TabArgs{BrowserID: 9}),
		chrome(FocusWindow, FocusWindowArgs{BrowserID: 9, Console: "server1.conn0.consoleActor2"}),
		chrome(TabHistory, TabHistoryArgs{BrowserID: 9, Action: "back"}),
		chrome(TabOpeners, TabArgs{BrowserID: 9}),
		chrome(TabList, TabListArgs{Max: 16384}),
		chrome(UploadSink, UploadSinkArgs{Console: "server1.conn0.consoleActor2"}),
		page(LoadState, nil), iso(LoadState, nil),
		chrome(TabNavigate, TabNavigateArgs{BrowserID: 9, URL: "https://example.com/?q=</script>"}),
		chrome(BrowserInstance, nil),
		chrome(BrowserStartup, nil),
		iso(Gesture, GestureArgs{Sel: sel, FP: &fp, Mode: "click"}),
		chrome(Downloads, DownloadsArgs{BrowserID: 9, Since: 1765000000000, WaitMS: 2000, Window: 12}),
	}
}

func build(s Script, realm realms, args any) (string, error) {
	switch realm {
	case realmPage:
		return s.Page(args)
	case realmIsolated:
		return s.Isolated(testWindowID, args)
	case realmCached:
		return s.IsolatedCached(testWindowID, args)
	case realmResident:
		if args != nil {
			return s.PageResidentStarting(args)
		}
		return s.PageResident()
	case realmCall:
		return s.PageCall(args)
	default:
		return s.Chrome(args)
	}
}

// abbreviate replaces the embedded sources by markers, so the golden files show the
// wrapper and the arguments; the sources are checked by TestScriptFiles and node. The
// names of the isolated realm's kept copies (hashes of the sources) become markers too.
func abbreviate(out string, s Script) string {
	out = strings.ReplaceAll(out, libFullSrc, "«lib.js + libAct.js»")
	out = strings.ReplaceAll(out, libSrc, "«lib.js»")
	out = strings.ReplaceAll(out, libKept, "«lib.js + libAct.js kept»")
	out = strings.ReplaceAll(out, libReadKept, "«lib.js kept»")
	if n := keptNames[s.name]; n != "" {
		out = strings.ReplaceAll(out, n, "«"+s.name+".js kept»")
	}
	if s.keep != "" {
		out = strings.ReplaceAll(out, s.keep, "«"+s.name+"Keep.js»")
	}
	return strings.ReplaceAll(out, s.src, "«"+s.name+".js»")
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range goldenCases() {
		seen[c.script.name] = true
		out, err := build(c.script, c.realm, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		got := abbreviate(out, c.script) + "\n"
		path := filepath.Join("testdata", "golden", c.file+".js")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run go test ./pagejs -run TestGolden -update)", c.file, err)
		}
		if got != string(want) {
			t.Errorf("%s: output differs from %s:\n got: %s\nwant: %s", c.file, path, got, want)
		}
	}
	for _, s := range Scripts() {
		if !seen[s.name] {
			t.Errorf("script %s has no golden case", s.name)
		}
	}
}

func TestRealms(t *testing.T) {
	if _, err := Probe.Page(nil); !errors.Is(err, ErrRealm) {
		t.Errorf("Probe.Page: %v, want ErrRealm", err)
	}
	if _, err := DialogState.Isolated(1, nil); !errors.Is(err, ErrRealm) {
		t.Errorf("DialogState.Isolated: %v, want ErrRealm", err)
	}
	if _, err := Probe.PageResident(); !errors.Is(err, ErrRealm) {
		t.Errorf("Probe.PageResident: %v, want ErrRealm", err)
	}
	if _, err := DialogState.PageCall(nil); !errors.Is(err, ErrRealm) {
		t.Errorf("DialogState.PageCall: %v, want ErrRealm", err)
	}
	if _, err := Snapshot.Chrome(nil); !errors.Is(err, ErrRealm) {
		t.Errorf("Snapshot.Chrome: %v, want ErrRealm", err)
	}
	for _, id := range []int64{0, -1, 1<<53 + 1} {
		if _, err := Click.Isolated(id, nil); err == nil {
			t.Errorf("Click.Isolated(%d) accepted", id)
		}
	}
	var zero Script
	if _, err := zero.Page(nil); !errors.Is(err, ErrRealm) {
		t.Errorf("zero Script builds: %v", err)
	}
}

func TestProtoKeyRefused(t *testing.T) {
	if _, err := WaitFor.Page(map[string]any{"a": map[string]any{"__proto__": map[string]any{"x": 1}}}); err == nil {
		t.Error(`nested "__proto__" key accepted`)
	}
	// As a value it is harmless and must pass.
	if _, err := TypeText.Page(TypeTextArgs{Text: `"__proto__"`}); err != nil {
		t.Error(err)
	}
	if _, err := TypeText.Page(TypeTextArgs{Text: "__proto__"}); err != nil {
		t.Error(err)
	}
	if _, err := WaitFor.Page(func() {}); err == nil {
		t.Error("unencodable args accepted")
	}
}

func TestDecode(t *testing.T) {
	var v PageInfoResult
	if err := Decode(`{"ok":true,"value":{"url":"u","title":"t","readyState":"complete"}}`, &v); err != nil || v.URL != "u" || v.ReadyState != "complete" {
		t.Errorf("ok envelope: %v %+v", err, v)
	}
	err := Decode(`{"ok":false,"error":{"code":"stale_element","message":"changed"}}`, &v)
	var se *ScriptError
	if !errors.As(err, &se) || se.Code != errcode.StaleElement || se.Message != "changed" {
		t.Errorf("error envelope: %v", err)
	}
	if !errors.Is(err, &ScriptError{Code: errcode.StaleElement}) || errors.Is(err, &ScriptError{Code: errcode.ElementNotFound}) {
		t.Error("ScriptError.Is does not match by code")
	}
	for _, bad := range []string{``, `null`, `"PWNED"`, `{}`, `{"ok":false}`, `{"ok":true}`, `{"ok":true,"value":"x"}`, `[1]`} {
		if err := Decode(bad, &v); err == nil || (!errors.Is(err, ErrMalformed)) {
			t.Errorf("Decode(%q) = %v, want ErrMalformed", bad, err)
		}
	}
	if err := Decode(`{"ok":true,"value":{}}`, nil); err != nil {
		t.Errorf("nil out: %v", err)
	}
}

func TestFingerprintSum(t *testing.T) {
	a := Fingerprint{Tag: "a", Role: "link", Name: "x"}
	b := Fingerprint{Tag: "a", Role: "linkx"}
	if a.Sum() == b.Sum() {
		t.Error("field boundaries do not separate")
	}
	var f Fingerprint
	if err := json.Unmarshal([]byte(`{"tag":"a","role":"link","name":"x"}`), &f); err != nil || f.Sum() != a.Sum() {
		t.Error("absent fields must hash as empty strings")
	}
	// The digest is SHA-256 of the fields joined by NUL, whatever their length.
	long := strings.Repeat("név ", 200)
	for _, f := range []Fingerprint{a, {}, {Tag: "input", Type: "file", Name: long, Href: "https://a.example/" + long}} {
		if want := sha256.Sum256([]byte(strings.Join([]string{f.Tag, f.Role, f.Type, f.Name, f.Href}, "\x00"))); f.Sum() != want {
			t.Errorf("Sum(%+v) is not SHA-256 of the fields joined by NUL", f)
		}
	}
}

// TestScriptFiles: every js file is one function named after the file and is used.
func TestScriptFiles(t *testing.T) {
	entries, err := jsFS.ReadDir("js")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{"lib": true, "libAct": true}
	for _, s := range Scripts() {
		used[s.name] = true
		if s.keep != "" {
			used[s.name+"Keep"] = true
		}
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".js")
		if !used[name] {
			t.Errorf("js/%s is not a script of the package", e.Name())
		}
		raw, _ := jsFS.ReadFile("js/" + e.Name())
		if strings.Contains(string(raw), "`") {
			t.Errorf("js/%s uses a template literal (compact would break one spanning lines)", e.Name())
		}
		src := mustRead(name)
		for _, banned := range []string{"eval(", "new Function", "Function(", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "setTimeout(\"", "import("} {
			if strings.Contains(src, banned) {
				t.Errorf("js/%s uses %s", e.Name(), banned)
			}
		}
	}
}

// TestReadLib: a script that only reads (the snapshot) is built with lib.js alone, in
// every realm, so its first call in a document sends and compiles less; the others get
// libAct.js's helpers too.
func TestReadLib(t *testing.T) {
	for _, s := range Scripts() {
		if s.noLib || s.realms&realmPage == 0 {
			continue
		}
		page, err := s.Page(nil)
		if err != nil {
			t.Fatal(err)
		}
		iso, err := s.Isolated(testWindowID, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, expr := range []string{page, iso} {
			if !strings.Contains(expr, libSrc) || strings.Contains(expr, libActSrc) != !s.read {
				t.Errorf("%s (read %v): lib.js %v, libAct.js %v", s.name, s.read, strings.Contains(expr, libSrc), strings.Contains(expr, libActSrc))
			}
		}
	}
	if !Snapshot.read {
		t.Error("the snapshot is not built with lib.js alone")
	}
	if r, _ := Snapshot.PageResident(); strings.Contains(r, libActSrc) {
		t.Error("the snapshot resident carries libAct.js")
	}
}

// TestNoSourceBuilders: the only way to get an expression is a Script value of this
// package; no exported function or method takes text that becomes source.
func TestNoSourceBuilders(t *testing.T) {
	st := reflect.TypeOf(Script{})
	for i := 0; i < st.NumField(); i++ {
		if st.Field(i).IsExported() {
			t.Errorf("Script has exported field %s", st.Field(i).Name)
		}
	}
	allowedIn := map[reflect.Kind]bool{reflect.Interface: true, reflect.Int64: true}
	for i := 0; i < st.NumMethod(); i++ {
		m := st.Method(i)
		for j := 1; j < m.Type.NumIn(); j++ {
			if !allowedIn[m.Type.In(j).Kind()] {
				t.Errorf("Script.%s takes a %s", m.Name, m.Type.In(j))
			}
		}
	}
	// Exported functions: none may take a string except Decode (which parses results).
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				if fd.Recv != nil {
					continue // methods: checked by reflection above (Script) or not builders
				}
				for _, field := range fd.Type.Params.List {
					if id, ok := field.Type.(*ast.Ident); ok && id.Name == "string" && fd.Name.Name != "Decode" {
						t.Errorf("exported %s takes a string", fd.Name.Name)
					}
				}
				if fd.Type.Results != nil {
					for _, r := range fd.Type.Results.List {
						if id, ok := r.Type.(*ast.Ident); ok && id.Name == "Script" {
							t.Errorf("exported %s returns a Script (scripts are package variables only)", fd.Name.Name)
						}
					}
				}
			}
		}
	}
}

func requireNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("FIREFOX_MCP_REQUIRE_FIREFOX") == "1" {
			t.Fatal("node not found and FIREFOX_MCP_REQUIRE_FIREFOX=1")
		}
		t.Skip("node not found")
	}
	return node
}

// TestNodeCheck parses every js file and every built expression (all realms, hostile
// argument strings) with node.
func TestNodeCheck(t *testing.T) {
	node := requireNode(t)
	dir := t.TempDir()
	var files []string
	entries, _ := jsFS.ReadDir("js")
	for _, e := range entries {
		b, _ := jsFS.ReadFile("js/" + e.Name())
		p := filepath.Join(dir, e.Name())
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for i, c := range goldenCases() {
		out, err := build(c.script, c.realm, c.args)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "expr"+string(rune('a'+i/26))+string(rune('a'+i%26))+"."+c.file+".js")
		if err := os.WriteFile(p, []byte(out+";\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	// One node process parses them all, each as the classic script Firefox
	// evaluates (node --check, a process per file, took a minute on a loaded
	// 2-core machine), and names every file that does not parse.
	args := append([]string{"-e", nodeParseAll}, files...)
	if out, err := exec.Command(node, args...).CombinedOutput(); err != nil {
		t.Errorf("node: %v\n%s", err, out)
	}
}

// nodeParseAll compiles each file named on its command line as a script,
// printing the ones that fail and exiting 1 if any did.
const nodeParseAll = `
const fs = require("fs"), vm = require("vm"), path = require("path");
let failed = 0;
for (const f of process.argv.slice(1)) {
  try { new vm.Script(fs.readFileSync(f, "utf8"), { filename: path.basename(f) }); }
  catch (e) { failed++; console.log(path.basename(f) + ": " + e.stack.split("\n").slice(0, 3).join("\n")); }
}
console.log((process.argv.length - 1) + " files parsed, " + failed + " failed");
process.exit(failed ? 1 : 0);
`

// refParts returns the fixed text before and after the arguments for a script and realm.
func refParts(s Script, realm realms) (head, tail string) {
	const marker = "\x00ARGS\x00"
	ref := s.assemble(realm, testWindowID, []byte(marker))
	i := strings.Index(ref, marker)
	return ref[:i], ref[i+len(marker):]
}

// checkStructure verifies that out is the fixed wrapper around one JSON literal that
// round-trips to the value args encodes to.
func checkStructure(t *testing.T, s Script, realm realms, args any, out string) {
	t.Helper()
	head, tail := refParts(s, realm)
	if !strings.HasPrefix(out, head) || !strings.HasSuffix(out, tail) || len(out) < len(head)+len(tail) {
		t.Fatalf("%s: output is not the fixed wrapper around the arguments", s.name)
	}
	lit := out[len(head) : len(out)-len(tail)]
	want, _ := json.Marshal(args)
	if lit != string(want) {
		t.Fatalf("%s: argument literal %q is not json.Marshal(args) %q", s.name, lit, want)
	}
	var a, b any
	if err := json.Unmarshal([]byte(lit), &a); err != nil {
		t.Fatalf("%s: literal does not parse: %v", s.name, err)
	}
	_ = json.Unmarshal(want, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: literal does not round-trip", s.name)
	}
	for _, r := range []string{"<", ">", "&", "\u2028", "\u2029"} {
		if strings.Contains(lit, r) {
			t.Fatalf("%s: literal contains raw %q", s.name, r)
		}
	}
}

func FuzzBuilders(f *testing.F) {
	for _, seed := range [][4]string{
		{"#a", "Apply", "cv.pdf", "https://example.com/"},
		{`"); alert(1); ("`, "</script><script>alert(1)</script>", `a"b\c.pdf`, "javascript:alert(1)"},
		{"\u2028\u2029", "`${x}`", "résumé 🌍.pdf", "https://u:p@h/?a=1&b=<2>"},
		{"*/ x /*", "\\u0022", "\x00", "__proto__"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, sel, text, filename, url string) {
		fp := Fingerprint{Tag: sel, Role: text, Type: filename, Name: text, Href: url}
		cases := []struct {
			s    Script
			args any
		}{
			{Click, ClickArgs{Sel: Sel{sel, text}, FP: fp}},
			{Describe, DescribeArgs{Sel: Sel{sel}}},
			{Fill, FillArgs{Sel: Sel{sel}, FP: fp, Value: text}},
			{FillForm, FillFormArgs{Fields: []FormField{{Sel: Sel{sel}, FP: fp, Name: text, Value: mustJSONValue(text)}}}},
			{TypeText, TypeTextArgs{Sel: Sel{sel}, FP: fp, Text: text}},
			{PressKey, PressKeyArgs{Sel: Sel{sel}, FP: &fp, Key: text}},
			{WaitFor, WaitForArgs{Text: text, Selector: sel, URLContains: url, State: filename}},
			{UploadBegin, UploadBeginArgs{Key: text, Sel: Sel{sel}, FP: fp, Files: []UploadFile{{Name: filename, Type: text}}}},
			{UploadChunk, UploadChunkArgs{Key: sel, Data: text}},
			{UploadFinish, UploadFinishArgs{Key: filename, Sel: Sel{sel}, FP: fp}},
			{UploadAbort, UploadAbortArgs{Key: filename}},
			{Snapshot, map[string]string{"maxElements": text}},
			{TabOpen, TabOpenArgs{URL: url}},
			{DialogAnswer, DialogAnswerArgs{Action: sel, Text: &text}},
		}
		for _, c := range cases {
			for _, realm := range []realms{realmPage, realmIsolated, realmCached, realmChrome, realmCall} {
				if c.s.realms&realm == 0 && !(realm == realmCall && c.s.realms&realmPage != 0) && !(realm == realmCached && c.s.realms&realmIsolated != 0) {
					continue
				}
				out, err := build(c.s, realm, c.args)
				if err != nil {
					t.Fatalf("%s: %v", c.s.name, err)
				}
				checkStructure(t, c.s, realm, c.args, out)
			}
		}
		// Arbitrary keys: either refused (__proto__) or structurally safe.
		m := map[string]string{sel: text, filename: url}
		out, err := WaitFor.Page(m)
		if err != nil {
			if !(sel == "__proto__" || filename == "__proto__") {
				t.Fatalf("map args refused: %v", err)
			}
			return
		}
		checkStructure(t, WaitFor, realmPage, m, out)
	})
}

// TestArgsDifferOnlyInLiteral: two builds with different hostile arguments share
// everything outside the JSON literal.
func TestArgsDifferOnlyInLiteral(t *testing.T) {
	a, _ := Fill.Isolated(testWindowID, FillArgs{Sel: Sel{"#x"}, Value: "plain"})
	b, _ := Fill.Isolated(testWindowID, FillArgs{Sel: Sel{`"]});alert(1);//`}, Value: "</script>\u2028`${1}`"})
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	head, tail := refParts(Fill, realmIsolated)
	if i < len(head) || j < len(tail) {
		t.Fatalf("outputs differ outside the argument literal (common prefix %d < %d or suffix %d < %d)", i, len(head), j, len(tail))
	}
	if !bytes.HasPrefix([]byte(a[len(head):]), []byte("{")) {
		t.Fatal("literal does not start where expected")
	}
}

// TestKeptNames: each isolated script's kept copy has its own name, which changes with
// its source (another build never calls a copy it did not send), and the cached form
// carries neither lib.js nor the script, only their names and the arguments.
func TestKeptNames(t *testing.T) {
	if keptName("click", "function click() {}") == keptName("click", "function click() { }") {
		t.Error("kept name does not change with the source")
	}
	seen := map[string]string{libKept: "lib", libReadKept: "libread"}
	for _, s := range Scripts() {
		n := keptNames[s.name]
		if (n != "") != (s.realms&realmIsolated != 0) {
			t.Errorf("%s: kept name %q", s.name, n)
			continue
		}
		if n == "" {
			continue
		}
		if other, dup := seen[n]; dup {
			t.Errorf("%s and %s share the kept name %s", s.name, other, n)
		}
		seen[n] = s.name
		if n != keptName(s.name, s.src) || !strings.HasPrefix(n, "fxmcp:"+s.name+":") {
			t.Errorf("%s: kept name %q", s.name, n)
		}
		expr, err := s.IsolatedCached(testWindowID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(expr, s.src) || strings.Contains(expr, libSrc) || strings.Contains(expr, libActSrc) || !strings.Contains(expr, n) || len(expr) > 2000 {
			t.Errorf("%s: cached form (%d bytes) carries a source or lacks its name", s.name, len(expr))
		}
	}
	if _, err := DialogState.IsolatedCached(1, nil); !errors.Is(err, ErrRealm) {
		t.Errorf("DialogState.IsolatedCached: %v, want ErrRealm", err)
	}
	if _, err := Click.IsolatedCached(0, nil); err == nil {
		t.Error("IsolatedCached accepted window id 0")
	}
	if _, err := WaitFor.IsolatedCached(1, map[string]any{"__proto__": 1}); err == nil {
		t.Error(`IsolatedCached accepted a "__proto__" key`)
	}
}

// mustJSONValue is s as a JSON string value.
func mustJSONValue(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
