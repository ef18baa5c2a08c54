/**
 * Shared by the benchmark's server children: answers the parent's IPC message `cpu` with
 * `{ cpu: process.cpuUsage() }` (user and system µs so far), so throughput.ts can divide a run's CPU
 * time by its answers.
 */
export function answerCpuQueries(): void {
  process.on('message', (message) => {
    if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
  });
}
