/**
 * Prepared scripts by source, least recently used dropped first. An entry remembers in which
 * runtime generation it was compiled; evicted ids are handed to the kernel to forget.
 */
import type { Preparation } from './analyze.ts'

export interface CacheEntry {
  id: number
  prepared: Preparation
  /** Runtime generation holding the compiled function, or -1. */
  compiledIn: number
}

export class ScriptCache {
  private readonly entries = new Map<string, CacheEntry>()
  private nextId = 1
  /** Evicted entries the current runtime compiled: to forget after the next batch. */
  private evicted: CacheEntry[] = []

  constructor(
    private readonly size: number,
    private readonly prepare: (source: string) => Preparation
  ) {}

  get(source: string): CacheEntry {
    let entry = this.entries.get(source)
    if (entry) {
      this.entries.delete(source)
    } else {
      entry = { id: this.nextId++, prepared: this.prepare(source), compiledIn: -1 }
      if (this.entries.size >= this.size) {
        const [oldest, old] = this.entries.entries().next().value!
        this.entries.delete(oldest)
        if (old.compiledIn >= 0) this.evicted.push(old)
      }
    }
    this.entries.set(source, entry)
    return entry
  }

  /** Ids the given generation compiled and the cache no longer holds. */
  takeEvicted(generation: number): number[] {
    const ids = this.evicted.filter((e) => e.compiledIn === generation).map((e) => e.id)
    this.evicted = []
    return ids
  }

  get length(): number {
    return this.entries.size
  }
}

/** `make(key)`, kept for the last `limit` keys asked: the oldest is dropped first. */
export function keptFor<T>(limit: number, make: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>()
  return (key) => {
    let value = kept.get(key)
    if (value === undefined) {
      value = make(key)
      if (kept.size >= limit) kept.delete(kept.keys().next().value!)
      kept.set(key, value)
    }
    return value
  }
}
