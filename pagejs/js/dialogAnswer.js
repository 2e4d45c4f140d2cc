function dialogAnswer(args, env) {
  // Parent process: accepts or dismisses the dialog open in a tab; for a prompt,
  // args.text (when given) is entered before accepting.
  if (args.action !== "accept" && args.action !== "dismiss") throw {code: "invalid_argument", message: "action must be accept or dismiss"};
  let dialog = null;
  let tab = false;
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      tab = true;
      const box = b.tabDialogBox;
      const mgr = box && box.getContentDialogManager && box.getContentDialogManager();
      dialog = mgr && mgr.dialogs && mgr.dialogs.length ? mgr.dialogs[0] : null;
    }
  }
  if (!tab) throw {code: "tab_not_found", message: "no tab has that browserId"};
  const D = dialog && dialog.frameContentWindow && dialog.frameContentWindow.Dialog;
  if (!D || !D.ui) return {answered: false, type: ""};
  const type = D.args && D.args.inPermitUnload ? "beforeunload" : String(D.args && D.args.promptType || "").replace(/Check$/, "");
  if (args.action === "accept") {
    if (typeof args.text === "string" && D.ui.loginTextbox) D.ui.loginTextbox.value = args.text;
    D.ui.button0.click();
  } else {
    const b1 = D.ui.button1;
    (b1 && !b1.hidden ? b1 : D.ui.button0).click();
  }
  return {answered: true, type};
}
