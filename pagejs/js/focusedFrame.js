function focusedFrame(win, args) {
  // Which frame holds the keyboard focus of this document: the browsing
  // context of the focused <iframe>/<frame> (0: the focus is in the document
  // itself). browsingContext is chrome-only, so this runs in the isolated
  // realm; the server descends frame by frame.
  const el = win.document.activeElement;
  if (!el || (el.localName !== "iframe" && el.localName !== "frame")) return {frame: 0};
  const bc = el.browsingContext;
  return {frame: bc ? bc.id : 0};
}
