/**
 * The shell command blocks of the user docs (README.md, docs/*.md), for the docs-as-tests suite
 * (tools/test/docs-commands.test.ts; docs/maintainers.md, "Docs as tests").
 *
 * A fenced block is a shell block when its info string starts with sh, bash, shell, console or zsh, or
 * when it has no info string and a line of it starts with `$ ` (a transcript). A shell block whose info
 * string holds the word `illustration` (```` ```sh illustration ````) is shown, not run; every other
 * shell block is run by the test. A transcript (`$ ` lines) runs its commands one by one and expects the
 * lines under each command in that command's output; any other block runs as one bash script (-e,
 * pipefail) that must exit 0.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One shell block: where it is, how it is marked, its text. */
export interface ShellBlock {
  /** `docs/ci.md:51`: the file (relative to the repository) and the line of the opening fence. */
  where: string;
  info: string;
  illustration: boolean;
  text: string;
  /** For a transcript: each `$ ` command and the output lines expected under it. */
  transcript?: Array<{ command: string; expected: string[] }>;
}

const SHELLS = /^(sh|bash|shell|console|zsh)\b/;

/** The shell blocks of one Markdown text; `file` names it in `where`. */
export function shellBlocks(markdown: string, file: string): ShellBlock[] {
  const out: ShellBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) body.push(lines[j++]!.slice(open[1]!.length));
    const info = open[3]!.trim();
    const isTranscript = body.some((l) => l.startsWith('$ '));
    if (SHELLS.test(info) || (info === '' && isTranscript)) {
      const block: ShellBlock = { where: `${file}:${i + 1}`, info, illustration: /\billustration\b/.test(info), text: body.join('\n') };
      if (isTranscript) block.transcript = transcriptOf(body);
      out.push(block);
    }
    i = j;
  }
  return out;
}

function transcriptOf(body: string[]): ShellBlock['transcript'] {
  const steps: NonNullable<ShellBlock['transcript']> = [];
  for (const line of body) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else if (line.trim() && steps.length) steps.at(-1)!.expected.push(line.trim());
  }
  return steps;
}

/** The user docs: README.md and every docs/*.md, as repository-relative paths. */
export function userDocs(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every shell block of the user docs under `root`. */
export function allShellBlocks(root: string): ShellBlock[] {
  return userDocs(root).flatMap((file) => shellBlocks(readFileSync(join(root, file), 'utf8'), relative(root, join(root, file))));
}
