/** Locations and sub-locations (Resources › Asset and location). */
import type { HandlerMap } from '../http/context.ts';

export const locationHandlers: HandlerMap = {};
