/** Work-order expenses (Endpoints › Work-order expenses). */
import type { HandlerMap } from '../http/context.ts';

export const expenseHandlers: HandlerMap = {};
