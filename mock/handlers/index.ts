/**
 * The stateful handler of every operation, by operationId: one file per family, wired here.
 */
import type { HandlerMap } from '../http/context.ts';
import { meterHandlers } from './meters.ts';
import { assetHandlers } from './assets.ts';
import { workOrderHandlers } from './work-orders.ts';
import { expenseHandlers } from './work-order-expenses.ts';
import { partsSectionHandlers } from './work-order-parts.ts';
import { partHandlers } from './parts.ts';
import { workRequestHandlers } from './work-requests.ts';
import { portalHandlers } from './work-request-portals.ts';
import { customFieldHandlers } from './custom-fields.ts';
import { locationHandlers } from './locations.ts';
import { identifierHandlers } from './identifiers.ts';

export const handlers: HandlerMap = {
  ...meterHandlers,
  ...assetHandlers,
  ...workOrderHandlers,
  ...expenseHandlers,
  ...partsSectionHandlers,
  ...partHandlers,
  ...workRequestHandlers,
  ...portalHandlers,
  ...customFieldHandlers,
  ...locationHandlers,
  ...identifierHandlers,
};
