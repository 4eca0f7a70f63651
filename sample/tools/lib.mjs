/**
 * Small helpers shared by the sample's case definitions and by build-data.mjs.
 * Plain JavaScript so the generator runs with `node` alone (no build step).
 */
import { createHash } from 'node:crypto';

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * A parameter from a terse spec: `"string: text"`, `"integer: text"`, `"string[]: text"` (array of strings),
 * `"string[a|b|c]: text"` (enum).
 */
function parameter(spec) {
  const match = /^(\w+)(\[\]|\[[^\]]+\])?:\s*(.*)$/s.exec(spec);
  if (!match || !SCALARS.has(match[1])) throw new Error(`bad parameter spec: ${spec}`);
  const [, type, suffix, description] = match;
  if (suffix === '[]') return { type: 'array', items: { type }, description };
  if (suffix) return { type, enum: suffix.slice(1, -1).split('|'), description };
  return { type, description };
}

/**
 * A tool `{name, description, parameters}`. `params` maps a parameter name to its spec; a name ending
 * in `?` is optional, every other one is required.
 */
export function tool(name, description, params = {}) {
  const properties = {};
  const required = [];
  for (const [rawKey, spec] of Object.entries(params)) {
    const optional = rawKey.endsWith('?');
    const key = optional ? rawKey.slice(0, -1) : rawKey;
    properties[key] = parameter(spec);
    if (!optional) required.push(key);
  }
  return { name, description, parameters: { type: 'object', properties, required } };
}

/** The OpenAI shape of a tool: `{type: "function", function: {name, description, parameters}}`. */
export function openai(definition) {
  const { cost, ...fn } = definition;
  return cost === undefined ? { type: 'function', function: fn } : { type: 'function', function: fn, cost };
}

/** The inner `{name, description, parameters}` of either shape. */
export function inner(definition) {
  return definition.type === 'function' && definition.function ? definition.function : definition;
}

export const toolName = (definition) => inner(definition).name;

/** A reference tool-chain node `{name, parameter_description, reason}`. */
export function call(name, args, reason) {
  return { name, parameter_description: args, reason };
}

/** A deterministic PRNG seeded from a string (mulberry32 over the first 4 bytes of its SHA-256). */
export function rng(seedText) {
  let state = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle with a seeded PRNG (returns a new array). */
export function shuffle(items, seedText) {
  const random = rng(seedText);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Inserts `extras` into `base` at seeded positions, keeping the base order. At least one extra
 * lands before the last base tool, so the additions are never simply appended.
 */
export function insertAtShuffledPositions(base, extras, seedText) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const random = rng(`${seedText}#${attempt}`);
    const out = [...base];
    for (const extra of extras) out.splice(Math.floor(random() * (out.length + 1)), 0, extra);
    const lastBase = out.indexOf(base[base.length - 1]);
    if (extras.some((extra) => out.indexOf(extra) < lastBase)) return out;
  }
  throw new Error(`could not shuffle extras into ${seedText}`);
}
