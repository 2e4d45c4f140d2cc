function dialogState(args, env) {
  // Parent process: the tab-modal dialog (alert/confirm/prompt/beforeunload) open in the
  // tab whose browserId is args.browserId, if any.
  const found = findDialog(args.browserId);
  if (!found.tab) throw {code: "tab_not_found", message: "no tab has that browserId"};
  const d = found.dialog;
  if (!d) return {open: false};
  const D = d.frameContentWindow && d.frameContentWindow.Dialog;
  if (!D || !D.args || !D.ui) return {open: true, type: "", text: "", ready: false};
  // alertCheck/confirmCheck are alert/confirm with Firefox's "don't allow more dialogs"
  // checkbox (shown from the second dialog of a page on).
  // A beforeunload prompt is a confirmEx with inPermitUnload set (PromptParent).
  const type = D.args.inPermitUnload ? "beforeunload" : String(D.args.promptType || "").replace(/Check$/, "");
  const out = {open: true, type, text: String(D.ui.infoBody ? D.ui.infoBody.textContent : ""), ready: true};
  if (out.type === "prompt" && D.ui.loginTextbox) out.value = String(D.ui.loginTextbox.value);
  return out;

  function findDialog(browserId) {
    for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
      const gb = w.gBrowser;
      if (!gb) continue;
      for (const b of gb.browsers) {
        if (b.browserId !== browserId) continue;
        const box = b.tabDialogBox;
        const mgr = box && box.getContentDialogManager && box.getContentDialogManager();
        const dialog = mgr && mgr.dialogs && mgr.dialogs.length ? mgr.dialogs[0] : null;
        return {tab: true, dialog};
      }
    }
    return {tab: false, dialog: null};
  }
}
