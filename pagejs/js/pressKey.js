function pressKey(win, args, lib) {
  // Presses one allowlisted key on args.sel (verified against args.fp) or on the focused
  // element. Isolated realm: nsITextInputProcessor, so Tab moves focus natively and Enter
  // submits natively. Page realm: synthetic events plus approximations of the default
  // action (Tab: next focusable element; Enter: requestSubmit on a form control, click on
  // a button or link; Backspace/Delete/arrows/Home/End: edit or move the caret).
  const KEYS = {Enter: 13, Tab: 9, Escape: 27, ArrowUp: 38, ArrowDown: 40, ArrowLeft: 37, ArrowRight: 39,
    Backspace: 8, Delete: 46, Home: 36, End: 35};
  const key = args.key;
  if (typeof key !== "string" || !Object.prototype.hasOwnProperty.call(KEYS, key)) {
    lib.fail("invalid_argument", "unsupported key");
  }
  const doc = win.document;
  if (args.sel !== undefined && args.sel !== null) {
    const el = lib.target(args);
    lib.requireEnabled(el);
    lib.focus(el);
  }
  const tip = lib.tip();
  if (tip) {
    const ev = new win.KeyboardEvent("", {key, code: key, keyCode: KEYS[key]});
    tip.keydown(ev);
    tip.keyup(ev);
    return lib.result(true, {focused: lib.focusedDescription()});
  }
  const t = lib.deepActive() || doc.body;
  const init = {key, code: key, bubbles: true, cancelable: true, composed: true, view: win};
  const go = t.dispatchEvent(new win.KeyboardEvent("keydown", init));
  if (go) defaultAction(t);
  (doc.activeElement || doc.body).dispatchEvent(new win.KeyboardEvent("keyup", init));
  return lib.result(false, {focused: lib.focusedDescription()});

  function defaultAction(el) {
    const kind = lib.textEntry(el);
    const tag = el.localName;
    switch (key) {
      case "Tab": {
        const next = nextFocusable(el);
        if (next) next.focus();
        return;
      }
      case "Enter":
        if (kind === "single" && el.form) {
          el.form.requestSubmit();
        } else if (kind === "multi" || kind === "editable") {
          edit("\n");
        } else if (tag === "button" || (tag === "a" && el.hasAttribute("href")) || (tag === "input" && /^(submit|button|reset|image)$/.test(String(el.type)))) {
          el.click();
        }
        return;
      case "Backspace":
      case "Delete":
        if (kind) edit("");
        return;
      case "Home":
      case "End":
      case "ArrowLeft":
      case "ArrowRight":
        if (kind === "single" || kind === "multi") move();
        return;
    }
  }

  function edit(data) {
    const el = t;
    if (lib.textEntry(el) === "editable") {
      doc.execCommand(data ? "insertText" : key === "Backspace" ? "delete" : "forwardDelete", false, data);
      return;
    }
    const v = String(el.value);
    let s = el.selectionStart;
    let e = el.selectionEnd;
    if (typeof s !== "number") {
      s = v.length;
      e = v.length;
    }
    if (!data && s === e) {
      if (key === "Backspace" && s > 0) s--;
      else if (key === "Delete" && e < v.length) e++;
    }
    lib.setValue(el, v.slice(0, s) + data + v.slice(e));
    el.setSelectionRange(s + data.length, s + data.length);
    const inputType = data ? "insertLineBreak" : key === "Backspace" ? "deleteContentBackward" : "deleteContentForward";
    lib.fire(el, "input", {inputType, data: data || null});
  }

  function move() {
    const el = t;
    let p;
    try {
      p = el.selectionStart;
    } catch (e) {
      return;
    }
    if (typeof p !== "number") return;
    const n = String(el.value).length;
    const to = key === "Home" ? 0 : key === "End" ? n : key === "ArrowLeft" ? Math.max(0, p - 1) : Math.min(n, p + 1);
    el.setSelectionRange(to, to);
  }

  // nextFocusable approximates sequential focus navigation: positive tabindex first in
  // ascending order, then tabindex 0 and natively focusable elements in DOM order.
  function nextFocusable(from) {
    const sel = 'a[href],area[href],button,input:not([type="hidden" i]),select,textarea,summary,iframe,[tabindex],[contenteditable]:not([contenteditable="false" i])';
    const list = doc.querySelectorAll(sel);
    const order = [];
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      const ti = e.tabIndex;
      if (ti < 0 || lib.disabled(e) || !lib.visible(e)) continue;
      order.push({e, ti, i});
    }
    order.sort((a, b) => {
      const ka = a.ti > 0 ? a.ti : Infinity;
      const kb = b.ti > 0 ? b.ti : Infinity;
      return ka !== kb ? ka - kb : a.i - b.i;
    });
    if (order.length === 0) return null;
    const at = order.findIndex(o => o.e === from);
    return order[(at + 1) % order.length].e;
  }
}
