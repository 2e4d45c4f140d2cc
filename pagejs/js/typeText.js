async function typeText(win, args, lib) {
  // Types one chunk of text at the caret, character by character; the server sends the
  // chunks (and can stop between them). args.firstChunk puts the caret at the end first.
  // Isolated realm: nsITextInputProcessor (trusted keydown/keypress/input/keyup, real
  // insertion). Page realm: synthetic keydown, native setter append, input, keyup.
  // Newlines are Enter in textareas and editors and are dropped in single-line inputs
  // (which cannot hold them); \r is ignored.
  const el = lib.target(args);
  await lib.enabledWhenReachable(el);
  const text = typeof args.text === "string" ? args.text : lib.fail("invalid_argument", "text must be a string");
  const kind = lib.textEntry(el);
  if (!kind) lib.fail("unsupported_element", "type_text works on text inputs, textareas and contenteditable elements");
  if (kind !== "editable" && el.readOnly) lib.fail("element_not_interactable", "the element is read-only");
  if (args.unwatched !== true) lib.watchTimers(); // (for the settle that follows)
  const doc = win.document;
  const secret = kind === "single" && String(el.type).toLowerCase() === "password";
  const tip = lib.tip();
  // A later chunk (typing with a delay: one character each; or past 200 characters)
  // goes on where the page put the focus while typing, when that is a field of the same
  // kind (a code split into one input per digit, a date typed segment by segment, both
  // moving on when one is full), as a person's typing does, and no password is either;
  // anywhere else, back into the element. (Trusted typing only: the page realm's
  // synthetic keys go to the element.)
  const active = args.firstChunk || !tip || secret ? null : lib.deepActive();
  if (!(active && active !== el && lib.textEntry(active) === kind && String(active.type).toLowerCase() !== "password")) {
    lib.focus(el);
    if (args.firstChunk) lib.caretToEnd(el);
  }
  let typed = 0;
  for (const ch of text) {
    if (ch === "\r" || (ch === "\n" && kind === "single")) continue;
    // The page gets a turn between two keys, as between a person's: what a key's handler
    // left to a microtask or a task (React's render of the new state, a field that moves
    // the focus on when it is full, as a date segment does) has run before the next key.
    // (A task, not only the microtasks: a handler may defer with setTimeout. It costs
    // 0.3–0.6 ms a key: e2e BenchmarkActionsMCP/type100, 100 keys, 97–126 ms, 66–73 without.
    // Trusted typing only: the page realm's timers are the page's, throttled in a
    // background tab.)
    if (typed > 0 && tip) await lib.wait(0);
    const key = ch === "\n" ? "Enter" : ch;
    if (tip) {
      const init = key === "Enter" ? {key, code: "Enter", keyCode: 13} : {key};
      const ev = new win.KeyboardEvent("", init);
      tip.keydown(ev);
      tip.keyup(ev);
    } else {
      synthetic(key);
    }
    typed++;
  }
  const extra = {typed};
  if (!secret) {
    const v = kind === "editable" ? lib.collapse(el.textContent) : String(el.value);
    extra.value = lib.cap(v, lib.VALUE_MAX);
  }
  return lib.result(!!tip, extra);

  function synthetic(key) {
    const init = {key, bubbles: true, cancelable: true, composed: true, view: win};
    if (!el.dispatchEvent(new win.KeyboardEvent("keydown", init))) return;
    const data = key === "Enter" ? "\n" : key;
    if (kind === "editable") {
      if (!doc.execCommand("insertText", false, data)) {
        el.append(data);
        lib.fire(el, "input", {inputType: "insertText", data});
      }
    } else {
      const v = String(el.value);
      let start = v.length;
      let end = v.length;
      try {
        if (typeof el.selectionStart === "number") {
          start = el.selectionStart;
          end = el.selectionEnd;
        }
      } catch (e) {
        // no selection API (email, number): append
      }
      lib.setValue(el, v.slice(0, start) + data + v.slice(end));
      try {
        el.setSelectionRange(start + data.length, start + data.length);
      } catch (e) {
        // no selection API
      }
      lib.fire(el, "input", {inputType: key === "Enter" ? "insertLineBreak" : "insertText", data});
    }
    el.dispatchEvent(new win.KeyboardEvent("keyup", init));
  }
}
