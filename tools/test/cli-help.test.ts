/**
 * Each command's `--help` names exactly its own options (docs/vendors.md, "The command line"): every
 * `--option` the help text mentions, its description, examples and exit-code table included, is one the
 * command's parser accepts, and every option the parser accepts is listed. The parser is the program
 * cli/main.ts builds; the text is what `mms-conformance <command> --help` prints.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ROOT } from '../../contract/paths.ts';
import { buildProgram } from '../../cli/main.ts';

const helpOf = (path: string[]) => spawnSync(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), ...path, '--help'], { cwd: ROOT, encoding: 'utf8' });

/** Every command with its path of names, the program's own first. */
function commands(program: Command): Array<{ path: string[]; command: Command }> {
  const out: Array<{ path: string[]; command: Command }> = [{ path: [], command: program }];
  for (const c of program.commands) {
    out.push({ path: [c.name()], command: c });
    for (const sub of c.commands) out.push({ path: [c.name(), sub.name()], command: sub });
  }
  return out;
}

const COMMAND_NAMES = ['run', 'mock', 'proxy', 'merge', 'diff', 'verify', 'init', 'check'];

/**
 * The options a help text mentions as the command's own: long ones and single letters written alone
 * (`-x`); an option written after another command's name (`run --shard i/n` in merge's help) belongs
 * to that command and is left out.
 */
function mentioned(text: string, self: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:\b([a-z]+) )?(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])/g)) {
    if (m[1] && COMMAND_NAMES.includes(m[1]) && m[1] !== self) continue;
    out.add(m[2]!);
  }
  return out;
}

/** The options the `Options:` section lists. */
const listed = (text: string) => mentioned(text.split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '', '');

test('every command\'s --help lists exactly the options its parser has', async () => {
  const program = await buildProgram();
  const all = commands(program);
  expect(all.map((c) => c.path.join(' '))).toEqual(expect.arrayContaining(['run', 'mock', 'proxy', 'report merge', 'report diff', 'report verify', 'profile init', 'profile check']));
  for (const { path, command } of all) {
    const r = helpOf(path);
    expect(r.status, path.join(' ')).toBe(0);
    const parsed = new Set(command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))));
    parsed.add('--help').add('-h');
    const name = path.join(' ') || '(program)';
    // A group's Commands section holds its subcommands' descriptions, checked in their own help.
    const own = r.stdout.replace(/^Commands:\n(?:[ \t].*\n?)*/m, '');
    const inText = mentioned(own, path.at(-1) ?? '');
    expect([...inText].filter((o) => !parsed.has(o)).sort(), `${name}: mentioned but not accepted`).toEqual([]);
    expect([...listed(r.stdout)].sort(), `${name}: the Options section`).toEqual([...parsed].sort());
  }
});
