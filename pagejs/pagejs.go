// Package pagejs holds the JavaScript that firefox-rdp-mcp runs inside Firefox, and
// the only code that turns it into expressions for the RDP console.
//
// Every script is a constant file under js/, embedded at build time, holding one plain
// named function. A page script is `function name(win, args, lib, env)`: it reaches the
// page only through win, so the same file runs in either realm:
//
//   - the page realm (the tab target's console), built with [Script.Page]: win is the
//     page's own window, and the page can monkeypatch anything the script calls;
//   - the isolated realm (the content-process target's console, system principal),
//     built with [Script.Isolated]: win is an Xray view of the page's current inner
//     window, page monkeypatches are invisible, and privileged helpers (trusted events,
//     nsITextInputProcessor, mozSetFileArray) are reached through env. Each evaluation
//     keeps lib.js and the script, compiled, on that console's sandbox global, so
//     later calls can be built with [Script.IsolatedCached] (no sources sent).
//
// A page script can also be made resident in a document's page realm
// ([Script.PageResident], then [Script.PageCall] per call): the server keeps the one
// function it creates as a console object actor and calls it through the console's
// _self binding, so the engine reuses the compiled code. The server does this for
// [Snapshot].
//
// Every wrapper is strict mode code: page functions a script calls cannot reach it
// through Function.prototype.caller.
//
// Chrome scripts ([DialogState], [DialogAnswer], tab management) run in the parent
// process console and are `function name(args, env)`.
//
// A builder emits a fixed wrapper, the embedded function sources, and the arguments as
// one JSON literal produced by encoding/json (which escapes <, >, &, U+2028 and U+2029).
// No value is ever formatted into source, and no exported function accepts source
// text: the only scripts that exist are the variables of this package.
//
// Every expression evaluates (with mapped:{await:true}) to a JSON string, the envelope
// {"ok":true,"value":…} or {"ok":false,"error":{"code":…,"message":…}}; [Decode]
// turns it into a value or a [*ScriptError]. The codes are internal/errcode's: the
// scripts spell the ones they throw, and a test checks each is defined there.
//
// The scripts are the package's variables ([Snapshot], [Click], …, [UploadSink]):
// each one's comment says its realms, arguments, result and the behaviour worth
// knowing, measured on Firefox ESR 153.
//
// # IMPORTANT
//
// The isolated and chrome realms are fully privileged. Only constant scripts may ever
// run there; this package is the boundary that keeps it so. In the page realm the page
// controls every API the script calls (including JSON.stringify): results read there
// are page claims, and actions there are untrusted (isTrusted false) and can be
// redirected by a hostile page.
//
// Example:
//
//	expr, err := pagejs.Click.Isolated(innerWindowID, pagejs.ClickArgs{Sel: sel, FP: fp})
//	// evaluate expr on the content-process console with mapped:{await:true}
//	var res pagejs.ActionResult
//	err = pagejs.Decode(resultString, &res)
package pagejs

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

//go:embed js/*.js
var jsFS embed.FS

// realms a script may be built for.
type realms uint8

const (
	realmPage realms = 1 << iota
	realmIsolated
	realmChrome
	// Not realms a script is declared for, but the two expressions of a resident
	// page-realm script (see Script.PageResident).
	realmResident
	realmCall
	// The isolated realm's short form (see Script.IsolatedCached).
	realmCached
)

// Script is one embedded script (pagejs/js/<name>.js). Only the values declared in
// this package exist: no builder ever accepts source text.
type Script struct {
	name   string
	src    string
	realms realms
	keep   string // resident only: js/<name>Keep.js, made once per resident and passed as env.keep
	noLib  bool   // the wrapper omits lib.js (keeps per-chunk upload evaluations tiny)
	read   bool   // reads only: lib.js without libAct.js's helpers (a smaller script to send and compile)
	anyWin bool   // isolated: run even when the inner window is gone (win is null)
}

// The page scripts' helpers: lib.js reads the page; libAct.js adds what actions need.
// libFullSrc is one function (win, env) giving both, like lib.js alone; every script
// gets it but those marked read, which get lib.js (Snapshot: its first call in a
// document sends and compiles the whole script, ≈0.2 ms per KB measured).
var (
	libSrc     = mustRead("lib")
	libActSrc  = mustRead("libAct")
	libFullSrc = `function libFull(win, env) { return (` + libActSrc + `)(win, env, (` + libSrc + `)(win, env)); }`
)

// TextEntry tells whether s is a text entry (Fill, FillForm, TypeText, PressKey), which starts
// the watch of the page's timers that the settle after it reads (SettleArgs.Entry). A
// PressKey whose result tells whether it changed the page ([ActionResult].Changed) was
// a key pressed on no text field, and is judged as a click is.
func (s Script) TextEntry() bool {
	return s.name == Fill.name || s.name == FillForm.name || s.name == TypeText.name || s.name == PressKey.name
}

// lib returns the helpers' source s is built with and the name of their kept copy in
// the isolated realm.
func (s Script) lib() (src, kept string) {
	if s.read {
		return libSrc, libReadKept
	}
	return libFullSrc, libKept
}

// Page scripts (both realms unless noted).
var (
	// Snapshot lists the visible actionable elements; args SnapshotArgs, result SnapshotResult.
	// Its resident keeps what it issued last (js/snapshotKeep.js) and answers {same} when
	// nothing could have changed it. Given Pin it hands the elements it listed to
	// [BindRefs] (isolated realm), which gives each node an id in a WeakMap the page
	// cannot see; with Frames it also lists visible iframe elements. Accessible names
	// follow slots to the light-DOM text assigned to them.
	Snapshot = Script{name: "snapshot", src: mustRead("snapshot"), realms: realmPage | realmIsolated, keep: mustRead("snapshotKeep"), read: true}
	// Describe re-resolves one element and returns its fields; args DescribeArgs, result Element.
	Describe = pageScript("describe")
	// Click clicks a verified element; args ClickArgs, result ActionResult.
	//
	// Like every action, it re-resolves Sel and compares the element's fingerprint
	// fields with FP (stale_element on any difference, element_not_found when nothing
	// matches), and with Ref (isolated realm) fails with stale_element unless Sel finds
	// the node BindRefs gave that id; it refuses disabled elements
	// (element_not_interactable). Results say Trusted: true only for the isolated
	// realm's input path. Click never acts on a file input (unsupported_element), and
	// any click that reaches one meanwhile (a label, a handler calling input.click())
	// is default-prevented and reported as FilePickerBlocked. Isolated clicks grant user
	// activation (their pointerdown/mousedown are trusted), also in background tabs and
	// inside shadow trees (dispatched from the isolated realm there); page-realm clicks
	// do not.
	Click = pageScript("click")
	// Fill replaces a control's value; args FillArgs, result ActionResult. It refuses
	// checkboxes, radios, buttons and file inputs (unsupported_element: click toggles,
	// upload_files assigns). Selects match an option's value, then its label (exact,
	// then case-insensitive; option_not_found otherwise). Editors (contenteditable) get
	// plain text: committed through nsITextInputProcessor in the isolated realm (each
	// newline an Enter keypress), execCommand("insertText") in the page realm.
	Fill = pageScript("fill")
	// FillForm fills several fields of one document; args FillFormArgs, result
	// FillFormResult. Every field is checked (ref, enabled, its kind takes its value:
	// Fill's rules, plus checkboxes and radios, which take true or false and are clicked
	// when they differ) before any is written; the first that fails fails the call, its
	// message beginning "field N (ref): ".
	FillForm = pageScript("fillForm")
	// TypeText types one chunk of characters; args TypeTextArgs, result ActionResult.
	// Like PressKey with Sel, it requires the element to hold the focus after focus(),
	// so keys never land in another element. Newlines typed into a single-line input
	// are dropped; \r is ignored.
	TypeText = pageScript("typeText")
	// PressKey presses one allowlisted key; args PressKeyArgs, result ActionResult: a
	// named key (PressKeys) or one character plus Mods. In the isolated realm the
	// modifiers are pressed and released around the key through
	// nsITextInputProcessor, so shortcuts, Shift+Tab and typed characters are native.
	PressKey = pageScript("pressKey")
	// SelectOption selects options of a <select>; args SelectOptionArgs, result
	// SelectOptionResult. It never fails on an unknown option: it changes nothing and
	// returns what is missing and (at most 30 of) the options, so the server can mark
	// their page text.
	SelectOption = pageScript("selectOption")
	// Hover moves the pointer onto a verified element; args ClickArgs, result
	// ActionResult: trusted mouse input through the window's chrome-only
	// synthesizeMouseEvent (hover state, pointer events, enter/leave).
	Hover = pageScript("hover")
	// Scroll scrolls the page or an element's container; args ScrollArgs, result
	// ScrollResult. It sends a trusted wheel event with page deltas
	// (nsIDOMWindowUtils.sendWheelEvent) and waits for smooth scrolling to stop; when
	// that moves nothing it scrolls by script and says so.
	Scroll = pageScript("scroll")
	// Drag drags an element onto another; args DragArgs, result DragResult. Firefox
	// fires the HTML5 dragstart; the drag is cancelled in the system group (no OS drag
	// session) and the rest dispatched from the isolated realm with copies of the
	// page's DataTransfer; a source that starts no HTML5 drag gets a plain pointer drag.
	Drag = pageScript("drag")
	// Gesture reads what the lock on consequential actions looks at, before a click,
	// a key or a submission runs (package confirm decides); args GestureArgs, result
	// GestureResult. It changes nothing.
	Gesture = pageScript("gesture")
	// WaitFor checks a condition once; args WaitForArgs, result WaitForResult.
	WaitFor = pageScript("waitFor")
	// Settle waits until the page's DOM and requests are quiet, capped; args SettleArgs,
	// result SettleResult. No lib.js: every action ends with it (and wait_for pauses with
	// it), in the isolated realm, where the evaluation is compiled anew each time.
	Settle = Script{name: "settle", src: mustRead("settle"), realms: realmPage | realmIsolated, noLib: true}
	// PageInfo reads url, title, readyState; args nil, result PageInfoResult.
	PageInfo = Script{name: "pageInfo", src: mustRead("pageInfo"), realms: realmPage | realmIsolated, noLib: true}
	// LoadState reads where the document came from and its HTTP status, after waiting
	// (capped) for a readyState when asked; args LoadStateArgs, result LoadStateResult.
	LoadState = Script{name: "loadState", src: mustRead("loadState"), realms: realmPage | realmIsolated, noLib: true}
	// CaptureRect reads the viewport and an element's rectangle for a screenshot; args
	// CaptureRectArgs, result CaptureRectResult.
	CaptureRect = pageScript("captureRect")
	// UploadBegin checks the target and creates the staging; args UploadBeginArgs,
	// result UploadBeginResult. The staging lives on the content-process console's
	// sandbox global (isolated; it persists between evaluations, measured) or on a
	// non-enumerable window property named by the ≥128-bit key (page); UploadFinish
	// always deletes it. With Sink, chunks come from the parent process's upload sink
	// actor ([UploadSink]) as plain RDP packets instead of evaluations.
	UploadBegin = pageScript("uploadBegin")
	// UploadChunk stores one base64 chunk (no lib.js: the expression is the data plus a
	// few hundred bytes); args UploadChunkArgs, result UploadChunkResult.
	UploadChunk = Script{name: "uploadChunk", src: mustRead("uploadChunk"), realms: realmPage | realmIsolated, noLib: true}
	// UploadFinish builds the Files, assigns and verifies them; args UploadFinishArgs, result UploadFinishResult.
	UploadFinish = pageScript("uploadFinish")
	// UploadAbort deletes a staging (works after the window is gone); args UploadAbortArgs, result UploadAbortResult.
	UploadAbort = Script{name: "uploadAbort", src: mustRead("uploadAbort"), realms: realmPage | realmIsolated, noLib: true, anyWin: true}
	// FocusedFrame names the frame that holds the document's keyboard focus
	// (isolated realm only: browsingContext is chrome-only); args nil, result
	// FocusedFrameResult.
	FocusedFrame = Script{name: "focusedFrame", src: mustRead("focusedFrame"), realms: realmIsolated, noLib: true}
	// FrameReach tells whether users can reach a frame element of the document (not
	// inert; isolated realm only: browsingContext is chrome-only); args FrameReachArgs,
	// result FrameReachResult.
	FrameReach = Script{name: "frameReach", src: mustRead("frameReach"), realms: realmIsolated, read: true}
	// FramePoint lists where a pointer action on an element could land in its frame's
	// viewport, for FrameReach in the documents above (isolated realm only); args
	// FramePointArgs, result FramePointResult.
	FramePoint = Script{name: "framePoint", src: mustRead("framePoint"), realms: realmIsolated}
	// Probe feature-detects the privileged APIs (isolated realm only); args nil, result ProbeResult.
	Probe = Script{name: "probe", src: mustRead("probe"), realms: realmIsolated, noLib: true}
)

// Chrome (parent-process) scripts, built with [Script.Chrome].
var (
	// DialogState reports the tab-modal dialog open in a tab; args DialogStateArgs, result DialogStateResult.
	DialogState = chromeScript("dialogState")
	// DialogAnswer accepts or dismisses it; args DialogAnswerArgs, result DialogAnswerResult.
	DialogAnswer = chromeScript("dialogAnswer")
	// TabOpen opens an http(s) URL in a new tab; args TabOpenArgs, result TabResult.
	TabOpen = chromeScript("tabOpen")
	// TabSelect makes a tab the selected one of its window; args TabArgs, result TabResult.
	TabSelect = chromeScript("tabSelect")
	// TabClose closes a tab; args TabArgs, result TabResult.
	TabClose = chromeScript("tabClose")
	// TabDocument tells whether a tab shows only its initial about:blank, with no load
	// under way; args TabArgs, result TabDocumentResult.
	TabDocument = chromeScript("tabDocument")
	// TabNavigate loads an http(s) URL in a tab from the parent process; args TabNavigateArgs, result TabResult.
	TabNavigate = chromeScript("tabNavigate")
	// BrowserInstance identifies this run of Firefox; args nil, result BrowserInstanceResult.
	BrowserInstance = chromeScript("browserInstance")
	// BrowserStartup says whether the most recent browser window has finished
	// starting; args nil, result BrowserStartupResult.
	BrowserStartup = chromeScript("browserStartup")
	// FocusWindow makes a tab's window the one Firefox treats as active, without the
	// window manager; args FocusWindowArgs, result FocusWindowResult.
	FocusWindow = chromeScript("focusWindow")
	// TabHistory goes back, forward or reloads; args TabHistoryArgs, result TabHistoryResult.
	TabHistory = chromeScript("tabHistory")
	// TabList lists the tabs with bounded titles and URLs; args TabListArgs, result
	// TabListResult.
	TabList = chromeScript("tabList")
	// TabOpeners lists the tabs a tab opened; args TabArgs, result TabOpenersResult.
	TabOpeners = chromeScript("tabOpeners")
	// Downloads lists the downloads of Firefox's download manager, or waits for an
	// action's to come; args DownloadsArgs, result DownloadsResult.
	Downloads = chromeScript("downloads")
	// UploadSink adds the upload sink actor to the client's own connection; args
	// UploadSinkArgs, result UploadSinkResult.
	UploadSink = chromeScript("uploadSink")
)

// Scripts lists every script, for tests and tooling.
func Scripts() []Script {
	return []Script{Snapshot, Describe, Click, Fill, FillForm, TypeText, PressKey, SelectOption, Hover, Scroll, Drag, WaitFor, Settle, PageInfo, CaptureRect,
		UploadBegin, UploadChunk, UploadFinish, UploadAbort, Probe, FocusedFrame, FrameReach, FramePoint, BindRefs, ListenerMarks,
		DialogState, DialogAnswer, TabOpen, TabSelect, TabClose, TabDocument, TabHistory, TabOpeners, FocusWindow, UploadSink,
		LoadState, TabNavigate, BrowserInstance, BrowserStartup, Downloads, TabList, Gesture}
}

func pageScript(name string) Script {
	return Script{name: name, src: mustRead(name), realms: realmPage | realmIsolated}
}

func chromeScript(name string) Script {
	return Script{name: name, src: mustRead(name), realms: realmChrome}
}

// mustRead loads an embedded file; a missing or malformed file is a build mistake.
func mustRead(name string) string {
	b, err := jsFS.ReadFile("js/" + name + ".js")
	if err != nil {
		panic("pagejs: " + err.Error())
	}
	src := compact(string(b))
	if !(strings.HasPrefix(src, "function "+name+"(") || strings.HasPrefix(src, "async function "+name+"(")) || !strings.HasSuffix(src, "}") {
		panic("pagejs: js/" + name + ".js must be one function named " + name)
	}
	return src
}

// compact drops whole-line // comments, blank lines and indentation: every evaluation
// sends (and Firefox echoes back) the source, and its size costs ≈1.5 ms per 10 KB per
// evaluation (measured). Line breaks stay, so automatic semicolon insertion is unchanged;
// no script has a template literal or string spanning lines.
func compact(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// Name is the script's file name without extension.
func (s Script) Name() string { return s.name }

// ErrRealm is returned when a script is built for a realm it was not written for.
var ErrRealm = errors.New("pagejs: script not available in this realm")

// Fixed wrapper pieces. The catch clause turns a thrown {code, message} into an error
// envelope and anything else into page_script_failed.
const (
	catchBody = `} catch (e) { let code = "` + string(errcode.PageScriptFailed) + `", message = "script failed"; ` +
		`try { if (e && typeof e === "object" && typeof e.code === "string" && typeof e.message === "string" && !(e instanceof Error)) { code = e.code; message = e.message; } else { message = String(e); } } catch (_) {} ` +
		`return JSON.stringify({ok: false, error: {code, message}}); }`
	catchTail = catchBody + ` })()`

	pageHead   = `(async () => { "use strict"; try { const win = window; const env = {realm: "page"}; `
	isolatedID = `const innerWindowID = `
	// The isolated realm's copies (see Script.IsolatedCached): own(name, f) returns the
	// function kept on the console's sandbox global under name, keeping f there first
	// when there is none; got(name) returns the kept one or undefined. Both read own
	// properties of the sandbox global only, which no page can reach.
	isolatedOwn = `const own = (n, f) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); if (d && typeof d.value === "function") return d.value; ` +
		`try { Object.defineProperty(globalThis, n, {value: f}); } catch (_) {} return f; }; `
	isolatedGot = `const got = n => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return d && typeof d.value === "function" ? d.value : undefined; }; `
	notKept     = `return JSON.stringify({ok: false, error: {code: "` + string(errcode.ResidentMissing) + `", message: "the isolated realm keeps no copy of this script"}}); `
	isolatedWin = `; const env = {realm: "isolated", innerWindowID, Cc, Ci, Cu, Services}; const win = Services.wm.getCurrentInnerWindowWithId(innerWindowID); `
	noWinCheck  = `if (!win || win.closed) { return JSON.stringify({ok: false, error: {code: "` + string(errcode.TargetReplaced) + `", message: "the page's document was replaced"}}); } `
	chromeHead  = `(async () => { "use strict"; try { const env = {realm: "chrome", Cc, Ci, Cu, Services, ChromeUtils, WindowGlobalParent}; `

	// A resident script is one function created in the page realm, strict so that a
	// page function it calls cannot reach it through Function.prototype.caller. It takes
	// (win, args); a fresh lib is made per call. A script with a keep (js/<name>Keep.js)
	// gets one made with the resident, passed as env.keep: the only state kept between calls;
	// env.lib makes a lib and env.walk(args) calls the script as a call does, for work the
	// keep does later (its warm walk).
	residentHead     = `(function () { "use strict"; `
	residentBody     = `return async function (win, args) { try { const env = {realm: "page"}; `
	residentBodyKeep = `return async function (win, args) { try { const env = {realm: "page", keep, lib: () => lib(win, env), walk: (a) => f(win, a, lib(win, env), env)}; `
	residentTail     = ` }; })()`
	// A resident started (Script.PageResidentStarting): named, called once with the
	// arguments that follow, then returned.
	residentStart     = `const resident = async function (win, args) { try { const env = {realm: "page"}; `
	residentStartKeep = `const resident = async function (win, args) { try { const env = {realm: "page", keep, lib: () => lib(win, env), walk: (a) => f(win, a, lib(win, env), env)}; `
	residentCall      = ` }; resident(window, `
	residentCallTail  = `); return resident; })()`
	// The call: _self is bound to the resident (rdp.EvalOptions.Self). When it is not
	// (the actor is gone), _self is whatever the page named so, if anything: the page
	// realm's results are the page's word anyway (see browser's snapshot), and an
	// unbound _self normally gives the envelope that makes the caller install anew.
	callHead = `(typeof _self === "function" ? _self(window, `
	callTail = `) : JSON.stringify({ok: false, error: {code: "` + string(errcode.ResidentMissing) + `", message: "the resident script is gone"}}))`
)

// Page builds an expression for the page realm (the tab target's console): win is the
// page's window.
func (s Script) Page(args any) (string, error) {
	if s.realms&realmPage == 0 {
		return "", fmt.Errorf("%w: %s in the page realm", ErrRealm, s.name)
	}
	a, err := encodeArgs(args)
	if err != nil {
		return "", fmt.Errorf("pagejs: %s: %w", s.name, err)
	}
	return s.assemble(realmPage, 0, a), nil
}

// Isolated builds an expression for the content-process console (system principal,
// rdp-notes §7/§11): win is Services.wm.getCurrentInnerWindowWithId(innerWindowID), an
// Xray view of the page. When that window is no longer current the envelope is the error
// [errcode.TargetReplaced]. The expression also keeps lib.js and the script, compiled,
// on that console's sandbox global, and uses the copies kept there when it finds them:
// later evaluations can be built with [Script.IsolatedCached].
func (s Script) Isolated(innerWindowID int64, args any) (string, error) {
	return s.isolated(realmIsolated, innerWindowID, args)
}

// IsolatedCached is [Script.Isolated] without the sources: it calls the copies of
// lib.js and the script that an earlier [Script.Isolated] evaluation kept on the same
// console's sandbox global (the content-process console's evaluation global, which
// persists between evaluations; system principal, never the page's window, so no page
// can see or replace them). The copies are named by a hash of their sources, so
// another build's are never used. The expression is about 1.5 KB plus the arguments
// instead of the ≈40 KB of lib.js and the script, and runs code the engine has
// compiled (and optimized) already. When that console keeps no copy (a new process,
// a restarted debugger server) the envelope is the error [errcode.ResidentMissing]
// and nothing ran: evaluate the [Script.Isolated] expression instead.
func (s Script) IsolatedCached(innerWindowID int64, args any) (string, error) {
	return s.isolated(realmCached, innerWindowID, args)
}

// isolated builds either isolated-realm expression.
func (s Script) isolated(realm realms, innerWindowID int64, args any) (string, error) {
	if s.realms&realmIsolated == 0 {
		return "", fmt.Errorf("%w: %s in the isolated realm", ErrRealm, s.name)
	}
	if innerWindowID <= 0 || innerWindowID > 1<<53 {
		return "", fmt.Errorf("pagejs: %s: inner window id %d out of range", s.name, innerWindowID)
	}
	a, err := encodeArgs(args)
	if err != nil {
		return "", fmt.Errorf("pagejs: %s: %w", s.name, err)
	}
	return s.assemble(realm, innerWindowID, a), nil
}

// PageResident builds the expression that creates the script as a resident of the
// page realm: it evaluates (in the tab target's console) to a function, which the
// caller keeps as an object actor (rdp.Client.EvaluateObject) and calls with
// [Script.PageCall]. A resident is compiled once per document, so its later calls send
// a few hundred bytes instead of the sources and run code that the JavaScript engine
// has already optimized (measured on the large fixture, page text left out: a snapshot
// call ≈62 ms as a fresh script, ≈47 ms resident, medians of 40). The function is
// reachable only through that actor.
func (s Script) PageResident() (string, error) {
	if s.realms&realmPage == 0 {
		return "", fmt.Errorf("%w: %s in the page realm", ErrRealm, s.name)
	}
	return s.assemble(realmResident, 0, nil), nil
}

// PageResidentStarting is [Script.PageResident] whose evaluation also calls the
// resident once with args, not waiting for its answer (nor reporting it): for work
// the resident starts in the document as it is made, before the caller could send a
// first call (a snapshot's warm walk, [SnapshotArgs].Warm, which a later call with
// the same arguments and Wait joins).
func (s Script) PageResidentStarting(args any) (string, error) {
	if s.realms&realmPage == 0 {
		return "", fmt.Errorf("%w: %s in the page realm", ErrRealm, s.name)
	}
	a, err := encodeArgs(args)
	if err != nil {
		return "", fmt.Errorf("pagejs: %s: %w", s.name, err)
	}
	return s.assemble(realmResident, 0, a), nil
}

// PageCall builds the expression that calls the resident made by
// [Script.PageResident] with args; it must be evaluated with the resident's actor as
// rdp.EvalOptions.Self. Without it the envelope is the error [errcode.ResidentMissing].
func (s Script) PageCall(args any) (string, error) {
	if s.realms&realmPage == 0 {
		return "", fmt.Errorf("%w: %s in the page realm", ErrRealm, s.name)
	}
	a, err := encodeArgs(args)
	if err != nil {
		return "", fmt.Errorf("pagejs: %s: %w", s.name, err)
	}
	return s.assemble(realmCall, 0, a), nil
}

// Chrome builds an expression for the parent-process (browser chrome) console.
func (s Script) Chrome(args any) (string, error) {
	if s.realms&realmChrome == 0 {
		return "", fmt.Errorf("%w: %s in the chrome realm", ErrRealm, s.name)
	}
	a, err := encodeArgs(args)
	if err != nil {
		return "", fmt.Errorf("pagejs: %s: %w", s.name, err)
	}
	return s.assemble(realmChrome, 0, a), nil
}

// assemble writes the fixed wrapper for realm around the embedded sources and the JSON
// arguments. It is the only place where expressions are put together.
func (s Script) assemble(realm realms, innerWindowID int64, args []byte) string {
	var b strings.Builder
	lib, _ := s.lib()
	b.Grow(len(lib) + len(s.src) + len(args) + 1024)
	switch realm {
	case realmCall:
		b.WriteString(callHead)
		b.Write(args)
		b.WriteString(callTail)
		return b.String()
	case realmResident:
		b.WriteString(residentHead)
		if !s.noLib {
			b.WriteString(`const lib = (`)
			b.WriteString(lib)
			b.WriteString(`); `)
		}
		b.WriteString(`const f = (`)
		b.WriteString(s.src)
		b.WriteString(`); `)
		// (args: a resident started, whose body is named)
		body, bodyKeep := residentBody, residentBodyKeep
		if args != nil {
			body, bodyKeep = residentStart, residentStartKeep
		}
		if s.keep != "" {
			b.WriteString(`const keep = (`)
			b.WriteString(s.keep)
			b.WriteString(`)(); `)
			b.WriteString(bodyKeep)
		} else {
			b.WriteString(body)
		}
		b.WriteString(`return JSON.stringify({ok: true, value: await f(win, args, `)
		if s.noLib {
			b.WriteString(`null`)
		} else {
			b.WriteString(`lib(win, env)`)
		}
		b.WriteString(`, env)}); `)
		b.WriteString(catchBody)
		if args != nil {
			b.WriteString(residentCall)
			b.Write(args)
			b.WriteString(residentCallTail)
			return b.String()
		}
		b.WriteString(residentTail)
		return b.String()
	case realmChrome:
		b.WriteString(chromeHead)
		b.WriteString(`return JSON.stringify({ok: true, value: await (`)
		b.WriteString(s.src)
		b.WriteString(`)(`)
		b.Write(args)
		b.WriteString(`, env)}); `)
		b.WriteString(catchTail)
		return b.String()
	case realmIsolated, realmCached:
		s.assembleIsolated(&b, realm == realmCached, innerWindowID, args)
		return b.String()
	default:
		b.WriteString(pageHead)
	}
	if s.noLib {
		b.WriteString(`const lib = null; `)
	} else {
		b.WriteString(`const lib = (`)
		b.WriteString(lib)
		b.WriteString(`)(win, env); `)
	}
	b.WriteString(`return JSON.stringify({ok: true, value: await (`)
	b.WriteString(s.src)
	b.WriteString(`)(win, `)
	b.Write(args)
	b.WriteString(`, lib, env)}); `)
	b.WriteString(catchTail)
	return b.String()
}

// assembleIsolated writes an isolated-realm expression: the wrapper is an async arrow
// taking the library maker and the script, which a strict function written after it
// looks up on the console's sandbox global (cached) or keeps there first (not cached).
// That function's scope holds nothing but its helper, so the functions kept there
// close over no evaluation's values.
func (s Script) assembleIsolated(b *strings.Builder, cached bool, innerWindowID int64, args []byte) {
	id, _ := json.Marshal(innerWindowID)
	b.WriteString(`(async (makeLib, run) => { "use strict"; try { `)
	if cached {
		if s.noLib {
			b.WriteString(`if (!run) { `)
		} else {
			b.WriteString(`if (!makeLib || !run) { `)
		}
		b.WriteString(notKept)
		b.WriteString(`} `)
	}
	b.WriteString(isolatedID)
	b.Write(id)
	b.WriteString(isolatedWin)
	if !s.anyWin {
		b.WriteString(noWinCheck)
	}
	if s.noLib {
		b.WriteString(`const lib = null; `)
	} else {
		b.WriteString(`const lib = makeLib(win, env); `)
	}
	b.WriteString(`return JSON.stringify({ok: true, value: await run(win, `)
	b.Write(args)
	b.WriteString(`, lib, env)}); `)
	b.WriteString(catchBody)
	b.WriteString(` })(...(function () { "use strict"; `)
	// Each entry: got(name) (cached) or own(name, (source)).
	entry := func(kept, src string) {
		n, _ := json.Marshal(kept)
		if cached {
			b.WriteString(`got(`)
			b.Write(n)
		} else {
			b.WriteString(`own(`)
			b.Write(n)
			b.WriteString(`, (`)
			b.WriteString(src)
			b.WriteString(`)`)
		}
		b.WriteString(`)`)
	}
	if cached {
		b.WriteString(isolatedGot)
	} else {
		b.WriteString(isolatedOwn)
	}
	b.WriteString(`return [`)
	if s.noLib {
		b.WriteString(`null`)
	} else {
		src, kept := s.lib()
		entry(kept, src)
	}
	b.WriteString(`, `)
	entry(keptNames[s.name], s.src)
	b.WriteString(`]; })())`)
}

// keptName is the sandbox-global property under which the isolated realm keeps the
// function compiled from src (script name): derived from a hash of the source, so a
// server built from other sources never calls a copy it did not send.
func keptName(name, src string) string {
	h := sha256.Sum256([]byte(src))
	return "fxmcp:" + name + ":" + hex.EncodeToString(h[:12])
}

// libKept is keptName of lib.js with libAct.js, libReadKept of lib.js alone;
// keptNames, of each isolated-realm script by name.
var (
	libKept     = keptName("lib", libFullSrc)
	libReadKept = keptName("libread", libSrc)
	keptNames   = map[string]string{}
)

func init() {
	for _, s := range Scripts() {
		if s.realms&realmIsolated != 0 {
			keptNames[s.name] = keptName(s.name, s.src)
		}
	}
}

// encodeArgs marshals args as one JSON value usable as a JavaScript expression. nil
// becomes {}. A "__proto__" key is refused: in a JavaScript object literal it would set
// the prototype instead of a property.
func encodeArgs(args any) ([]byte, error) {
	if args == nil {
		return []byte("{}"), nil
	}
	a, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(a, []byte(`"__proto__"`)) && hasProtoKey(a) {
		return nil, errors.New(`argument key "__proto__" is not allowed`)
	}
	return a, nil
}

// hasProtoKey reports whether any object in the JSON document has the key __proto__.
func hasProtoKey(doc []byte) bool {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return true // cannot happen for json.Marshal output; refuse rather than guess
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if k == "__proto__" || walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range t {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
