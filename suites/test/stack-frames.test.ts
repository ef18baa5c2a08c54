/**
 * suites/lib/stack-frames.ts: only the kit's own frames go through source-map-support; every other frame
 * prints exactly as before, and the kit's frames keep their TypeScript locations.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { ROOT } from '../../contract/paths.ts';
import { isOwnFile, mapOwnFramesOnly, ownFramesOnly, type OwnFramesOnly } from '../lib/stack-frames.ts';

type Prepare = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** The call sites of a stack taken inside yaml's reviver: frames of this file, of node_modules/yaml and of Node. */
function callSites(): NodeJS.CallSite[] {
  const saved = Error.prepareStackTrace;
  let sites: NodeJS.CallSite[] = [];
  try {
    Error.prepareStackTrace = (_e, frames) => frames;
    parse('a: 1', (_key, value) => {
      if (sites.length === 0) sites = new Error().stack as unknown as NodeJS.CallSite[];
      return value;
    });
  } finally {
    Error.prepareStackTrace = saved;
  }
  return sites;
}

test('own files are the kit\'s sources outside any node_modules folder, as paths or file URLs', () => {
  expect(isOwnFile(`${ROOT}/suites/fixtures.ts`)).toBe(true);
  expect(isOwnFile(`file://${ROOT}/suites/fixtures.ts`)).toBe(true);
  expect(isOwnFile(`${ROOT}/node_modules/yaml/dist/index.js`)).toBe(false);
  expect(isOwnFile('node:internal/process/task_queues')).toBe(false);
  expect(isOwnFile('/elsewhere/suites/fixtures.ts')).toBe(false);
  // Installed as a dependency, the kit's root itself lies in a node_modules folder: its files stay its own.
  expect(isOwnFile('/app/node_modules/kit/suites/x.ts', '/app/node_modules/kit')).toBe(true);
  expect(isOwnFile('/app/node_modules/kit/node_modules/y/z.js', '/app/node_modules/kit')).toBe(false);
});

test('the formatter gets the kit\'s own frames as they are and every other frame as a native one', () => {
  const sites = callSites();
  const files = sites.map((s) => s.getFileName() ?? '');
  expect(files.some((f) => f.includes('/node_modules/yaml/')), files.join('\n')).toBe(true);
  expect(files.some((f) => isOwnFile(f)), files.join('\n')).toBe(true);
  let given: NodeJS.CallSite[] = [];
  ownFramesOnly((_e, frames) => (given = frames))(new Error('x'), sites);
  expect(given).toHaveLength(sites.length);
  sites.forEach((site, i) => {
    const file = site.getFileName();
    if (file && isOwnFile(file)) expect(given[i]).toBe(site);
    else {
      expect(given[i]!.isNative(), String(site)).toBe(true);
      expect(String(given[i])).toBe(String(site));
    }
  });
});

test('through source-map-support, frames outside the kit print exactly as V8 prints them', () => {
  const sites = callSites();
  const error = new Error('boom');
  // Playwright's worker installed source-map-support's formatter (wrapped already if another test of this worker installed the kit's).
  const current = Error.prepareStackTrace as (Prepare & Partial<OwnFramesOnly>) | undefined;
  const format = current?.original ?? current;
  expect(format?.name).toBe('prepareStackTrace');
  // With no frame counted as own, its output is V8's own.
  const printed = String(ownFramesOnly(format!, () => false)(error, sites)).split('\n').slice(1);
  expect(printed).toEqual(sites.map((s) => `    at ${s}`));
});

test('installed in a worker, a kit frame still points at its TypeScript line and column', () => {
  expect(mapOwnFramesOnly()).toBe(true);
  expect((Error.prepareStackTrace as Partial<OwnFramesOnly>).original?.name).toBe('prepareStackTrace');
  expect(mapOwnFramesOnly()).toBe(true);
  let sites: NodeJS.CallSite[] = [];
  const capture = (_e: Error, frames: NodeJS.CallSite[]) => (sites = frames);
  const typed: string | undefined = new Error('here').stack; // the marker line: the type annotation moves the compiled column
  const file = fileURLToPath(import.meta.url);
  const source = readFileSync(file, 'utf8').split('\n');
  const line = source.findIndex((l) => l.includes('// the marker line')) + 1;
  const column = source[line - 1]!.indexOf('new Error') + 1;
  const at = typed!.split('\n')[1]!;
  expect(at).toContain(file);
  expect(/:(\d+:\d+)\)?$/.exec(at)?.[1]).toBe(`${line}:${column}`);
  // The control: a frame read unmapped (the compiled JavaScript's position) is elsewhere, so the check above can fail.
  const saved = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = capture;
    void new Error('here').stack; // the control line
  } finally {
    Error.prepareStackTrace = saved;
  }
  expect(sites.length).toBeGreaterThan(0);
  const controlLine = source.findIndex((l) => l.includes('// the control line')) + 1;
  const controlColumn = source[controlLine - 1]!.indexOf('new Error') + 1;
  expect(`${sites[0]!.getLineNumber()}:${sites[0]!.getColumnNumber()}`).not.toBe(`${controlLine}:${controlColumn}`);
});
