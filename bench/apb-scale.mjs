// The size of a full APB run, shared by the benchmarks.

/** The released splits with the paper's case counts (§3.1; 4,209 cases). */
export const SPLIT_SIZES = {
  holistic_planning: 1109,
  holistic_tool_extraneous: 750,
  holistic_unsolvable: 400,
  step_wise_planning: 900,
  step_wise_tool_extraneous: 750,
  step_wise_tool_broken: 300,
};
