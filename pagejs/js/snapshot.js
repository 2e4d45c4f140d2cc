async function snapshot(win, args, lib, env) {
  // Visible actionable elements in DOM order (open shadow roots after their host),
  // hidden file inputs included; optionally the page's visible text. Paging: the
  // elements from args.offset on (in document order, after the filter). args.query
  // keeps the elements whose role, tag, accessible name, value or link target contains
  // it, ignoring case; total counts the matches, all the elements before the filter.
  // A resident (env.keep, js/snapshotKeep.js) answers {same: seq} when the result it
  // issued as seq (args.have) is still what this walk would return, and otherwise
  // sends only the rows that differ from it ({base, runs}: see SnapshotResult.Base);
  // the arguments (offset and query included) are part of what "the same" means.
  const keep = env && env.keep;
  if (keep && keep.begin(win, args)) return {same: keep.seq()};
  const maxElements = Number.isInteger(args.maxElements) && args.maxElements >= 0 ? args.maxElements : 500;
  const maxText = Number.isInteger(args.maxTextChars) && args.maxTextChars >= 0 ? args.maxTextChars : 20000;
  const offset = Number.isInteger(args.offset) && args.offset >= 0 ? args.offset : 0;
  const query = typeof args.query === "string" ? args.query.toLowerCase() : "";
  const doc = win.document;
  const all = lib.collect();
  // Only the elements of the page asked for are described (entry is the costly part),
  // unless a filter needs every element's fields to count the matches.
  const describe = (el) => keep ? keep.entry(el, lib) : lib.entry(el, true);
  let entries = null, picked = null;
  let total = all.length;
  if (query) {
    entries = [];
    picked = [];
    total = 0;
    for (let i = 0; i < all.length; i++) {
      const e = describe(all[i]);
      if (!matches(e)) continue;
      if (total >= offset && entries.length < maxElements) {
        entries.push(e);
        picked.push(all[i]);
      }
      total++;
    }
  }
  const n = entries ? entries.length : Math.max(0, Math.min(all.length - offset, maxElements));
  // Compact rows, because every byte of the result crosses RDP as a long string
  // (≈0.2 ms per KB measured): [tag, role, type, name, fh, k, rest, extra], where the
  // selector (segments joined by "\n", which CSS.escape never leaves in a selector) is
  // the first k UTF-16 units of the previous row's selector followed by rest, and extra
  // holds the remaining fields, or 0 (lib.entry's rows form).
  const rows = [];
  let prev = "";
  for (let i = 0; i < n; i++) {
    const el = entries ? picked[i] : all[offset + i];
    const e = entries ? entries[i] : describe(el);
    if (keep && keep.reused(el, e)) continue;
    const sel = e.sel.length === 1 ? e.sel[0] : e.sel.join("\n");
    const m = Math.min(sel.length, prev.length);
    let k = 0;
    while (k < m && sel.charCodeAt(k) === prev.charCodeAt(k)) k++;
    if (k > 0) {
      const c = sel.charCodeAt(k - 1);
      if (c >= 0xd800 && c <= 0xdbff) k--; // never split a surrogate pair
    }
    prev = sel;
    rows.push([e.tag, e.role || "", e.type || "", e.name || "", e.fh || "", k, sel.slice(k), e.x]);
  }
  const out = {
    title: lib.collapse(doc.title),
    url: String(win.location.href),
    total, // before rows: the server sizes its element table by it
    all: all.length,
    truncatedElements: total - n,
    rows,
  };
  if (keep) keep.done(out);
  if (args.includeAllText) {
    const body = doc.body || doc.documentElement;
    const text = body ? lib.collapse(body.innerText) : "";
    out.textTotal = text.length;
    out.text = maxText === 0 ? "" : lib.cap(text, maxText);
  } else {
    out.textTotal = 0;
  }
  // A large result is deflated in the page realm: Firefox moves a long string out of the
  // content process at ≈0.25 ms per KB (measured), and the rows compress ≈6:1. The
  // server inflates {z} with a size cap. The isolated realm (a fallback) sends it as is.
  if (!lib.isolated && typeof win.CompressionStream === "function" &&
      typeof win.Uint8Array.prototype.toBase64 === "function") {
    const json = win.JSON.stringify(out);
    if (json.length > 16384) {
      const stream = new win.Blob([json]).stream().pipeThrough(new win.CompressionStream("deflate-raw"));
      const buf = await new win.Response(stream).arrayBuffer();
      return {z: new win.Uint8Array(buf).toBase64()};
    }
  }
  return out;

  function matches(e) {
    const x = e.x || {};
    const hay = (e.role || "") + "\n" + e.tag + "\n" + (e.name || "") + "\n" + (x.value || "") + "\n" + (x.href || "");
    return hay.toLowerCase().includes(query);
  }
}
