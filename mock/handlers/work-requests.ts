/** Work requests, attachments and thumbnails (Endpoints › Other families). */
import type { HandlerMap } from '../http/context.ts';

export const workRequestHandlers: HandlerMap = {};
