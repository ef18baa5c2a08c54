// The Prism thread's entry (thread.ts): its TypeScript runs through tsx's loader, registered here,
// because a worker thread does not inherit a loader the main thread registered programmatically
// (bin/mms-conformance.mjs); the thread is started without the main thread's execArgv.
import { register } from 'tsx/esm/api';

register();
await import('./thread-worker.ts');
