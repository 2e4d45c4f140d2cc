function browserInstance(args, env) {
  // Parent process: what tells one run of Firefox from the next. Browser tab ids
  // (browserId) start over when Firefox restarts, so a tab id alone cannot prove that a
  // tab is the one selected before a reconnect.
  const info = env.Services.startup.getStartupInfo();
  const started = info && info.process ? Number(info.process) : 0;
  return {pid: Number(env.Services.appinfo.processID), started};
}
