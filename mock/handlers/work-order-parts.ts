/** The work-order parts section and its commands (Endpoints › Work-order parts). */
import type { HandlerMap } from '../http/context.ts';

export const partsSectionHandlers: HandlerMap = {};
