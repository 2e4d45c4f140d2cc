async function selectOption(win, args, lib) {
  // Selects the options of a <select> named in args.options (each by value, else by
  // visible label: exact, then case-insensitive), exactly those for a multiple select,
  // then fires input and change. An unknown name is not an error here: the result lists
  // what is missing and (bounded) what the select offers, so the server can say so.
  const MAX_LIST = 30;
  const el = lib.target(args);
  await lib.enabledWhenReachable(el);
  if (el.namespaceURI !== "http://www.w3.org/1999/xhtml" || el.localName !== "select") {
    lib.fail("unsupported_element", "select_option works on <select> elements; for custom drop-downs click the control, then the option");
  }
  const wanted = Array.isArray(args.options) ? args.options : lib.fail("invalid_argument", "options must be an array");
  const opts = el.options;
  const labelOf = o => lib.collapse(o.label || o.textContent);
  const picks = [];
  const missing = [];
  for (const w of wanted) {
    if (typeof w !== "string") lib.fail("invalid_argument", "options must be strings");
    const pick = find(w);
    if (!pick) missing.push(w);
    else if (!picks.includes(pick)) picks.push(pick);
  }
  if (missing.length > 0) {
    const available = [];
    for (let i = 0; i < opts.length && available.length < MAX_LIST; i++) {
      available.push({value: lib.cap(String(opts[i].value), lib.VALUE_MAX), label: lib.cap(labelOf(opts[i]), lib.VALUE_MAX), disabled: !!opts[i].disabled});
    }
    return lib.result(lib.isolated, {missing, available, total: opts.length, multiple: !!el.multiple});
  }
  if (picks.length > 1 && !el.multiple) lib.fail("invalid_argument", "this select takes one option, not " + picks.length);
  for (const p of picks) if (p.disabled) lib.fail("element_not_interactable", "option " + JSON.stringify(lib.cap(labelOf(p), 60)) + " is disabled");
  el.focus();
  if (el.multiple) {
    for (let i = 0; i < opts.length; i++) opts[i].selected = picks.includes(opts[i]);
  } else {
    lib.setValue(el, picks[0].value);
    if (el.selectedOptions.length === 0 || el.selectedOptions[0] !== picks[0]) picks[0].selected = true;
  }
  lib.fire(el, "input");
  lib.fire(el, "change");
  const now = el.selectedOptions;
  const selected = [];
  for (let i = 0; i < now.length && selected.length < MAX_LIST; i++) {
    selected.push({value: lib.cap(String(now[i].value), lib.VALUE_MAX), label: lib.cap(labelOf(now[i]), lib.VALUE_MAX)});
  }
  const kept = now.length === picks.length && picks.every(p => p.selected);
  return lib.result(lib.isolated, {selected, selectedTotal: now.length, kept, multiple: !!el.multiple});

  function find(w) {
    for (let i = 0; i < opts.length; i++) if (opts[i].value === w) return opts[i];
    const want = lib.collapse(w);
    for (let i = 0; i < opts.length; i++) if (labelOf(opts[i]) === want) return opts[i];
    const lower = want.toLowerCase();
    for (let i = 0; i < opts.length; i++) if (labelOf(opts[i]).toLowerCase() === lower) return opts[i];
    return null;
  }
}
