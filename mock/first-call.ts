/**
 * The first call in a minute (docs/integrators.md, "Your first call"): `--keys-out FILE` writes the
 * mock's address, control token and keys as a shell file only its owner can read (mode 0600), and a
 * start on a loopback address prints a first request to paste. Neither prints a key in full: the
 * pasted lines read the key from that file or from `GET /__mock/profile` with the control token.
 */
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import type { RunningMock } from './server.ts';

interface ProfileKeys { live: string[]; test: string; otherOrg: string; scopes: Record<string, string> }

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Writes `file` (created or truncated, then mode 0600 whatever it was) with `export` lines: MMS_BASE,
 * MMS_MOCK_CONTROL_TOKEN (when the control API is on), MMS_KEY (full access, live), MMS_TEST_KEY,
 * MMS_OTHER_ORG_KEY, MMS_METERS_READ_KEY. Throws the file system's error.
 */
export function writeKeysFile(file: string, mock: RunningMock): void {
  const keys = mock.profile.keys as unknown as ProfileKeys;
  const lines = [
    `# The mock at ${mock.url} (written at its start). Secrets: keep this file to yourself. Load it with: . ${file.includes('/') ? file : `./${file}`}`,
    `export MMS_BASE=${quote(mock.baseUrl)}`,
    ...(mock.controlToken !== undefined ? [`export MMS_MOCK_CONTROL_TOKEN=${quote(mock.controlToken)}`] : []),
    `export MMS_KEY=${quote(keys.live[0]!)}          # full access, live (1,000/min)`,
    `export MMS_TEST_KEY=${quote(keys.test)}     # full access, test (100/min)`,
    `export MMS_OTHER_ORG_KEY=${quote(keys.otherOrg)}    # another organization`,
    ...(keys.scopes['meters:read'] ? [`export MMS_METERS_READ_KEY=${quote(keys.scopes['meters:read'])}  # meters:read only`] : []),
  ];
  const fd = openSync(file, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${lines.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The banner's "first call" lines: from the keys file when one was written, else (loopback starts
 * with the control API on) a key fetched from the profile with the token set in the first line;
 * nothing for other starts.
 */
export function firstCallLines(mock: RunningMock, loopback: boolean, keysFile?: string): string[] {
  const call = `  curl -s -w '\\n' -H "Authorization: Bearer $MMS_KEY" "$MMS_BASE/meters?limit=2"`;
  const journal = mock.controlToken !== undefined ? [`  curl -s -w '\\n' -H "X-Mock-Control-Token: $MMS_MOCK_CONTROL_TOKEN" "${mock.url}/__mock/journal?limit=5"   # what the mock saw${mock.journal?.enabled ? '' : ' (start with --journal)'}`] : [];
  // `. FILE` without a slash searches PATH in a POSIX shell: name it ./FILE.
  if (keysFile !== undefined) return ['First call (paste into a shell):', `  . ${keysFile.includes('/') ? keysFile : `./${keysFile}`}`, call, ...journal];
  if (!loopback || mock.controlToken === undefined) return [];
  return [
    'First call (paste into a shell on this machine; --keys-out FILE writes these variables to a file instead):',
    `  export MMS_BASE=${quote(mock.baseUrl)} MMS_MOCK_CONTROL_TOKEN=${quote(mock.controlToken)}`,
    `  export MMS_KEY="$(curl -s -H "X-Mock-Control-Token: $MMS_MOCK_CONTROL_TOKEN" ${mock.url}/__mock/profile | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).keys.live[0]')"`,
    call,
    ...journal,
  ];
}
