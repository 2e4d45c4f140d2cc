package browser

import (
	"context"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// focusTimeout bounds making a window active before an action.
const focusTimeout = 2 * time.Second

// activate makes the selected tab's window the one Firefox treats as active
// before an action that moves focus (click, fill, type_text, press_key), as it
// is for a person working in that window: otherwise an unfocused or headless
// Firefox fires no focus, blur, focusin or focusout, and on-blur validation
// never runs. It uses Firefox's focus-manager test mode, on the default
// preference branch (never written to prefs.js), claimed by this connection
// and turned off by Firefox itself when the connection closes (see
// pagejs/js/focusWindow.js and SECURITY.md). Best effort: a failure is logged
// and the action goes ahead as before.
func (s *Session) activate(ctx context.Context, pg page) {
	cctx, cancel := context.WithTimeout(ctx, focusTimeout)
	defer cancel()
	console, err := pg.c.ParentProcessConsole(cctx)
	if err != nil {
		s.log.Debug("focus: no parent-process console", "error", err)
		return
	}
	var r pagejs.FocusWindowResult
	if err := s.chrome(cctx, pg, pagejs.FocusWindow, pagejs.FocusWindowArgs{BrowserID: pg.sel.tab.BrowserID, Console: console}, &r); err != nil {
		s.log.Debug("focus: window not activated", "error", err)
		return
	}
	if !r.Active {
		s.log.Debug("focus: window not active", "mode", r.Mode)
	}
}
