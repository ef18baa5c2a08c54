/** The app as served (mock/server.ts): with the faults the control API injects, which attach to it as stage hooks. */
import type { MockApp } from '../app.ts';
import type { FaultInjector } from './faults.ts';

export type ServedApp = MockApp & { readonly faults: FaultInjector };
