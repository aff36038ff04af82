/**
 * The one home of state that outlives a run. A process may lint many times (tests, `report`,
 * an editor integration), so nothing about one run may stay behind in a module: per-run
 * analyses go through the run's memo (src/run-scope.ts). What remains here are values that
 * depend only on their key (an expression's text, a regex, an immutable object) and cost
 * enough to be worth keeping: every such cache is one of these three kinds, declared at module
 * level where it is used, and listed in docs/architecture.md ("State that outlives a run");
 * test/module-state.test.ts holds both to that.
 */

/** The most entries any keyed cache holds; a full cache is cleared (hostile input cannot grow it). */
export const CACHE_LIMIT = 10_000;

/** Values computed from a key (a string, usually), at most CACHE_LIMIT of them. */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  get(key: K, compute: (key: K) => V): V {
    if (this.#entries.has(key)) return this.#entries.get(key) as V;
    const value = compute(key);
    if (this.#entries.size >= CACHE_LIMIT) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }
}

/** Values derived from an immutable object, kept as long as the object lives. */
export class ObjectMemo<K extends object, V> {
  readonly #entries = new WeakMap<K, V>();

  get(key: K, compute: (key: K) => V): V {
    if (this.#entries.has(key)) return this.#entries.get(key) as V;
    const value = compute(key);
    this.#entries.set(key, value);
    return value;
  }
}

/** A value loaded once per process on first use (a library loaded on demand). */
export class Lazy<T> {
  #value: T | undefined;
  #loaded = false;

  get loaded(): boolean {
    return this.#loaded;
  }

  /** The value, loading it with `load` the first time. */
  get(load: () => T): T {
    if (!this.#loaded) {
      this.#value = load();
      this.#loaded = true;
    }
    return this.#value as T;
  }

  /** The value when loaded, else undefined. */
  peek(): T | undefined {
    return this.#value;
  }

  /** Sets the value loaded elsewhere (an asynchronous import). */
  set(value: T): void {
    this.#value = value;
    this.#loaded = true;
  }
}
