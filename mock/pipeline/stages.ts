/**
 * The request path as named stages (docs/design.md §4), each holding hooks, with one generic runner — the
 * shape of Fastify's lifecycle hooks. A stage's hooks run before its own work; a hook or a stage may
 * throw a ProblemError (the request's answer), return ANSWERED (it has answered itself), or return a
 * promise of either (the runner resumes with the next step when it settles).
 *
 * Extensions (the control API's faults, the self-test's mutants) register hooks from outside the app;
 * `compileStages` flattens the stages and the hooks present into one list, once per change of the
 * registered hooks, so a request without extensions runs exactly the stages' own work.
 */
import type { Outgoing } from '../http/send.ts';
import type { Exchange } from './exchange.ts';

/** The stages, in the order a request passes them. */
export const STAGE_NAMES = ['onRequest', 'apiPrefix', 'authenticate', 'rateLimit', 'route', 'authorize', 'validate', 'prism', 'readBody', 'validateBody', 'handle'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** Returned by a step that has answered the request itself: the runner stops. */
export const ANSWERED = Symbol('answered');
export type StepResult = void | typeof ANSWERED | Promise<void | typeof ANSWERED>;

/** A stage's own work, or a hook run before it. */
export type Step = (ex: Exchange) => StepResult;

/** Changes a response before it is written (`onSend` hooks). */
export type SendHook = (out: Outgoing, ex: Exchange) => Outgoing;

/** The stages' own work, by name. */
export type StageWork = Record<StageName, Step>;

/**
 * Hooks an extension attaches: before named stages, on every response written, and stage work of its
 * own in place of the default (`replace`, given the stages' work and the app's tools: mock/app.ts
 * StageTools) — the way a mutant changes a rule without an option of the app.
 */
export interface StageHooks<Tools = unknown> {
  before?: Partial<Record<StageName, Step[]>>;
  onSend?: SendHook[];
  replace?(work: Readonly<StageWork>, tools: Tools): Partial<StageWork>;
}

/**
 * One flat list: each stage's hooks (of every extension, in registration order), then the stage's work
 * (the last extension replacing it, else its own).
 */
export function compileStages<Tools>(own: StageWork, extensions: Iterable<StageHooks<Tools>>, tools: Tools): Step[] {
  const all = [...extensions];
  let work = own;
  for (const ext of all) if (ext.replace) work = { ...work, ...ext.replace(work, tools) };
  const steps: Step[] = [];
  for (const name of STAGE_NAMES) {
    for (const ext of all) steps.push(...(ext.before?.[name] ?? []));
    steps.push(work[name]);
  }
  return steps;
}

/** The `onSend` hooks of every extension as one function, or undefined when there are none. */
export function compileOnSend(extensions: Iterable<StageHooks>): SendHook | undefined {
  const hooks = [...extensions].flatMap((ext) => ext.onSend ?? []);
  if (hooks.length === 0) return undefined;
  if (hooks.length === 1) return hooks[0];
  return (out, ex) => {
    for (const hook of hooks) out = hook(out, ex);
    return out;
  };
}

/**
 * Runs `steps` from index `from` until one answers, throws (→ `fail`) or the list ends. Synchronous
 * steps run in one loop; a promise suspends the loop and resumes it after that step.
 */
export function runSteps(steps: readonly Step[], ex: Exchange, from: number, fail: (ex: Exchange, error: unknown) => void): void {
  let i = from;
  try {
    for (; i < steps.length; i++) {
      const result = steps[i]!(ex);
      if (result === undefined) continue;
      if (result === ANSWERED) return;
      const next = i + 1;
      result.then((settled) => settled === ANSWERED || runSteps(steps, ex, next, fail), (error) => fail(ex, error));
      return;
    }
  } catch (error) {
    fail(ex, error);
  }
}
