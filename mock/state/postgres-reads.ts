/**
 * Catch-ups shared by the reads of a moment (postgres-store.ts; docs/integrators.md, "State and
 * replicas"). Every API read must see every write answered before it arrived, on any replica, and count
 * in its key's shared budget (Authentication 2–3, Limits): one round trip each. Reads that arrive while
 * the pool is busy share one: a catch-up is sent only after each of its reads arrived (read-your-write
 * holds), and counts each read in its window in the same statement (ids of one window's slots are
 * handed out in arrival order).
 */
import type { StageTools } from '../app.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { authenticate } from '../pipeline/authenticate.ts';
import { rateDecision, rateLimited, windowStart } from '../pipeline/rate-limit.ts';
import type { StageWork } from '../pipeline/stages.ts';
import type { ApiKey } from '../store/types.ts';
import type { PgRow } from './postgres-sql.ts';

/** One read's rate take: its key's bucket and the start (epoch ms) of the window holding its clock reading. */
export interface RateTake { bucket: string; start: number }

/**
 * Counts each bucket's takes ($1 buckets, $2 window starts, $3 takes; one entry per bucket, in bucket
 * order so concurrent statements lock rows in one order) and reads the rows above revision $4: the counts
 * first (org null, `bucket` and `used` set), then the rows by revision. A window never moves back: a
 * replica whose clock reading is a window behind (it read the clock just before another replica moved
 * on) counts in the newer window.
 */
export const CATCH_UP_TAKES = `WITH t AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[]) AS t(bucket, start, n) ORDER BY bucket),
  r AS (INSERT INTO mock_rate (bucket, start, used) SELECT bucket, start, n FROM t ORDER BY bucket
    ON CONFLICT (bucket) DO UPDATE SET used = CASE WHEN excluded.start > mock_rate.start THEN excluded.used ELSE mock_rate.used + excluded.used END, start = GREATEST(mock_rate.start, excluded.start)
    RETURNING bucket, used)
  SELECT NULL AS org, NULL AS kind, NULL AS id, NULL::bigint AS revision, NULL AS doc, r.bucket, r.used FROM r
  UNION ALL
  SELECT org, kind, id, revision, doc, NULL, NULL FROM mock_rows WHERE revision > $4
  ORDER BY revision NULLS FIRST`;

/** A row of CATCH_UP_TAKES: a stored row, or a bucket's count after the takes. */
export type CatchUpRow = PgRow & { bucket: string | null; used: number | null };

/** The statement's parameters for `takes`: one entry per bucket (the latest window start, the number of takes). */
export function takeValues(takes: readonly RateTake[]): [string[], number[], number[]] {
  const byBucket = new Map<string, { start: number; n: number }>();
  for (const t of takes) {
    const b = byBucket.get(t.bucket);
    if (b) {
      b.start = Math.max(b.start, t.start);
      b.n++;
    } else byBucket.set(t.bucket, { start: t.start, n: 1 });
  }
  const buckets = [...byBucket.keys()].sort();
  return [buckets, buckets.map((b) => byBucket.get(b)!.start), buckets.map((b) => byBucket.get(b)!.n)];
}

/**
 * Each take's slot (1-based, in its window): a bucket counted `used` after `n` takes gave its takes the
 * slots used − n + 1 … used, in arrival order.
 */
export function slotsOf(takes: readonly RateTake[], used: ReadonlyMap<string, number>): number[] {
  const n = new Map<string, number>();
  for (const t of takes) n.set(t.bucket, (n.get(t.bucket) ?? 0) + 1);
  const given = new Map<string, number>();
  return takes.map((t) => {
    const k = (given.get(t.bucket) ?? 0) + 1;
    given.set(t.bucket, k);
    return used.get(t.bucket)! - n.get(t.bucket)! + k;
  });
}

interface Waiting { take?: RateTake; resolve(slot: number | undefined): void; reject(e: unknown): void }

/**
 * Gathers the catch-ups of concurrent reads: `join` resolves once a catch-up sent after the call has
 * been applied, with the read's slot when it brought a take. At most `inFlight` catch-ups run at once;
 * the reads arriving meanwhile go out together in the next one. `run` sends one catch-up with its takes
 * and resolves with each take's slot, in order; its error fails that catch-up's reads only.
 */
export class CatchUps {
  private waiting: Waiting[] = [];
  private running = 0;
  private scheduled = false;

  constructor(private readonly run: (takes: RateTake[]) => Promise<number[]>, private readonly inFlight = 2) {}

  join(take?: RateTake): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ take, resolve, reject });
      this.schedule();
    });
  }

  /** Sends what waits at the end of this turn of the event loop (the reads parsed in it go together). */
  private schedule(): void {
    if (this.scheduled || this.running >= this.inFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.running++;
    const takes = batch.flatMap((w) => (w.take ? [w.take] : []));
    this.run(takes).then((slots) => {
      let i = 0;
      for (const w of batch) w.resolve(w.take ? slots[i++] : undefined);
    }, (e: unknown) => {
      for (const w of batch) w.reject(e);
    }).finally(() => {
      this.running--;
      this.schedule();
    });
  }
}

/**
 * The authenticate and rateLimit stages of reads that catch up through `catchUps`: a key this replica
 * knows already takes its rate slot in that catch-up (the key is checked again once caught up: another
 * replica may have revoked it); any other key, or a request whose window moved meanwhile, takes its slot
 * in a catch-up of the rateLimit stage.
 */
export function readStages(catchUps: CatchUps, defaults: Readonly<StageWork>, tools: StageTools): Pick<StageWork, 'authenticate' | 'rateLimit'> {
  const { limits, bucket, app } = tools;
  return {
    authenticate: (ex: Exchange) => {
      const known = knownKey(ex, tools);
      if (!known) return catchUps.join().then(() => defaults.authenticate(ex) as void);
      const now = app.world.clock.now();
      return catchUps.join({ bucket: bucket(known), start: windowStart(now) }).then((used) => {
        defaults.authenticate(ex);
        // The count stands unless the catch-up moved the clock (or the minute turned) into another window:
        // then the rateLimit stage counts the request in the window of the clock as it is now.
        if (bucket(ex.key) === bucket(known) && windowStart(ex.now) === windowStart(now)) ex.rate = rateDecision(used!, limits[ex.key.prefix], now);
      });
    },
    rateLimit: (ex: Exchange) => {
      const key = ex.key;
      if (ex.rate) {
        if (!ex.rate.allowed) throw rateLimited(ex.rate);
        return;
      }
      return catchUps.join({ bucket: bucket(key), start: windowStart(ex.now) }).then((used) => {
        const rate = (ex.rate = rateDecision(used!, limits[key.prefix], ex.now));
        if (!rate.allowed) throw rateLimited(rate);
      });
    },
  };
}

/** The valid key of `ex`'s Authorization as this replica knows it, or undefined. */
function knownKey(ex: Exchange, tools: StageTools): ApiKey | undefined {
  try {
    return authenticate(ex.req.headers.authorization, tools.app.world, tools.app.world.clock.now());
  } catch {
    return undefined;
  }
}
