/** Stops the embedded mock, if the global setup started one. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__embeddedMock?.stop();
}
