async function pressKey(win, args, lib) {
  // Presses one key, optionally with modifiers, on args.sel (verified against args.fp)
  // or on the focused element. args.key is a name from KEYS or one printable character;
  // args.mods a subset of MODS (the server parses the agent's text; this table is the
  // second check, and the only source of event fields). Isolated realm:
  // nsITextInputProcessor, modifiers pressed and released around the key, so every
  // default action is native (Tab and Shift+Tab move focus, Enter submits, Space clicks,
  // PageDown scrolls, a character is typed into a field). Page realm: synthetic events
  // plus approximations of the common default actions.
  const KEYS = {Enter: ["Enter", 13], Tab: ["Tab", 9], Escape: ["Escape", 27], Space: ["Space", 32],
    ArrowUp: ["ArrowUp", 38], ArrowDown: ["ArrowDown", 40], ArrowLeft: ["ArrowLeft", 37], ArrowRight: ["ArrowRight", 39],
    Backspace: ["Backspace", 8], Delete: ["Delete", 46], Insert: ["Insert", 45], Home: ["Home", 36], End: ["End", 35],
    PageUp: ["PageUp", 33], PageDown: ["PageDown", 34]};
  for (let i = 1; i <= 12; i++) KEYS["F" + i] = ["F" + i, 111 + i];
  const MODS = {Control: ["ControlLeft", 17, "ctrlKey"], Alt: ["AltLeft", 18, "altKey"],
    Shift: ["ShiftLeft", 16, "shiftKey"], Meta: ["MetaLeft", 224, "metaKey"]};
  const name = args.key;
  if (typeof name !== "string") lib.fail("invalid_argument", "unsupported key");
  const named = Object.prototype.hasOwnProperty.call(KEYS, name);
  if (!named && [...name].length !== 1) lib.fail("invalid_argument", "unsupported key");
  const mods = Array.isArray(args.mods) ? args.mods : [];
  for (const m of mods) {
    if (typeof m !== "string" || !Object.prototype.hasOwnProperty.call(MODS, m)) lib.fail("invalid_argument", "unsupported modifier");
  }
  const has = m => mods.includes(m);
  const key = name === "Space" ? " " : name;
  const code = named ? KEYS[name][0] : charCode(name);
  const keyCode = named ? KEYS[name][1] : charKeyCode(name);
  const doc = win.document;
  if (args.sel !== undefined && args.sel !== null) {
    const el = lib.target(args);
    await lib.enabledWhenReachable(el);
    lib.focus(el);
  }
  const tip = lib.tip();
  if (tip) {
    const at = lib.deepActive();
    // A key typed into a field is a text entry: the settle after it holds for the
    // debounce its timers may be (settle.js args.entry). A key on anything else (Enter or
    // Space on a button, an arrow on a menu button, Escape) is judged as a click is:
    // whether it changed the page while it was dispatched (changed; moving the focus,
    // as Tab does, is a change), and, when it did not, the timers it made the page set
    // (a menu shown on a timer).
    const text = at !== null && lib.textEntry(at);
    lib.watchTimers();
    const seen = text ? null : lib.changes(at || doc.body || doc.documentElement);
    let changed = true;
    const down = [];
    try {
      for (const m of mods) {
        const ev = new win.KeyboardEvent("", {key: m, code: MODS[m][0], keyCode: MODS[m][1]});
        tip.keydown(ev);
        down.push(ev);
      }
      const ev = new win.KeyboardEvent("", {key, code, keyCode});
      tip.keydown(ev);
      tip.keyup(ev);
    } finally {
      while (down.length) tip.keyup(down.pop());
      if (seen !== null) changed = seen.changed() || lib.deepActive() !== at;
    }
    return lib.result(true, seen === null ? {focused: lib.focusedDescription()} : {focused: lib.focusedDescription(), changed});
  }
  const t = lib.deepActive() || doc.body;
  const init = {key, code, keyCode, bubbles: true, cancelable: true, composed: true, view: win};
  for (const m of mods) init[MODS[m][2]] = true;
  const go = t.dispatchEvent(new win.KeyboardEvent("keydown", init));
  if (go) defaultAction(t);
  (doc.activeElement || doc.body).dispatchEvent(new win.KeyboardEvent("keyup", init));
  return lib.result(false, {focused: lib.focusedDescription()});

  function charCode(ch) {
    if (/^[a-z]$/i.test(ch)) return "Key" + ch.toUpperCase();
    if (/^[0-9]$/.test(ch)) return "Digit" + ch;
    return "";
  }

  function charKeyCode(ch) {
    if (/^[a-z0-9]$/i.test(ch)) return ch.toUpperCase().charCodeAt(0);
    return 0;
  }

  function defaultAction(el) {
    const kind = lib.textEntry(el);
    const tag = el.localName;
    const plain = !has("Control") && !has("Alt") && !has("Meta");
    if (!named || name === "Space") {
      if (plain && kind) edit(key);
      else if (plain && name === "Space" && isButton(el)) el.click();
      return;
    }
    if (!plain) return;
    switch (name) {
      case "Tab": {
        const next = nextFocusable(el, has("Shift") ? -1 : 1);
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
      case "PageUp":
      case "PageDown":
        if (kind !== "multi") win.scrollBy(0, (name === "PageDown" ? 1 : -1) * win.innerHeight * 0.9);
        return;
      case "Home":
      case "End":
      case "ArrowLeft":
      case "ArrowRight":
        if (kind === "single" || kind === "multi") move();
        return;
    }
  }

  function isButton(el) {
    const tag = el.localName;
    return tag === "button" || (tag === "input" && /^(submit|button|reset|image|checkbox|radio)$/.test(String(el.type)));
  }

  function edit(data) {
    const el = t;
    if (lib.textEntry(el) === "editable") {
      doc.execCommand(data ? "insertText" : name === "Backspace" ? "delete" : "forwardDelete", false, data);
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
      if (name === "Backspace" && s > 0) s--;
      else if (name === "Delete" && e < v.length) e++;
    }
    lib.setValue(el, v.slice(0, s) + data + v.slice(e));
    el.setSelectionRange(s + data.length, s + data.length);
    const inputType = data === "\n" ? "insertLineBreak" : data ? "insertText" : name === "Backspace" ? "deleteContentBackward" : "deleteContentForward";
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
    const to = name === "Home" ? 0 : name === "End" ? n : name === "ArrowLeft" ? Math.max(0, p - 1) : Math.min(n, p + 1);
    el.setSelectionRange(to, to);
  }

  // nextFocusable approximates sequential focus navigation (dir 1 forwards, -1
  // backwards): positive tabindex first in ascending order, then tabindex 0 and
  // natively focusable elements in DOM order.
  function nextFocusable(from, dir) {
    const sel = 'a[href],area[href],button,input:not([type="hidden" i]),select,textarea,summary,iframe,[tabindex],[contenteditable]:not([contenteditable="false" i])';
    const list = doc.querySelectorAll(sel);
    const order = [];
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      const ti = e.tabIndex;
      if (ti < 0 || lib.disabled(e) || !lib.visible(e, true)) continue; // (a focus trap's sentinels too)
      order.push({e, ti, i});
    }
    order.sort((a, b) => {
      const ka = a.ti > 0 ? a.ti : Infinity;
      const kb = b.ti > 0 ? b.ti : Infinity;
      return ka !== kb ? ka - kb : a.i - b.i;
    });
    if (order.length === 0) return null;
    const at = order.findIndex(o => o.e === from);
    if (at < 0) return dir > 0 ? order[0].e : order[order.length - 1].e;
    return order[(at + dir + order.length) % order.length].e;
  }
}
