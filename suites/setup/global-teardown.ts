/** Stops the embedded mock, if the global setup started one. */
import { markTime } from '../../contract/timings.ts';

export default async function globalTeardown(): Promise<void> {
  markTime('globalTeardown.start');
  await globalThis.__embeddedMock?.stop();
  markTime('globalTeardown.end');
}
