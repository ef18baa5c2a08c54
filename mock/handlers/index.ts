/**
 * The stateful handler of every operation, by operationId: one file per family, wired here.
 */
import type { HandlerMap } from '../http/context.ts';
import { meterHandlers } from './meters.ts';
import { assetHandlers } from './assets.ts';

export const handlers: HandlerMap = {
  ...meterHandlers,
  ...assetHandlers,
};
