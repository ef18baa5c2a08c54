/**
 * The bench's CPU time of a shell-to-verdict run (bench/suite.ts `childTimes`): the shell's `times` line
 * for its children, read into milliseconds.
 */
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { childTimes } from '../../bench/suite.ts';

test('the CPU of what the shell ran is read from its `times`, in ms', () => {
  // A child that spins until it has used 400 ms of CPU (however busy the host); `times` then prints the shell's own line and its children's.
  const spin = 'while (process.cpuUsage().user + process.cpuUsage().system < 400000);';
  const out = execFileSync('/bin/sh', ['-c', `"${process.execPath}" -e '${spin}'; times`], { encoding: 'utf8' });
  const { user, system } = childTimes(out);
  expect(user + system).toBeGreaterThanOrEqual(390);
  expect(user + system).toBeLessThan(5_000);
});

test('minutes and seconds add up; no `times` line reads as zero', () => {
  expect(childTimes('0m0.010000s 0m0.000000s\n1m2.500000s 0m3.250000s\n')).toEqual({ user: 62_500, system: 3_250 });
  expect(childTimes('npm ERR! something\n')).toEqual({ user: 0, system: 0 });
});
