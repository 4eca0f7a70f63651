/** The execution environments apb knows, by id (`--env`), each loaded once per process on first use. */
import { UsageError } from '../errors.js';
import type { Environment } from './environment.js';
import { createAirlineEnvironment } from './environments/tau2/airline/index.js';
import { createRetailEnvironment } from './environments/tau2/retail/index.js';
import { createTelecomEnvironment } from './environments/tau2/telecom/index.js';
import { createToolSandboxEnvironment } from './environments/toolsandbox/environment.js';

/** Environment id → its constructor. */
export const ENVIRONMENTS = {
  'tau2:retail': createRetailEnvironment,
  'tau2:airline': createAirlineEnvironment,
  'tau2:telecom': createTelecomEnvironment,
  // the 728 offline scenarios at the default clock; `apb exec --env toolsandbox` builds its own selection
  toolsandbox: () => createToolSandboxEnvironment(),
} satisfies Record<string, () => Environment>;

/** An environment id apb knows. */
export type EnvironmentId = keyof typeof ENVIRONMENTS;

const loaded = new Map<string, Environment>();

/** The environment `id`, loaded on first use; an unknown id is a usage error naming the known ones. */
export function loadEnvironment(id: string): Environment {
  if (!Object.hasOwn(ENVIRONMENTS, id))
    throw new UsageError(
      `--env must be one of ${Object.keys(ENVIRONMENTS).join(', ')}, got "${id}"`,
    );
  let environment = loaded.get(id);
  if (!environment) loaded.set(id, (environment = ENVIRONMENTS[id as EnvironmentId]()));
  return environment;
}
