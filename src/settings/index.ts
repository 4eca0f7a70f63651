/** The SETTINGS registry: one `Setting` per split. */
import type { SplitName } from '../dataset/case.js';
import { holisticEfficiency } from './efficiency-aware.js';
import { holisticPlanning } from './holistic.js';
import type { Setting } from './setting.js';
import { stepWisePlanning } from './step-wise.js';
import { stepWiseToolBroken } from './tool-broken.js';
import { holisticToolExtraneous, stepWiseToolExtraneous } from './tool-extraneous.js';
import { holisticUnsolvable } from './unsolvable.js';

export const SETTINGS = {
  holistic_planning: holisticPlanning,
  holistic_tool_extraneous: holisticToolExtraneous,
  holistic_unsolvable: holisticUnsolvable,
  holistic_efficiency: holisticEfficiency,
  step_wise_planning: stepWisePlanning,
  step_wise_tool_extraneous: stepWiseToolExtraneous,
  step_wise_tool_broken: stepWiseToolBroken,
} satisfies Record<SplitName, Setting>;

export type { Setting } from './setting.js';
