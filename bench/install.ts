/**
 * The install a vendor does (docs/vendors.md, "Install"; target ≤ 60 s, no warning): `npm pack` of this
 * repository, then, in an empty folder holding only a package.json, the command the docs give:
 * `npm install --save-dev --ignore-scripts ./mms-conformance-kit-<version>.tgz`, timed from spawn to exit.
 * A fresh npm cache per run by default (`cold`: every package comes from the registry, as on a first
 * install; `warm`: the user's cache). Nothing can be compiled: no install script runs and the native
 * SQLite driver is an optional peer dependency, not installed; the report says so, and counts npm's
 * warning lines. No prebuilt binary is reachable on this host (only the npm registry is).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { median } from './load.ts';

export interface InstallRun { wallMs: number; code: number | null; warnings: string[]; packages: number; nativeBuilt: boolean }
export interface InstallReport { command: string; cache: 'cold' | 'warm'; runs: InstallRun[]; wallMs: number; warnings: number; nativeBuilt: boolean; tarballBytes: number }

/** The install command of docs/vendors.md, for the packed tarball's file name. */
export const installArgs = (tarball: string) => ['install', '--save-dev', '--ignore-scripts', '--no-audit', '--no-fund', `./${tarball}`];

/** Times `runs` installs of the packed kit, each into a new empty folder (and, `cold`, a new npm cache). */
export async function installCost(runs: number, cache: 'cold' | 'warm', log: (line: string) => void): Promise<InstallReport> {
  const packDir = mkdtempSync(join(tmpdir(), 'bench-install-pack-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  const tarballBytes = Number(execFileSync('stat', ['-c', '%s', join(packDir, tarball)], { encoding: 'utf8' }).trim());
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const out: InstallRun[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-install-'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vendor-project', private: true }));
      execFileSync('cp', [join(packDir, tarball), dir]);
      const cacheEnv = cache === 'cold' ? { npm_config_cache: join(dir, '.npm-cache') } : {};
      const started = performance.now();
      const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
        const child = spawn('npm', installArgs(tarball), { cwd: dir, env: { ...env, ...cacheEnv } });
        let text = '';
        child.stdout.on('data', (d) => (text += d));
        child.stderr.on('data', (d) => (text += d));
        child.on('exit', (c) => done({ code: c, output: text }));
      });
      const wallMs = performance.now() - started;
      const modules = join(dir, 'node_modules');
      const run: InstallRun = {
        wallMs, code,
        warnings: output.split('\n').filter((l) => /\bwarn\b/i.test(l)),
        packages: existsSync(modules) ? readdirSync(modules).length : 0,
        nativeBuilt: existsSync(join(modules, 'better-sqlite3', 'build')),
      };
      out.push(run);
      log(`install ${i + 1}/${runs}: ${(wallMs / 1000).toFixed(1)} s, exit ${code}, ${run.warnings.length} warning lines, native build: ${run.nativeBuilt ? 'yes' : 'no'}`);
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
  return {
    command: `npm ${installArgs(tarball).join(' ')}`,
    cache,
    runs: out,
    wallMs: median(out.map((r) => r.wallMs)),
    warnings: Math.max(...out.map((r) => r.warnings.length)),
    nativeBuilt: out.some((r) => r.nativeBuilt),
    tarballBytes,
  };
}
