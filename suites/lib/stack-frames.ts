/**
 * Source-mapped stack frames for the kit's own files only, in a worker of the suite.
 *
 * Playwright captures a stack (up to 50 frames) for every step — each `expect`, each request of the
 * APIRequestContext — to find the step's location, and its workers format every frame through
 * source-map-support, which copies each call site into a new object (`cloneCallSite`) and looks the file
 * up for a source map, whether it has one or not. Most frames lie in Playwright, Node and other
 * packages, which have no source map: against the embedded mock, mapping them cost about an eighth of a
 * worker's CPU (docs/history.md, "Shell to verdict"). Here the frames outside the kit's own files are
 * handed to the formatter as native frames, so they print as V8 prints them (what source-map-support
 * prints for a file without a map) and the kit's frames are mapped exactly as before: every location a
 * report shows (a failed assertion's file and line) stays the TypeScript source's.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../contract/paths.ts';

type Prepare = (error: Error, frames: NodeJS.CallSite[]) => unknown;
/** ownFramesOnly's formatter: `original` is the formatter it wraps. */
export type OwnFramesOnly = Prepare & { original: Prepare };

/** Whether `file` (a path or a file: URL) is one of the kit's own sources: under the kit's root, not in a node_modules folder below it. */
export function isOwnFile(file: string, root = ROOT): boolean {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  return path.startsWith(root + sep) && !path.slice(root.length).includes(`${sep}node_modules${sep}`);
}

/**
 * A call site as source-map-support's formatter reads a native one (isNative: left as it is, printed
 * with its own toString); nothing else reads it.
 */
class AsNative {
  constructor(private readonly frame: NodeJS.CallSite) {}
  isNative(): boolean {
    return true;
  }
  toString(): string {
    return this.frame.toString();
  }
}

/** isOwnFile, remembered by file (a worker's stacks name a few hundred files, each many times). */
function rememberedOwn(own: (file: string) => boolean): (file: string) => boolean {
  const known = new Map<string, boolean>();
  return (file) => {
    let is = known.get(file);
    if (is === undefined) known.set(file, (is = own(file)));
    return is;
  };
}

/** `format` (source-map-support's prepareStackTrace) applied to the kit's own frames only; other frames pass as native. */
export function ownFramesOnly(format: Prepare, own: (file: string) => boolean = isOwnFile): OwnFramesOnly {
  const isOwn = rememberedOwn(own);
  const wrapped: Prepare = (error, frames) => {
    const given = new Array<NodeJS.CallSite>(frames.length);
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      const file = frame.getFileName();
      given[i] = file && isOwn(file) ? frame : (new AsNative(frame) as unknown as NodeJS.CallSite);
    }
    return format(error, given);
  };
  return Object.assign(wrapped, { original: format });
}

/**
 * Installs ownFramesOnly over the process's Error.prepareStackTrace when it is source-map-support's (as
 * in Playwright's workers and runner); any other formatter (or none) is left alone. Idempotent. Returns
 * whether the formatter is now the kit's.
 */
export function mapOwnFramesOnly(): boolean {
  const current = Error.prepareStackTrace as (Prepare & Partial<OwnFramesOnly>) | undefined;
  if (current?.original) return true;
  if (current?.name !== 'prepareStackTrace') return false;
  Error.prepareStackTrace = ownFramesOnly(current);
  return true;
}
