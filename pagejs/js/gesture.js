function gesture(win, args, lib) {
  // Reads, at the moment of a gesture and before it runs, what the lock on consequential
  // actions looks at (package confirm's vocabulary; this script reads, Go decides): the
  // words of the control the gesture activates, whether it submits a form, and that
  // form's fields, frames of another origin, target, method, files and text. args.mode:
  // "click" (args.sel), "key" (args.key Enter or Space, on args.sel or the focused
  // element) or "submit" (fill's submit, args.sel). Nothing here changes the page.
  const doc = win.document;
  const TEXT_MAX = 300, FIELDS_MAX = 60, NEAR_MAX = 2000;
  const str = v => (typeof v === "string" ? v : "");
  const at = args.sel !== undefined && args.sel !== null ? lib.target(args) : lib.deepActive();
  if (!at || at === doc.body || at === doc.documentElement) return {text: "", submits: false};
  const CONTROL = "button, a[href], input[type=submit], input[type=button], input[type=image], input[type=reset], summary, [role=button], [role=link], [role=menuitem]";
  const control = at.closest ? at.closest(CONTROL) || at : at;
  const inField = lib.textEntry(at) !== "" || at.localName === "select";
  // Space in a field types a space; Enter in a textarea or an editor breaks a line.
  if (args.mode === "key" && inField && (args.key !== "Enter" || lib.textEntry(at) !== "single")) return {text: "", submits: false};
  const form = formOf(at);
  const submitKinds = c => (c.localName === "button" && str(c.type).toLowerCase() === "submit") ||
    (c.localName === "input" && (c.type === "submit" || c.type === "image"));
  let submits = false, shown = control;
  if (args.mode === "submit" || (args.mode === "key" && inField)) {
    // Fill's submit and Enter in a field submit the field's form: its words are those
    // of its submit button (the one implicit submission presses).
    submits = !!form;
    shown = (form && defaultButton(form)) || null;
  } else {
    submits = !!form && submitKinds(control);
  }
  // kind: what the words are of — a button-like control (any label), a link, or a click
  // target without a control's role (a card), whose words may describe its content.
  const kind = shown !== control || submitKinds(control) ? "button" :
    control.matches && control.matches("a[href], [role=link]") ? "link" :
    control.matches && control.matches(CONTROL) ? "button" :
    ["input", "select", "textarea"].includes(control.localName) ? "button" : "target";
  const out = {text: shown ? label(shown) : "", submits, kind};
  if (!form) return out;
  const c = submits && shown && submitKinds(shown) ? shown : null;
  out.action = abs(c && c.hasAttribute("formaction") ? c.formAction : form.action);
  out.method = str(c && c.hasAttribute("formmethod") ? c.formMethod : form.method).toLowerCase();
  out.fields = [];
  out.files = [];
  for (const f of Array.from(form.elements).slice(0, FIELDS_MAX)) {
    if (!["input", "select", "textarea"].includes(f.localName)) continue;
    const type = str(f.type).toLowerCase();
    const ac = str(f.getAttribute("autocomplete")).trim().toLowerCase().split(/\s+/).filter(Boolean).join(",");
    let d = "type=" + type;
    if (ac) d += " autocomplete=" + ac;
    if (f.name) d += " name=" + lib.cap(str(f.name).replace(/\s+/g, "_"), 80);
    if (f.id) d += " id=" + lib.cap(str(f.id).replace(/\s+/g, "_"), 80);
    if (type === "file") {
      const n = f.files ? f.files.length : 0;
      d += " files=" + n;
      for (let i = 0; i < n && out.files.length < 16; i++) out.files.push(lib.cap(str(f.files[i].name), 200));
    }
    out.fields.push(d);
  }
  out.frames = [];
  const here = win.location.origin;
  for (const fr of Array.from(form.querySelectorAll("iframe, frame")).slice(0, 20)) {
    let origin = "";
    try { origin = new win.URL(str(fr.src) || "about:blank", doc.baseURI).origin; } catch (e) { continue; }
    if (origin === here || origin === "null") continue;
    out.frames.push(lib.cap(["title=" + str(fr.title), "name=" + str(fr.name), "allow=" + str(fr.getAttribute("allow")), "src=" + origin].join(" "), 400));
  }
  out.near = lib.cap(lib.collapse(str(form.innerText || form.textContent)), NEAR_MAX);
  return out;

  function formOf(el) {
    if (el.form) return el.form;
    return el.closest ? el.closest("form") : null;
  }
  function defaultButton(f) {
    for (const b of Array.from(f.elements)) if (submitKinds(b)) return b;
    return null;
  }
  function label(el) {
    const parts = [el.getAttribute("aria-label"), el.localName === "input" ? el.value : (el.innerText || el.textContent),
      el.getAttribute("title")];
    if (el.localName === "input" && el.type === "image") parts.push(el.getAttribute("alt"));
    return lib.cap(lib.collapse(parts.map(str).filter(Boolean).join(" ")), TEXT_MAX);
  }
  function abs(u) {
    try { return new win.URL(str(u), doc.baseURI).href; } catch (e) { return ""; }
  }
}
