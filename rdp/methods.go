package rdp

import "fmt"

// Method is one request type this client may send to Firefox, with the
// reason the project needs it. What the server can send is this list, not
// whatever the protocol offers: the client refuses any other type before it
// reaches the socket (encodeRequest), and TestMethodAllowlist compares the
// list with every request the code of rdp and browser builds.
type Method struct {
	Type  string // the packet's "type"
	Actor string // the actor it goes to, as the code names it
	Why   string
}

// Methods is the allowlist. A new request is a new row, with its reason.
var Methods = []Method{
	// Discovery.
	{"getRoot", "root", "the root's global actors (the device, the screenshot actor)"},
	{"getDescription", "device", "Firefox's version and platform, checked against what this client speaks"},
	{"listTabs", "root", "list_tabs and the choice of a tab"},
	{"getTab", "root", "one tab's descriptor by browserId, the tab's stable identity"},
	{"getTarget", "tab descriptor", "the tab's target, for its first console before the watcher follows it"},
	{"listProcesses", "root", "the parent process, whose privileged console runs tab management scripts"},
	{"getProcess", "root", "the parent process descriptor (id 0)"},
	// Following a tab.
	{"getWatcher", "tab descriptor", "the watcher, which follows navigations and frames (rdp-notes §2)"},
	{"watchTargets", "watcher", "every document of the tab, top and frames, with its console"},
	{"unwatchTargets", "watcher", "stop following a tab the server lets go"},
	{"watchResources", "watcher", "console, error and network entries, dialogs and document events"},
	{"unwatchResources", "watcher", "stop buffering a tab the server lets go"},
	// Navigation.
	{"navigateTo", "target", "navigate to a URL in the selected tab (the privileged tabNavigate script is the fallback)"},
	// Page scripts.
	{"evaluateJSAsync", "console", "every page script (pagejs), in the page or the isolated realm"},
	{"substring", "long string", "the rest of a result of 10,000 UTF-16 units or more"},
	{"release", "object", "drop an object actor the server kept (a resident function)"},
	// Network details.
	{"getRequestHeaders", "netEvent", "network_request's request headers"},
	{"getResponseHeaders", "netEvent", "network_request's response headers"},
	{"getResponseContent", "netEvent", "network_request's bounded body prefix"},
	// Screenshots.
	{"prepareCapture", "screenshotContent", "the document's pixel ratio, zoom and rect for a capture"},
	{"capture", "screenshot", "the PNG Firefox draws, without the camera flash"},
	// The upload sink (pagejs/js/uploadSink.js), an actor the server's own
	// privileged script registers: uploads as binary packets, not scripts.
	{"begin", "upload sink", "open an upload to one document's window"},
	{"chunk", "upload sink", "one piece of a file, as the packet's base64 data"},
	{"deliver", "upload sink", "hand the assembled files to the waiting page script"},
	{"end", "upload sink", "forget an upload (done or abandoned)"},
}

var allowed = func() map[string]bool {
	m := make(map[string]bool, len(Methods))
	for _, x := range Methods {
		if m[x.Type] {
			panic("rdp: method " + x.Type + " listed twice")
		}
		m[x.Type] = true
	}
	return m
}()

// ErrMethodNotAllowed is wrapped by the error for a request type that is
// not in Methods.
var ErrMethodNotAllowed = fmt.Errorf("rdp: request type not in the allowlist (rdp.Methods)")

// checkMethod refuses a request type the allowlist lacks.
func checkMethod(to, typ string) error {
	if !allowed[typ] {
		return fmt.Errorf("%w: %q to %s", ErrMethodNotAllowed, typ, to)
	}
	return nil
}
