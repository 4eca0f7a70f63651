/** What running one step takes (types only): the step, its inputs and output, and what it needs from outside construction. */
import type { Limits } from '../limits.js';
import type { ImportEnvironment } from './import-environment.js';
import type { ConstructionModel } from './model.js';
import type { StepSpec } from './step-spec.js';

/** What a step needs from outside construction: the execution environments and judged runs. */
export interface StepDeps {
  /** An execution environment by id (`tau2:retail`). */
  environment(id: string): ImportEnvironment;
  /** Ids of the cases a run directory solved (every judged repeat correct). */
  solvedBy(runDir: string): Promise<ReadonlySet<string>>;
}

/** One step to run. */
export interface StepRun {
  spec: StepSpec;
  inputs: string[];
  out: string;
  seed: number;
  model?: ConstructionModel | undefined;
  onItem?: ((done: number, total: number) => void) | undefined;
  /** What the provenance header records (inputs and options as the user wrote them, not as resolved). */
  recorded?: { inputs: string[]; spec: StepSpec };
  /** The caps inputs are read and attachments copied under; default `DEFAULT_LIMITS`. */
  limits?: Limits | undefined;
}
