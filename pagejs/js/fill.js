async function fill(win, args, lib) {
  // Replaces the value of a text control, a select or a contenteditable element.
  // Inputs and textareas: the native value setter of their prototype (so a framework's
  // value tracker sees the change), then bubbling input and change. Selects: the option
  // whose value, else whose label, equals args.value. Checkboxes, radios, buttons and file
  // inputs are refused (click toggles; upload_files assigns files).
  // submit: true → form.requestSubmit() afterwards. Password values are never returned.
  const el = lib.target(args);
  await lib.enabledWhenReachable(el);
  const value = typeof args.value === "string" ? args.value : lib.fail("invalid_argument", "value must be a string");
  const kind = lib.textEntry(el);
  const tag = el.localName;
  let trusted = lib.isolated;
  let secret = false;
  let selectPick = null;
  const html = el.namespaceURI === "http://www.w3.org/1999/xhtml";
  const type = html && tag === "input" ? String(el.type).toLowerCase() : "";
  // A custom select (a combobox that only offers a list, like <sl-select>'s read-only
  // display input) has no value to type: its options must be clicked.
  if (tag !== "select" && lib.collapse(el.getAttribute("role")).toLowerCase() === "combobox" && (kind === "" || el.readOnly)) {
    lib.fail("unsupported_element", "this is a custom select (a combobox offering a list, not a text field): click it to open its options, take a snapshot, then click the option");
  }
  if (kind === "single" || kind === "multi" ||
      (html && tag === "input" && !/^(checkbox|radio|file|submit|reset|button|image|hidden)$/.test(type))) {
    if (el.readOnly) lib.fail("element_not_interactable", "the element is read-only");
    secret = type === "password";
    if (args.unwatched !== true) lib.watchTimers(); // (for the settle that follows)
    el.focus();
    lib.setValue(el, value);
    lib.fire(el, "input", {inputType: "insertReplacementText", data: value});
    lib.fire(el, "change");
  } else if (html && tag === "select") {
    const opts = el.options;
    let pick = null;
    for (let i = 0; i < opts.length && !pick; i++) if (opts[i].value === value) pick = opts[i];
    const want = lib.collapse(value);
    for (let i = 0; i < opts.length && !pick; i++) if (lib.collapse(opts[i].label || opts[i].textContent) === want) pick = opts[i];
    const lower = want.toLowerCase();
    for (let i = 0; i < opts.length && !pick; i++) if (lib.collapse(opts[i].label || opts[i].textContent).toLowerCase() === lower) pick = opts[i];
    if (!pick) lib.fail("option_not_found", "no option has that value or label");
    if (pick.disabled) lib.fail("element_not_interactable", "that option is disabled");
    el.focus();
    lib.setValue(el, pick.value);
    if (el.selectedOptions.length === 0 || el.selectedOptions[0] !== pick) pick.selected = true;
    lib.fire(el, "input");
    lib.fire(el, "change");
    selectPick = pick;
  } else if (kind === "editable") {
    if (args.unwatched !== true) lib.watchTimers(); // (for the settle that follows)
    lib.focus(el);
    const sel = win.getSelection();
    sel.selectAllChildren(el);
    const tip = lib.tip();
    if (tip) {
      // Trusted, as a user with an input method would: the selection is replaced by
      // committed text, each newline is a real Enter keypress.
      const lines = value.replace(/\r\n?/g, "\n").split("\n");
      if (value === "") {
        const bs = new win.KeyboardEvent("", {key: "Backspace", code: "Backspace", keyCode: 8});
        tip.keydown(bs);
        tip.keyup(bs);
      }
      for (let i = 0; i < lines.length; i++) {
        if (i > 0) {
          const enter = new win.KeyboardEvent("", {key: "Enter", code: "Enter", keyCode: 13});
          tip.keydown(enter);
          tip.keyup(enter);
        }
        if (lines[i] !== "") tip.commitCompositionWith(lines[i]);
      }
    } else {
      trusted = false;
      const ok = value === "" ? doc().execCommand("delete", false) : doc().execCommand("insertText", false, value);
      if (!ok) {
        el.textContent = value;
        lib.fire(el, "input", {inputType: "insertText", data: value});
      }
    }
  } else {
    lib.fail("unsupported_element", "fill works on text inputs, textareas, selects and contenteditable elements; use click for checkboxes, radios and buttons");
  }
  let submitted = false;
  if (args.submit) submitted = requestSubmit(el);
  const extra = {submitted};
  if (!secret) {
    const v = kind === "editable" ? lib.collapse(el.textContent) : String(el.value);
    extra.value = lib.cap(v, lib.VALUE_MAX);
  }
  if (selectPick) {
    // What the select shows now, and whether it is still the option picked (a change
    // handler may have picked another).
    const shown = el.selectedOptions.length > 0 ? el.selectedOptions[0] : null;
    extra.shown = shown ? lib.cap(lib.collapse(shown.label || shown.textContent), lib.VALUE_MAX) : "";
    extra.kept = shown === selectPick;
  }
  return lib.result(trusted, extra);

  function doc() {
    return win.document;
  }

  function requestSubmit(node) {
    const form = node.form || (typeof node.closest === "function" ? node.closest("form") : null);
    if (!form) return false;
    form.requestSubmit();
    return true;
  }
}
