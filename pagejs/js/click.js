function click(win, args, lib) {
  // Clicks the element the snapshot saw. Isolated realm: trusted pointer/mouse events
  // through the pres shell (default actions included). Page realm: el.click().
  // Clicks reaching a file input meanwhile are default-prevented (no OS file picker);
  // the result then says filePickerBlocked.
  const el = lib.target(args);
  lib.requireEnabled(el);
  if (lib.isFileInput(el)) lib.fail("unsupported_element", "file inputs open a file picker; use upload_files");
  if (!lib.visible(el)) lib.fail("element_not_interactable", "the element is not visible");
  let trusted = false;
  const blocked = lib.withoutFilePicker(() => { trusted = lib.clickAt(el); });
  return lib.result(trusted, blocked ? {filePickerBlocked: true} : null);
}
