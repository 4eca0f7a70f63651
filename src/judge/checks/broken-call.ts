/** The failed call of a tool-broken case: the trajectory prefix's last call of the broken tool. */
import type { Case, ToolCall } from '../../dataset/case.js';

/** The call whose error ends the prefix (its last call of the broken tool), or null when the prefix holds none. */
export function brokenCallOf(caseItem: Case): ToolCall | null {
  const name = caseItem.reference.brokenToolName;
  if (!name) return null;
  const calls = caseItem.input.trajectoryPrefix.flatMap((message) => message.toolCalls);
  for (let index = calls.length - 1; index >= 0; index -= 1)
    if (calls[index]!.name === name) return calls[index]!;
  return null;
}
