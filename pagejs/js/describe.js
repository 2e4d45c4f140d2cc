function describe(win, args, lib) {
  // Re-resolves a selector and returns the element's fields (the snapshot entry), without
  // acting: for stale checks.
  const el = lib.resolve(args.sel);
  const e = lib.entry(el);
  e.visible = lib.isFileInput(el) || lib.visible(el);
  return e;
}
