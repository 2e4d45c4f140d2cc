function click(win, args, lib) {
  // Clicks the element the snapshot saw. Isolated realm: trusted pointer/mouse events
  // through the pres shell (default actions included). Page realm: el.click().
  // Clicks reaching a file input meanwhile are default-prevented (no OS file picker);
  // the result then says filePickerBlocked.
  const el = lib.target(args);
  lib.requireEnabled(el);
  if (lib.isFileInput(el)) lib.fail("unsupported_element", "file inputs open a file picker; use upload_files");
  if (!lib.visible(el)) lib.fail("element_not_interactable", "the element is not visible");
  el.scrollIntoView({block: "nearest", inline: "nearest"});
  const r = el.getBoundingClientRect();
  const base = {
    bubbles: true, cancelable: true, composed: true, view: win, button: 0,
    clientX: r.left + r.width / 2, clientY: r.top + r.height / 2,
  };
  const mouse = (type, buttons, detail) => {
    const o = Object.assign({}, base, {buttons, detail});
    return new win.MouseEvent(type, o);
  };
  const pointer = (type, buttons) => {
    const o = Object.assign({}, base, {buttons, pointerId: 1, pointerType: "mouse", isPrimary: true});
    return new win.PointerEvent(type, o);
  };
  const trusted = lib.isolated && lib.presShellDispatch(el, pointer("pointermove", 0));
  const blocked = lib.withoutFilePicker(trusted ? trustedClick : syntheticClick);
  return lib.result(trusted, blocked ? {filePickerBlocked: true} : null);

  function trustedClick() {
    lib.presShellDispatch(el, pointer("pointerdown", 1));
    lib.presShellDispatch(el, mouse("mousedown", 1, 1));
    if (typeof el.focus === "function") el.focus();
    lib.presShellDispatch(el, pointer("pointerup", 0));
    // A trusted mouseup after a trusted mousedown on the same element makes Firefox
    // synthesize the click itself (measured): dispatching another would click twice.
    // A system-group listener (pages cannot stop it) tells whether that happened.
    let clicked = false;
    const seen = () => { clicked = true; };
    win.addEventListener("click", seen, {capture: true, mozSystemGroup: true});
    try {
      lib.presShellDispatch(el, mouse("mouseup", 0, 1));
    } finally {
      win.removeEventListener("click", seen, {capture: true, mozSystemGroup: true});
    }
    if (!clicked) lib.presShellDispatch(el, mouse("click", 0, 1));
  }

  function syntheticClick() {
    el.dispatchEvent(pointer("pointerdown", 1));
    el.dispatchEvent(mouse("mousedown", 1, 1));
    if (typeof el.focus === "function") el.focus();
    el.dispatchEvent(pointer("pointerup", 0));
    el.dispatchEvent(mouse("mouseup", 0, 1));
    if (typeof el.click === "function") el.click();
    else el.dispatchEvent(mouse("click", 0, 1));
  }
}
