/** Request portals (Endpoints › Other families). */
import type { HandlerMap } from '../http/context.ts';

export const portalHandlers: HandlerMap = {};
