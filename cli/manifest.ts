/**
 * The certification bundle (docs/vendors.md, "The certification bundle"): `run` writes `<output>/manifest.json` naming the kit,
 * the spec and catalog it ran (SHA-256), the target, the profile (its SHA-256 with every key replaced, so
 * no secret is hashed), the time, the verdict and the SHA-256 of every report file; with `--sign-key` an
 * Ed25519 detached signature of manifest.json's bytes, base64, in `manifest.json.sig` (Node's crypto).
 * `report verify` re-hashes the files and checks the signature.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { CATALOG_FILE, OPENAPI_FILE, ROOT } from '../contract/paths.ts';
import { printable } from '../contract/printable.ts';
import { withoutComments } from '../contract/profile.ts';
import type { ConformanceReport } from '../contract/report/model.ts';
import { REPORT_FILES } from '../contract/report/write.ts';
import { EXIT, UsageError } from './exit-codes.ts';

import { MANIFEST_FILE, SIGNATURE_FILE } from './bundle-files.ts';

export { MANIFEST_FILE, SIGNATURE_FILE };

/** What manifest.json holds. Hashes are lowercase hex SHA-256. */
export interface Manifest {
  kit: { name: string; version: string };
  spec: { file: 'spec/openapi.yaml'; sha256: string };
  catalog: { file: 'spec/requirements.yaml'; sha256: string };
  target: { name: string; baseUrl: string; embedded: boolean };
  profile: { sha256: string; secrets: 'excluded' } | null;
  time: string;
  verdict: ConformanceReport['verdict'];
  /** The run's seed (conformance.json run.seed): rerun with `--seed` for the same verdicts; null when not recorded. */
  seed: number | null;
  files: Record<string, string>;
  /** A merged run (`report merge`): the SHA-256 of each shard's blob report, by file name. */
  shards?: Record<string, string>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** JSON with object members sorted, so equal profiles hash equal whatever their layout. */
function canonical(node: unknown): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`;
  if (node && typeof node === 'object') return `{${Object.keys(node).sort().map((k) => `${JSON.stringify(k)}:${canonical((node as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(node);
}

/** SHA-256 of a profile file with every string under `keys` replaced by `"<secret>"` and comments dropped. */
export function profileHash(file: string): string {
  const raw = withoutComments(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
  const redact = (n: unknown): unknown => (typeof n === 'string' ? '<secret>' : Array.isArray(n) ? n.map(redact) : n && typeof n === 'object' ? Object.fromEntries(Object.entries(n).map(([k, v]) => [k, redact(v)])) : n);
  return sha256(canonical({ ...raw, keys: redact(raw.keys) }));
}

/** Reads an Ed25519 private key PEM; throws UsageError (one line) when it is not one. */
export function loadSigningKey(file: string): KeyObject {
  try {
    const key = createPrivateKey(readFileSync(resolve(file)));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key, not Ed25519`);
    return key;
  } catch (e) {
    throw new UsageError(`--sign-key ${file}: not an Ed25519 private key PEM (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
}

/** Writes manifest.json (and manifest.json.sig with `signingKey`) into `dir` for the report there; `extra.shards` for a merged run. */
export function writeManifest(dir: string, report: ConformanceReport, profileFile: string | undefined, signingKey?: KeyObject, extra: Pick<Manifest, 'shards'> = {}): Manifest {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const files: Record<string, string> = {};
  for (const name of Object.values(REPORT_FILES)) if (existsSync(resolve(dir, name))) files[name] = sha256(readFileSync(resolve(dir, name)));
  const manifest: Manifest = {
    kit: { name: pkg.name, version: pkg.version },
    spec: { file: 'spec/openapi.yaml', sha256: sha256(readFileSync(OPENAPI_FILE)) },
    catalog: { file: 'spec/requirements.yaml', sha256: sha256(readFileSync(CATALOG_FILE)) },
    target: report.target,
    profile: profileFile ? { sha256: profileHash(profileFile), secrets: 'excluded' } : null,
    time: new Date().toISOString(),
    verdict: report.verdict,
    seed: report.run.seed ?? null,
    files,
    ...extra,
  };
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(resolve(dir, MANIFEST_FILE), bytes);
  if (signingKey) writeFileSync(resolve(dir, SIGNATURE_FILE), `${sign(null, bytes, signingKey).toString('base64')}\n`);
  return manifest;
}

/**
 * The problems of a parsed manifest's `files` against the files in `dir`: a manifest that is not an
 * object, lists no file, names a path outside `dir` (absolute, or leaving it through `..`), or gives a
 * hash that is no SHA-256 is a problem, like a missing or changed file. Never throws for any JSON value.
 */
export function manifestFileProblems(dir: string, manifest: unknown): string[] {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) return [`${MANIFEST_FILE} is not a JSON object`];
  const files = (manifest as { files?: unknown }).files;
  if (!files || typeof files !== 'object' || Array.isArray(files) || Object.keys(files).length === 0) return [`${MANIFEST_FILE} lists no report file (files must name each file and its SHA-256)`];
  const problems: string[] = [];
  const root = resolve(dir);
  for (const [name, hash] of Object.entries(files as Record<string, unknown>)) {
    const shown = printable(name.slice(0, 200), true);
    const file = resolve(root, name);
    const inside = relative(root, file);
    if (name === '' || isAbsolute(name) || inside === '' || inside.startsWith('..') || isAbsolute(inside)) problems.push(`${shown}: not a path inside ${dir}`);
    else if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) problems.push(`${shown}: the manifest's hash is not a SHA-256`);
    else if (!existsSync(file) || !statSync(file).isFile()) problems.push(`${shown}: missing`);
    else if (sha256(readFileSync(file)) !== hash) problems.push(`${shown}: SHA-256 differs from the manifest`);
  }
  return problems;
}

/** The problems of the bundle in `dir` (empty when every hash, and the signature when a key is given, match). Throws UsageError when there is no manifest or the key cannot be read. */
export function bundleProblems(dir: string, publicKeyFile?: string): string[] {
  const manifestPath = resolve(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw new UsageError(`${dir} holds no ${MANIFEST_FILE} (written by run and report merge)`);
  const bytes = readFileSync(manifestPath);
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString('utf8'));
  } catch {
    return [`${MANIFEST_FILE} is not valid JSON`];
  }
  const problems = manifestFileProblems(dir, manifest);
  if (publicKeyFile) {
    let key: KeyObject;
    try {
      key = createPublicKey(readFileSync(resolve(publicKeyFile)));
    } catch (e) {
      throw new UsageError(`--public-key ${publicKeyFile}: not a public key PEM (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
    }
    const sigPath = resolve(dir, SIGNATURE_FILE);
    if (!existsSync(sigPath)) problems.push(`${SIGNATURE_FILE}: missing`);
    else if (!verify(null, bytes, key, Buffer.from(readFileSync(sigPath, 'utf8').trim(), 'base64'))) problems.push(`${SIGNATURE_FILE}: the signature does not match ${MANIFEST_FILE} and the public key`);
  }
  return problems;
}

/** `report verify DIR [--public-key FILE]`: prints the outcome; resolves to 1 on any mismatch, else 0. */
export function verifyCommand(dir: string, publicKeyFile?: string): number {
  const problems = bundleProblems(dir, publicKeyFile);
  if (problems.length) {
    process.stdout.write(`${problems.map((p) => `mismatch: ${p}`).join('\n')}\n`);
    return EXIT.failed;
  }
  const signed = publicKeyFile ? 'hashes and signature match' : `hashes match (signature not checked: no --public-key)`;
  process.stdout.write(`ok: ${dir}: ${signed}\n`);
  return EXIT.ok;
}
