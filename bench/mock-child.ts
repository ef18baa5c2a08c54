/**
 * The stateful mock in a child process of the benchmark: `startMock` (what `npm run mock` runs) on a
 * free port (on the state store `MMS_BENCH_STATE` names, bench/state.ts; memory by default), reported
 * to the parent over IPC; its record budget is `MMS_BENCH_MAX_RECORDS` when set (bench/scale.ts). Asked `memory`, it collects garbage (when started with
 * --expose-gc) and answers `process.memoryUsage()`.
 */
import { startMock } from '../mock/server.ts';
import { CONTROL_TOKEN_ENV } from '../mock/control/guard.ts';
import { answerCpuQueries } from './child-cpu.ts';

answerCpuQueries();

// The parent's token (bench/control.ts), so it can use the control API; the state store of bench/state.ts.
const mock = await startMock({ port: 0, controlToken: process.env[CONTROL_TOKEN_ENV], state: process.env.MMS_BENCH_STATE || undefined, ...(process.env.MMS_BENCH_MAX_RECORDS ? { budget: { records: Number(process.env.MMS_BENCH_MAX_RECORDS) } } : {}) });
process.on('message', (message) => {
  if (message !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  process.send!({ memory: process.memoryUsage(), gc: gc !== undefined });
});
process.send!({ url: mock.url });
