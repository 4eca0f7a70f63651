/** A gate a call must pass before it starts (e.g. a spending budget), and the decorator that consults it. */
import type { Provider, ProviderRequest, ProviderResult } from './provider.js';

/** An admitted call; `settle` is told how it ended (the result, or null when it failed). */
export interface CallTicket {
  settle(result: ProviderResult | null): void;
}

/** Admits a call (returning its ticket) or refuses it by throwing; must not wait. */
export interface CallGate {
  admit(request: ProviderRequest): CallTicket;
}

/** Wraps a provider so every call first passes `gate`; place it inside the cache, so cache hits never reach it. */
export function withGate(provider: Provider, gate: CallGate): Provider {
  return {
    id: provider.id,
    async generate(request, signal) {
      const ticket = gate.admit(request);
      let result: ProviderResult | null = null;
      try {
        result = await provider.generate(request, signal);
        return result;
      } finally {
        ticket.settle(result);
      }
    },
  };
}
