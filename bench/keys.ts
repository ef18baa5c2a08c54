/**
 * API keys for load that stays inside the rate limit (Limits: 1,000 requests per minute per `sk_live_`
 * key). The limiter stays on; instead, the load is spread over many keys so that no key is ever used
 * more than its one-minute budget, counted over the whole life of the mock process — so no window of
 * any key can overflow, whatever the timing. Keys are the seeded live keys of the main organization,
 * then keys minted through the control API (`POST /__mock/keys`), all with every scope.
 *
 * Autocannon cycles every connection through the request list independently, from its start, so with
 * `k` keys, each in `e` consecutive entries of the list, a run of `n` requests over `c` connections uses
 * a key at most `n / k + c * e` times; `keysFor` sizes `k` for that bound, and every run gets keys of
 * its own.
 */
import { controlHeaders } from './control.ts';
const BUDGET = 1000;

function keyCount(requests: number, connections: number, entries: number): number {
  const slack = connections * entries;
  if (slack >= BUDGET / 2) throw new Error(`${connections} connections × ${entries} entries per key leave too little of a key's budget`);
  return Math.max(1, Math.ceil(requests / (BUDGET - slack - 50)));
}

export class KeyPool {
  private readonly fresh: string[];
  private readonly spent: string[] = [];

  constructor(private readonly mockUrl: string, seededLiveKeys: string[]) {
    this.fresh = [...seededLiveKeys];
  }

  /**
   * Keys never used before, enough for one run of at most `requests` requests over `connections`
   * connections, each key in `entries` consecutive entries of the request list.
   */
  async keysFor(requests: number, connections: number, entries = 1): Promise<string[]> {
    return this.unused(keyCount(requests, connections, entries));
  }

  /** `count` keys never used before (the caller keeps each within its budget). */
  async unused(count: number): Promise<string[]> {
    await this.mint(count - this.fresh.length);
    const keys = this.fresh.splice(0, count);
    this.spent.push(...keys);
    return keys;
  }

  /** As many keys as `keysFor` would give, taken from spent ones: for servers that are not the mock. */
  spentKeys(requests: number, connections: number, entries = 1): string[] {
    if (this.spent.length === 0) throw new Error('no key has been spent yet');
    return Array.from({ length: keyCount(requests, connections, entries) }, (_, i) => this.spent[i % this.spent.length]!);
  }

  /** How many keys this pool has handed out for the mock. */
  get used(): number {
    return this.spent.length;
  }

  private async mint(count: number): Promise<void> {
    const one = async (): Promise<void> => {
      const r = await fetch(`${this.mockUrl}/__mock/keys`, { method: 'POST', headers: controlHeaders(), body: JSON.stringify({ orgId: 'org_acme', label: 'bench' }) });
      if (r.status !== 201) throw new Error(`minting a key answered ${r.status}: ${await r.text()}`);
      this.fresh.push(((await r.json()) as { secret: string }).secret);
    };
    for (let left = count; left > 0; left -= 16) await Promise.all(Array.from({ length: Math.min(16, left) }, one));
  }
}

/** The seeded live keys of the main organization, from the mock's target profile. */
export async function seededLiveKeys(mockUrl: string): Promise<string[]> {
  const profile = (await (await fetch(`${mockUrl}/__mock/profile`, { headers: controlHeaders() })).json()) as { keys: { live: string[] } };
  return profile.keys.live;
}
