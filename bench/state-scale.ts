/**
 * A large file store (docs/integrators.md, "State and replicas"): a seeded SQLite file grown to
 * `records` work orders in one organization (copies of a seeded one, written straight into its rows),
 * then a mock started on it in a child process (start-up streams the rows) and the state exported
 * (`GET /__mock/state`, streamed, counted not kept). Reports the state's size (the export's bytes),
 * the start-up time and the child's peak resident memory (Linux VmHWM) after start-up and after the
 * export; what the grown state added to the peak over a mock on the seeded file, as a ratio to the
 * state's size: the target is at most 2×.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CONTROL_TOKEN, killHard, startChildMock } from '../tools/lib/child-mock.ts';

export interface StateScaleReport {
  records: number;
  /** Peak resident memory of a mock started on the seeded file (before it grew). */
  baselineMB: number;
  stateMB: number;
  startSeconds: number;
  peakAfterStartMB: number;
  exportSeconds: number;
  peakAfterExportMB: number;
  /** (Peak resident memory after the export − the seeded mock's) ÷ state size. */
  vsState: number;
}

/** Peak and current resident memory of process `pid` in MB (Linux /proc). */
function residentMB(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/** Builds the file, starts a mock on it, exports; `log` gets progress lines. */
export async function stateScale(options: { records: number; log: (line: string) => void }): Promise<StateScaleReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-scale-'));
  const file = join(dir, 'state.db');
  try {
    const seeded = await startChildMock(['--state', file]);
    const baselineMB = residentMB(seeded.child.pid!).peak;
    await killHard(seeded);
    const db = new Database(file);
    const model = db.prepare("SELECT org, doc FROM records WHERE kind = 'workOrder' ORDER BY seq LIMIT 1").get() as { org: string; doc: string };
    const row = JSON.parse(model.doc) as { id: string; data: Record<string, unknown> };
    let seq = (db.prepare('SELECT max(seq) AS seq FROM records').get() as { seq: number }).seq;
    const put = db.prepare("INSERT INTO records (org, kind, id, seq, doc) VALUES (?, 'workOrder', ?, ?, ?)");
    options.log(`state-scale: writing ${options.records} work orders`);
    const batch = db.transaction((from: number, to: number) => {
      for (let n = from; n < to; n++) {
        // After every seeded id (ids sort as strings in creation order).
        const id = `wo_zz${n.toString(36).padStart(9, '0')}`;
        put.run(model.org, id, ++seq, JSON.stringify({ ...row, id, data: { ...row.data, id, previous_id: null, next_id: null } }));
      }
    });
    for (let n = 0; n < options.records; n += 50_000) batch(n, Math.min(options.records, n + 50_000));
    db.close();

    let at = Date.now();
    const mock = await startChildMock(['--state', file]);
    try {
      const startSeconds = (Date.now() - at) / 1000;
      const afterStart = residentMB(mock.child.pid!);
      options.log(`state-scale: started in ${startSeconds.toFixed(1)} s, peak ${afterStart.peak.toFixed(0)} MB`);
      at = Date.now();
      // No time limit: a large export takes as long as it takes to read.
      const res = await fetch(`${mock.url}/__mock/state`, { headers: { 'x-mock-control-token': CONTROL_TOKEN } });
      let bytes = 0;
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
      const exportSeconds = (Date.now() - at) / 1000;
      const afterExport = residentMB(mock.child.pid!);
      const stateMB = bytes / 1024 / 1024;
      options.log(`state-scale: exported ${stateMB.toFixed(0)} MB in ${exportSeconds.toFixed(1)} s, peak ${afterExport.peak.toFixed(0)} MB`);
      return { records: options.records, baselineMB, stateMB, startSeconds, peakAfterStartMB: afterStart.peak, exportSeconds, peakAfterExportMB: afterExport.peak, vsState: (afterExport.peak - baselineMB) / stateMB };
    } finally {
      await killHard(mock);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
