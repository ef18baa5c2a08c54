/** Part master records (Resources › Part). */
import type { HandlerMap } from '../http/context.ts';

export const partHandlers: HandlerMap = {};
