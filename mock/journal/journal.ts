/**
 * The request journal (docs/integrators.md, "The request journal"): a bounded ring of the exchanges the
 * mock served, newest last, kept in memory by this process only (never in the state store: a restart or
 * another replica starts empty). Listeners (the inspector's event stream) hear each new entry.
 */
import type { JournalEntry, JournalFilter } from '../../contract/journal.ts';
import { invalid } from '../http/problem.ts';

/** Defaults: 1,000 entries, bodies up to 16 KiB each. */
export const JOURNAL_DEFAULT_SIZE = 1000;
export const JOURNAL_DEFAULT_BODY_LIMIT = 16 * 1024;
/** Bounds of the settings (`--journal-size`, `--journal-body-limit`). */
export const JOURNAL_MAX_SIZE = 100_000;
export const JOURNAL_MAX_BODY_LIMIT = 1024 * 1024;

export interface JournalSettings {
  /** Entries kept; the oldest go first. */
  size: number;
  /** Bytes of each request and response body kept. */
  bodyLimit: number;
}

export type JournalListener = (entry: JournalEntry) => void;

export class Journal {
  private entries: JournalEntry[] = [];
  private start = 0;
  private seq = 0;
  private readonly listeners = new Set<JournalListener>();

  constructor(readonly settings: JournalSettings) {}

  /** Entries recorded since start or the last clear (also those the bound dropped). */
  get recorded(): number {
    return this.seq;
  }

  /** The next entry's sequence number. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Keeps `entry` (dropping the oldest past the size) and tells the listeners. */
  add(entry: JournalEntry): void {
    // A loop, not one step: the size may have been lowered since (PUT /__mock/journal).
    while (this.entries.length - this.start >= this.settings.size) this.start++;
    this.entries.push(entry);
    // Compact now and then, not on every drop.
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
    for (const listener of this.listeners) listener(entry);
  }

  /** Forgets every entry; sequence numbers start over at 1. */
  clear(): void {
    this.entries = [];
    this.start = 0;
    this.seq = 0;
  }

  /** The entries matching `filter`, oldest first: the newest `limit` of them (default 100). */
  query(filter: JournalFilter): JournalEntry[] {
    const match = matcher(filter);
    const limit = filter.limit ?? 100;
    const out: JournalEntry[] = [];
    for (let i = this.entries.length - 1; i >= this.start && out.length < limit; i--) {
      const e = this.entries[i]!;
      if (match(e)) out.push(e);
    }
    return out.reverse();
  }

  /** How many kept entries match `filter` (its `limit` ignored). */
  count(filter: JournalFilter): number {
    const match = matcher(filter);
    let n = 0;
    for (let i = this.start; i < this.entries.length; i++) if (match(this.entries[i]!)) n++;
    return n;
  }

  /** Adds a listener; returns its removal. */
  listen(listener: JournalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The filter of the journal's query parameters; throws 400 problem details naming a bad one. Unknown
 * parameters are refused too (a misspelt filter would silently match everything).
 */
export function filterOf(query: URLSearchParams, maxLimit: number): JournalFilter {
  const known = new Set(['method', 'path', 'status', 'organization', 'key', 'since', 'limit']);
  const filter: JournalFilter = {};
  for (const [name, value] of query) {
    if (!known.has(name)) throw invalid('query', name, `is not a journal filter (${[...known].join(', ')})`);
    if (value.length > 500) throw invalid('query', name, 'is longer than 500 characters');
  }
  const get = (name: string) => query.get(name) ?? undefined;
  if (get('method')) filter.method = get('method')!.toUpperCase();
  if (get('path')) filter.path = get('path');
  const status = get('status');
  if (status) {
    if (!/^[1-5](\d\d|xx)$/i.test(status)) throw invalid('query', 'status', 'must be a status (404) or a class (4xx)');
    filter.status = status.toLowerCase();
  }
  if (get('organization')) filter.organization = get('organization');
  if (get('key')) filter.key = get('key');
  const since = get('since');
  if (since) {
    if (!/^\d+$/.test(since) && Number.isNaN(Date.parse(since))) throw invalid('query', 'since', 'must be a sequence number or an ISO 8601 time');
    filter.since = since;
  }
  const limit = get('limit');
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > maxLimit) throw invalid('query', 'limit', `must be an integer from 1 to ${maxLimit}`);
    filter.limit = Number(limit);
  }
  return filter;
}

/** A predicate for `filter`. */
export function matcher(filter: JournalFilter): (e: JournalEntry) => boolean {
  const path = filter.path;
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  const since = filter.since;
  const sinceSeq = since !== undefined && /^\d+$/.test(since) ? Number(since) : undefined;
  const sinceTime = since !== undefined && sinceSeq === undefined ? Date.parse(since) : undefined;
  const status = filter.status;
  return (e) =>
    (filter.method === undefined || e.method === filter.method) &&
    (path === undefined || (prefix !== undefined ? e.path.startsWith(prefix) : e.path === path || e.operationId === path)) &&
    (status === undefined || (status.endsWith('xx') ? Math.floor(e.status / 100) === Number(status[0]) : e.status === Number(status))) &&
    (filter.organization === undefined || e.organization === filter.organization) &&
    (filter.key === undefined || e.key?.id === filter.key || (filter.key.length === 4 && e.key?.masked.endsWith(filter.key) === true)) &&
    (sinceSeq === undefined || e.seq > sinceSeq) &&
    (sinceTime === undefined || Date.parse(e.time) > sinceTime);
}
