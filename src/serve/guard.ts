/**
 * Who may use the endpoint. It spends the operator's key, so, as the viewer does, it answers only requests
 * addressed to it by a loopback name (a foreign Host is DNS rebinding: 421), refuses requests a web page sent
 * from another origin (403: a page's cross-site POST carries its Origin), and, with `--api-key`, requests that
 * do not carry that key (as `Authorization: Bearer` or Anthropic's `x-api-key`).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ServeFailure } from './failures.js';

/** What the guard checks against. */
export interface GuardPolicy {
  /** The port the server listens on (Host and Origin name it). */
  port: number;
  /** Host names accepted besides the loopback ones (`--host`). */
  hosts: readonly string[];
  /** The key clients must send, when set. */
  apiKey?: string;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values (`name:port`) the server answers to. */
function allowedHosts(policy: GuardPolicy): Set<string> {
  return new Set([...LOOPBACK, ...policy.hosts].map((name) => `${name}:${policy.port}`));
}

/** Why a request may not be served, or null when it may. */
export function refusal(request: IncomingMessage, policy: GuardPolicy): ServeFailure | null {
  const hosts = allowedHosts(policy);
  const host = (request.headers.host ?? '').toLowerCase();
  if (!hosts.has(host))
    return {
      status: 421,
      kind: 'invalid_request',
      message: `apb serve answers only to ${[...hosts].join(', ')} (Host: ${host.slice(0, 100) || 'none'}); --host NAME adds a name`,
    };
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.has(originHost(origin)))
    return {
      status: 403,
      kind: 'permission',
      message: `apb serve refuses requests from another origin (${origin.slice(0, 100)})`,
    };
  if (policy.apiKey !== undefined && !carriesKey(request, policy.apiKey))
    return {
      status: 401,
      kind: 'authentication',
      message: 'apb serve --api-key: send the key as Authorization: Bearer KEY (or x-api-key: KEY)',
    };
  return null;
}

/** `http://host:port` → `host:port` (empty for an origin that is not an http URL, e.g. `null`). */
function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}

function carriesKey(request: IncomingMessage, key: string): boolean {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  const header = request.headers['x-api-key'];
  const given = [bearer, typeof header === 'string' ? header.trim() : undefined];
  return given.some((value) => value !== undefined && sameSecret(value, key));
}

/** Constant-time comparison, so the key cannot be guessed a character at a time. */
function sameSecret(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}
