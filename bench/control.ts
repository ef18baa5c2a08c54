/**
 * The control token of the benchmark's mocks: one per benchmark process, put in the environment
 * (`MMS_MOCK_CONTROL_TOKEN`) so the mocks it spawns (bench/mock-child.ts, `npm run mock`) use it, and
 * the headers of a control request (token, JSON body).
 */
import { randomBytes } from 'node:crypto';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER } from '../mock/control/guard.ts';

export const BENCH_CONTROL_TOKEN = (process.env[CONTROL_TOKEN_ENV] ||= randomBytes(24).toString('base64url'));

/** Headers of a control-API request. */
export const controlHeaders = (): Record<string, string> => ({ [CONTROL_TOKEN_HEADER]: BENCH_CONTROL_TOKEN, 'content-type': 'application/json' });
