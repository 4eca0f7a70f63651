/** Judge rubric of the holistic regime (paper Appendix C.1.2, C.5, C.8.2), in this project's words. */

/** The holistic rubric (C.1.2): principles, error categories, grades and the correctness rule. */
export const HOLISTIC_RUBRIC = `## Rubric: holistic plan

What counts is whether the plan would get the user's request done with the tools the planner was given: solvability, not resemblance to a reference.

Principles
- {{reference_principle}}
- Check all six error categories one by one. A plan can fail in several ways at once; keep looking after the first error you find.
- Walk the tool chain in order. For each call, ask whether its inputs are available at that point (from the request, the attachments or an earlier call), and whether a call the request needs is missing.
{{extra_principles}}
Error categories
- E1 goal misunderstanding: the plan misreads what the user fundamentally wants.
- E2 incompleteness: some required part of a multi-part request is never planned.
- E3 constraint violation: the plan breaks an explicit requirement of the request or of the planner's instructions and operating context.
- E4 logic error: a step lacks a premise it depends on, the order cannot work, the reasoning is circular, or the plan leaves the request unsolvable.
- E5 tool-use error: a tool is used for something it does not do, or is given the wrong kind of data.
- E6 hallucination: a tool that is not in the list is called, a claim contradicts common knowledge, or a step uses a result that no earlier step has produced yet.

Grades
- 1: no error in any category; the plan is sound and completes the request.
- 0.8: close to perfect; one minor, non-critical flaw, with roughly nine tenths of the core logic right.
- 0.6: the main line is right, but one key component is missing or flawed: on track, yet it would not finish the job.
- 0.4: some correct steps, but the overall sequence is wrong or breaks down.
- 0.2: deeply flawed; at most one simple step is right and the core logic fails.
- 0: no logical merit; the goal is misunderstood or the plan is made up.

Correctness: the plan is correct exactly when no error category applies, and then its grade is 1. Any error makes it incorrect, with a grade of at most 0.8.`;

/** The reference principle when a worked solution is shown. */
export const HOLISTIC_REFERENCE_PRINCIPLE =
  'The reference plan shows one way that works. If the answer takes a fundamentally different route, analyse whether that route is viable as well; never mark it wrong merely for being different.';

/** The reference principle of the blind ablation. */
export const HOLISTIC_BLIND_PRINCIPLE =
  'No reference plan is given. Work out from the request, the attachments and the tools whether the route the answer takes is viable.';

/** Tool-extraneous (paper C.5): the distractors are named in the REFERENCE block. */
export const EXTRANEOUS_PRINCIPLE =
  '- The tool list contained distractor tools, named in the REFERENCE block: they look related to the task but are not needed. A call to any of them, anywhere in the answer, is a critical tool-use error: set E5 and mark the answer incorrect.\n';

/** Tool-extraneous, blind: the distractors are not named. */
export const EXTRANEOUS_BLIND_PRINCIPLE =
  '- The tool list may contain distractor tools that look related to the task but are not needed. Calling a tool the request does not need is a tool-use error (E5).\n';

/** Efficiency-aware planning (paper C.8.2): a cheaper valid path than the reference is correct. */
export const EFFICIENCY_PRINCIPLE =
  '- The planner was told that every tool has a cost and that it must choose the cheapest chain that completes the request. A valid path is correct (grade 1) even where it departs from the reference or the obvious route by being cheaper, shorter or more direct: brevity is no fault while the logic holds. A cheaper chain that does not complete the request is still wrong. Cost is measured separately, so a valid plan is not an error merely for costing more.\n';
