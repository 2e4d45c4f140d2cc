function snapshot(win, args, lib) {
  // Visible actionable elements in DOM order (open shadow roots after their host),
  // hidden file inputs included; optionally the page's visible text.
  const maxElements = Number.isInteger(args.maxElements) && args.maxElements >= 0 ? args.maxElements : 500;
  const maxText = Number.isInteger(args.maxTextChars) && args.maxTextChars >= 0 ? args.maxTextChars : 20000;
  const doc = win.document;
  const all = lib.collect();
  const n = Math.min(all.length, maxElements);
  const elements = new Array(n);
  for (let i = 0; i < n; i++) elements[i] = lib.entry(all[i]);
  const out = {
    title: lib.collapse(doc.title),
    url: String(win.location.href),
    elements,
    total: all.length,
    truncatedElements: all.length - n,
  };
  if (args.includeAllText) {
    const body = doc.body || doc.documentElement;
    const text = body ? lib.collapse(body.innerText) : "";
    out.textTotal = text.length;
    out.text = maxText === 0 ? "" : lib.cap(text, maxText);
  } else {
    out.textTotal = 0;
  }
  return out;
}
