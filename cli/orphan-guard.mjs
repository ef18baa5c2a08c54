/**
 * Loaded (`node --import`) into Playwright's runner and every process it starts (its workers), through
 * NODE_OPTIONS set by cli/playwright.ts: no process of a run outlives the CLI, whatever ends the CLI —
 * even SIGKILL, which the CLI cannot catch (docs/ci.md, "Exit codes").
 *
 * Each process polls its parent (every 200 ms, unref'd: it never keeps a process alive). When the parent
 * is gone (the process was re-parented), the runner — the CLI's own child, leader of its process group —
 * kills its whole group (its workers and everything they started); any other process kills itself.
 * Plain JavaScript: it loads before any TypeScript loader.
 */
const cliPid = Number(process.env.MMS_CLI_PID);
const parent = process.ppid;
if (cliPid > 0) {
  const leader = parent === cliPid;
  setInterval(() => {
    if (process.ppid === parent) return;
    try {
      process.kill(leader ? -process.pid : process.pid, 'SIGKILL');
    } catch {
      process.kill(process.pid, 'SIGKILL');
    }
  }, 200).unref();
}
