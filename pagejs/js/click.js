async function click(win, args, lib) {
  // Clicks the element the snapshot saw, refused when it is inert or covered, as a
  // user's click could not reach it. Isolated realm: trusted pointer/mouse events
  // through the pres shell (default actions included). Page realm: el.click().
  // Clicks reaching a file input meanwhile are default-prevented (no OS file picker);
  // the result then says filePickerBlocked.
  const el = lib.target(args);
  if (lib.isFileInput(el)) lib.fail("unsupported_element", "file inputs open a file picker; use upload_files");
  if (!lib.visible(el)) lib.fail("element_not_interactable", "the element is not visible");
  // Where a user's click on it would land: another element that covers it (an overlay,
  // a banner, a dialog's backdrop) would get that click. (An image map's area is not
  // hit-tested: hit-testing gives its image.) A popup on its way out is waited for.
  const p = await lib.reachable(el, args.at, el.localName !== "area");
  lib.requireEnabled(el);
  if (p && p.covered) {
    lib.fail("element_not_interactable", "another element covers it at every point tried (an overlay, a banner, a dialog?): " +
      "a user's click would reach that one; take a snapshot and deal with it first");
  }
  // (The page's timers are watched from here for the settle that follows, if one does;
  // its changes during the click's dispatch: see lib.changes.)
  if (args.watch === true) lib.watchTimers();
  const seen = lib.changes(el);
  let trusted = false, blocked = false, changed = true;
  try {
    blocked = lib.withoutFilePicker(() => { trusted = lib.clickAt(el, p); });
  } finally {
    changed = seen.changed();
  }
  return lib.result(trusted, blocked ? {filePickerBlocked: true, changed} : {changed});
}
