async function fill(win, args, lib) {
  // Replaces the value of a text control, a select or a contenteditable element, as
  // lib.fillPlan sets it (libAct.js). Checkboxes, radios, buttons and file inputs are
  // refused (click toggles; upload_files assigns files).
  // submit: true → form.requestSubmit() afterwards. Password values are never returned.
  const el = lib.target(args);
  await lib.enabledWhenReachable(el);
  const value = typeof args.value === "string" ? args.value : lib.fail("invalid_argument", "value must be a string");
  const done = lib.fillPlan(el, value, false).apply(args.unwatched !== true);
  const submitted = args.submit ? lib.requestSubmit(el) : false;
  return lib.result(done.trusted, {submitted, ...lib.filled(el, done)});
}
