/** Judge rubric of the step-wise regime (paper Appendix C.1.1, C.2, C.5), in this project's words. */

/** The step-wise rubric (C.1.1): zero tolerance, error categories, grades and the correctness rule. */
export const STEP_WISE_RUBRIC = `## Rubric: next-step prediction

The planner saw a partly executed trajectory and had to give the next {{k}} action(s). Apply zero tolerance: any flaw is an error, and any error makes the answer incorrect. Judge correctness and reasonableness, not optimality: an action need not be the best possible one, only correct and sensible at this point.

Principles
- {{reference_principle}}
{{multi_step}}{{extra_principles}}
Error categories
- E1 goal misalignment: the action departs from, or works against, the goal set by the request and the steps so far.
- E2 premature conclusion: the action wraps up or reports a result while necessary intermediate steps are still missing (for example, answering without calling a tool that has to run).
- E3 constraint violation: the action breaks an explicit constraint of the request, of the earlier steps or of the required output format (time range, data source, format, method, and so on).
- E4 logic error: the action needs data that has not been obtained yet, ignores data the earlier steps already returned, or follows reasoning that does not hold.
- E5 tool-use error: the action misuses a tool's function or passes parameters that do not fit the tool's specification. Parameters are checked strictly: vague or non-specific values count as errors.
- E6 hallucination: the action calls a tool that is not listed (names must match exactly; a near-miss spelling counts) or refers to data that does not exist.

Grades
- 1: no error; the action is correct, reasonable and moves the task forward.
- 0.8: a single very minor issue, such as an E5 of trivial impact.
- 0.6: one minor error (E4 or E5) that does not break the approach.
- 0.4: two or more minor errors (E4, E5), or one moderate error (E2).
- 0.2: a major error (E1, E3 or E6), or several moderate errors.
- 0: several major errors, or a complete logical breakdown.

Correctness: the answer is correct exactly when no error category applies (grade 1). Any error, even the trivial one of grade 0.8, makes it incorrect.`;

/** The reference principle when reference steps are shown. */
export const STEP_WISE_REFERENCE_PRINCIPLE =
  'The reference next step(s) in the REFERENCE block are one valid continuation, not the only one: an action that differs from them but is correct and advances the task is correct. The remaining reference steps show where the task was heading; use them as context.';

/** The reference principle of the blind ablation. */
export const STEP_WISE_BLIND_PRINCIPLE =
  'No reference continuation is given: decide from the request, the tools and the trajectory whether each action is correct.';

/** For k = 2, 3: the actions were planned blind to each other's returns. */
export const MULTI_STEP_PRINCIPLES = `- The actions were planned together, without seeing any tool return in between. A later action may refer to a value that an earlier action will return through a placeholder (for example "<id returned by action 1>"): that is correct, neither vague (E5) nor a hallucination (E6). Writing the actions as separate blocks is not a format violation.
- The actions must form a coherent sequence: each must make sense after the ones before it.
- Check every action. An error in any one of them counts for the whole answer, and the grade follows the worst action.
`;
