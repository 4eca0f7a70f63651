/** Prompt versions per split for the manifest: a prompt's version depends on its setting and options, never on the case. */
import { SPLIT_REGIME, type CaseInput, type SplitName } from '../dataset/case.js';

/** A minimal input of a split's regime, enough to ask a setting for its prompt version. */
export function emptyCaseInput(split: SplitName): CaseInput {
  const regime = SPLIT_REGIME[split];
  return {
    regime,
    query: '',
    systemPrompt: null,
    tools: [],
    files: [],
    trajectoryPrefix: [],
    horizon: regime === 'Step-wise' ? 1 : null,
  };
}
