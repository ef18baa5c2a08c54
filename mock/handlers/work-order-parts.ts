/**
 * The work-order parts section and its commands (Endpoints › Work-order parts).
 *
 * - GET answers the section directly, without an envelope.
 * - POST applies a `transition` or `replace` command (mock/domain/parts-section.ts) and answers 200 with
 *   the section after it (inferred). In order: a known `idempotencyKey` replays the original status and
 *   body when the command is identical (fingerprint: SHA-256 of the canonical command without its key),
 *   and answers 409 `idempotency_key_reused` otherwise; then `expectedAggregateVersion` must be the
 *   current version (else 409 `version_conflict`). Commands run synchronously, so of concurrent commands
 *   on one version exactly one applies. Only applied commands are remembered for replay.
 * Neither route is module-gated (work_orders scopes); the domain refuses new stock commitments when
 * Parts Inventory is disabled.
 */
import type { HandlerMapPart } from '../http/context.ts';
import { json, raw } from '../http/envelope.ts';
import { conflict } from '../http/problem.ts';
import { aggregateVersion, canonicalJson, sectionView, sha256 } from '../domain/parts-section.ts';
import { replaceLines, transition } from '../domain/parts-commands.ts';
import type { Schemas } from '../store/types.ts';
import { workOrderOf } from './work-orders.ts';

type Command = Schemas['PartsCommand'];

export const partsSectionHandlers = {
  getWorkOrderParts(ctx) {
    return json(sectionView(ctx.org, workOrderOf(ctx)));
  },

  commandWorkOrderParts(ctx) {
    const row = workOrderOf(ctx);
    const { idempotencyKey, ...command } = ctx.body as Command;
    const fingerprint = sha256(canonicalJson(command));
    const seen = row.parts.idempotency.get(idempotencyKey);
    if (seen) {
      if (seen.fingerprint === fingerprint) return raw(seen.body, seen.status);
      throw conflict(`The idempotencyKey ${idempotencyKey} was used for another command on this parts section.`, 'idempotency_key_reused');
    }
    if (command.expectedAggregateVersion !== aggregateVersion(row)) {
      throw conflict('The parts section has changed since expectedAggregateVersion was read; refetch it.', 'version_conflict');
    }
    const at = new Date(ctx.now).toISOString();
    const applied = command.operation === 'transition'
      ? transition(ctx.org, row, command.targetStatus, at)
      : replaceLines(ctx.org, row, command.items, at, () => ctx.world.ids.next('wop'));
    const body = JSON.stringify(sectionView(ctx.org, applied));
    const idempotency = new Map(row.parts.idempotency).set(idempotencyKey, { fingerprint, status: 200, body });
    ctx.org.workOrders.replace({ ...applied, parts: { ...applied.parts, idempotency } });
    return raw(body);
  },
} satisfies HandlerMapPart;
