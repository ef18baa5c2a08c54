#!/usr/bin/env node
// The kit's CLI: TypeScript sources run through tsx's loader.
//
// A target profile with tls.ca (given as --profile FILE): Node reads NODE_EXTRA_CA_CERTS only when a
// process starts, so the CLI starts again with it set, for its own requests to the target (the
// reachability and provisioning checks); signals are passed on and its exit code is the CLI's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { constants } from 'node:os';
import { register } from 'tsx/esm/api';

function profileCa(argv) {
  const i = argv.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
  if (i < 0) return undefined;
  const file = argv[i].startsWith('--profile=') ? argv[i].slice('--profile='.length) : argv[i + 1];
  try {
    const ca = JSON.parse(readFileSync(file, 'utf8'))?.tls?.ca;
    return typeof ca === 'string' && ca ? resolve(dirname(resolve(file)), ca) : undefined;
  } catch {
    return undefined; // the CLI reports an unreadable profile itself
  }
}

const ca = profileCa(process.argv.slice(2));
if (ca && process.env.NODE_EXTRA_CA_CERTS !== ca) {
  const child = spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit', detached: true, env: { ...process.env, NODE_EXTRA_CA_CERTS: ca } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
} else {
  register();
  await import('../cli/main.ts');
}
