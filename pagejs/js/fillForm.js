async function fillForm(win, args, lib) {
  // Fills several fields in one go (fill_form). Every field is resolved and checked
  // first: its ref, that it is enabled and no modal keeps users from it, and that it
  // takes its value (lib.fillPlan: a string for a text field, textarea or editable
  // region, an option value or label the select has, true or false for a checkbox or
  // radio). The first field that fails fails the call, its message naming the field
  // ("field 2 (e14): …"), before anything is written. Then each field is set in order,
  // as fill sets it. submit: the form of the last field is submitted (requestSubmit).
  const fields = Array.isArray(args.fields) && args.fields.length > 0 ? args.fields : lib.fail("invalid_argument", "fields must be a non-empty array");
  const plans = [];
  for (let i = 0; i < fields.length; i++) {
    try {
      const el = lib.target(fields[i]);
      await lib.enabledWhenReachable(el);
      plans.push({el, plan: lib.fillPlan(el, fields[i].value, true)});
    } catch (e) {
      // (lib.fail's {code, message}: the message gains the field's name.)
      if (e && e.code !== undefined && typeof e.message === "string") e.message = "field " + (i + 1) + " (" + fields[i].name + "): " + e.message;
      throw e;
    }
  }
  let trusted = true;
  const out = [];
  for (const p of plans) {
    const done = p.plan.apply(args.unwatched !== true);
    trusted = trusted && done.trusted;
    out.push(lib.filled(p.el, done));
  }
  const submitted = args.submit ? lib.requestSubmit(plans[plans.length - 1].el) : false;
  return lib.result(trusted, {submitted, fields: out});
}
