/** Custom-field definitions (Endpoints › Custom fields). */
import type { HandlerMap } from '../http/context.ts';

export const customFieldHandlers: HandlerMap = {};
