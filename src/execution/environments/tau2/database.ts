/**
 * A tau2 database as a frozen base shared by every session plus each session's copy-on-write
 * overlay. A fresh session costs nothing (a 2.8 MB retail database is loaded once per process),
 * an entity is cloned the first time a tool writes it, and two sessions of one base compare by
 * their changed entities only — the same verdict as tau2's hash of the whole `model_dump()`,
 * which sorts keys (so key order never matters) and keeps list order (so it does here).
 */
import type { DatabaseDifference, DatabaseState } from '../../environment.js';
import { orderedKeys } from './key-order.js';
import { jsonEqual, pyHasKey, ToolError } from './python.js';

/** An entity of a collection (a user, an order, a flight…), as plain JSON. */
export type Entity = Record<string, unknown>;

/** The loaded database: top-level collections of entities by key, deeply frozen. */
export type Collections = Readonly<Record<string, Readonly<Record<string, Entity>>>>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value as object)) deepFreeze(item);
  }
  return value;
}

/** Freezes a validated database so that a tool writing to it without `write()` fails loudly instead of leaking into other sessions. */
export function freezeCollections(
  collections: Record<string, Record<string, Entity>>,
): Collections {
  return deepFreeze(collections);
}

/** Deep equality as tau2's hash sees it: key order ignored, list order kept, -0 apart from 0 (json.dumps prints `-0.0`). */
export function sameJson(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b, Object.is);
}

/** One session's view of a database: reads fall through to the base, writes go to the overlay. */
export class SessionDatabase implements DatabaseState {
  /** collection → key → this session's version of the entity (cloned or inserted). */
  private readonly overlay = new Map<string, Map<string, Entity>>();

  constructor(private readonly base: Collections) {}

  private layer(collection: string): Map<string, Entity> {
    let layer = this.overlay.get(collection);
    if (!layer) this.overlay.set(collection, (layer = new Map()));
    return layer;
  }

  /** `key in db.<collection>` with Python's rules for non-string keys. */
  has(collection: string, key: unknown): boolean {
    return pyHasKey(
      {
        has: (name) =>
          this.overlay.get(collection)?.has(name) === true ||
          Object.hasOwn(this.base[collection] ?? {}, name),
      },
      key,
    );
  }

  /** The entity (read-only: frozen while it is still the base's), or undefined. */
  read(collection: string, key: string): Readonly<Entity> | undefined {
    return (
      this.overlay.get(collection)?.get(key) ??
      (Object.hasOwn(this.base[collection] ?? {}, key) ? this.base[collection]![key] : undefined)
    );
  }

  /** The entity, writable: cloned from the base on the first write of this session. */
  write(collection: string, key: string): Entity {
    const layer = this.layer(collection);
    const own = layer.get(key);
    if (own) return own;
    const original = this.base[collection]?.[key];
    if (!original) throw new ToolError(`${collection} ${key} not found`);
    const copy = structuredClone(original) as Entity;
    layer.set(key, copy);
    return copy;
  }

  /** Adds a new entity at the end of a collection (Python dict insertion order). */
  insert(collection: string, key: string, entity: Entity): void {
    this.layer(collection).set(key, entity);
  }

  /** Every key of a collection in Python dict order: the base's, then inserted ones. */
  keys(collection: string): string[] {
    const baseKeys = orderedKeys(this.base[collection] ?? {});
    const added = [...(this.overlay.get(collection)?.keys() ?? [])].filter(
      (key) => !Object.hasOwn(this.base[collection] ?? {}, key),
    );
    return added.length > 0 ? [...baseKeys, ...added] : [...baseKeys];
  }

  /** Every entity of a collection in dict order (read-only). */
  *values(collection: string): Generator<Readonly<Entity>> {
    for (const key of this.keys(collection)) yield this.read(collection, key)!;
  }

  private changedKeys(other: SessionDatabase): Map<string, Set<string>> {
    const changed = new Map<string, Set<string>>();
    for (const database of [this, other]) {
      for (const [collection, layer] of database.overlay) {
        const keys = changed.get(collection) ?? new Set<string>();
        for (const key of layer.keys()) keys.add(key);
        changed.set(collection, keys);
      }
    }
    return changed;
  }

  private comparable(other: DatabaseState): SessionDatabase {
    if (!(other instanceof SessionDatabase) || other.base !== this.base)
      throw new Error('databases of different environments cannot be compared');
    return other;
  }

  equals(other: DatabaseState): boolean {
    const that = this.comparable(other);
    for (const [collection, keys] of this.changedKeys(that))
      for (const key of keys)
        if (!sameJson(this.read(collection, key), that.read(collection, key))) return false;
    return true;
  }

  differences(expected: DatabaseState): DatabaseDifference[] {
    const that = this.comparable(expected);
    const found: DatabaseDifference[] = [];
    const changed = this.changedKeys(that);
    for (const collection of Object.keys(this.base)) {
      const keys = changed.get(collection);
      for (const key of keys ?? []) {
        const actual = this.read(collection, key);
        const wanted = that.read(collection, key);
        if (!sameJson(actual, wanted)) found.push({ collection, key, expected: wanted, actual });
      }
    }
    return found;
  }

  toJson(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const collection of Object.keys(this.base)) {
      const entities: Record<string, unknown> = {};
      for (const key of this.keys(collection)) entities[key] = this.read(collection, key);
      out[collection] = entities;
    }
    return out;
  }
}
