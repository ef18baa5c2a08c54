/**
 * Puts the journal on a served mock (mock/server.ts): its hooks on the request path while it is on
 * (`MockApp.extend('journal', ...)`; none while off, which costs nothing), its control routes in front
 * of the control API (control.ts `journalControl`, wired by server.ts). Off by default; on with `--journal` or `PUT /__mock/journal {"enabled": true}`.
 */
import type { MockApp } from '../app.ts';
import type { JournalSwitch } from './control.ts';
import { JOURNAL_DEFAULT_BODY_LIMIT, JOURNAL_DEFAULT_SIZE, Journal, type JournalSettings } from './journal.ts';
import { journalHooks } from './record.ts';

/** How the journal starts: on or off, and its bounds (defaults 1,000 entries, 16 KiB bodies). */
export interface JournalOptions extends Partial<JournalSettings> {
  enabled?: boolean;
}

/** Creates the journal of `app` and its switch; `enabled` registers its hooks at once. */
export function journalOf(app: MockApp, options: JournalOptions = {}): JournalSwitch {
  const journal = new Journal({ size: options.size ?? JOURNAL_DEFAULT_SIZE, bodyLimit: options.bodyLimit ?? JOURNAL_DEFAULT_BODY_LIMIT });
  const hooks = journalHooks(journal, () => app.world);
  let enabled = false;
  const sw: JournalSwitch = {
    journal,
    get enabled() {
      return enabled;
    },
    setEnabled(on) {
      enabled = on;
      app.extend('journal', on ? hooks : {});
    },
  };
  if (options.enabled) sw.setEnabled(true);
  return sw;
}

/**
 * The journal settings of the environment: `MMS_MOCK_JOURNAL=1` (or a size) turns it on where no
 * option says otherwise (containers, `npm run bench -- --only path` with the journal on).
 */
export function journalFromEnv(env: NodeJS.ProcessEnv = process.env): JournalOptions | undefined {
  const v = env.MMS_MOCK_JOURNAL;
  if (v === undefined || v === '' || v === '0') return undefined;
  const size = /^\d+$/.test(v) && Number(v) > 1 ? Math.min(Number(v), 100_000) : undefined;
  return { enabled: true, ...(size !== undefined && { size }) };
}
