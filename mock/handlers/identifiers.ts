/** Identifiers (Resources › Identifier). */
import type { HandlerMap } from '../http/context.ts';

export const identifierHandlers: HandlerMap = {};
