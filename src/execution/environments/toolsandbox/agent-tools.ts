/**
 * The tool list each scenario's agent is offered, as ToolSandbox's agents build it (exported to
 * `data/toolsandbox/tools.json` by `scripts/toolsandbox/export_tools.py`): OpenAI-style function
 * specs with the variant's scrambling applied, and the map from the agent-facing name (scrambled
 * in the tool-name variant) to the tool that runs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../../errors.js';
import type { ToolSpec } from '../../environment.js';

const Spec = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
const File = z.object({
  tool_lists: z.array(z.array(Spec)),
  scenarios: z.record(
    z.string(),
    z.object({ tools: z.number().int(), names: z.record(z.string(), z.string()) }),
  ),
});

/** A scenario's agent tools. */
export interface AgentTools {
  specs: ToolSpec[];
  /** agent-facing name -> execution-facing name. */
  names: Record<string, string>;
}

/** The tools file shipped in data/. */
export function agentToolsFile(): string {
  return fileURLToPath(new URL('../../../../data/toolsandbox/tools.json', import.meta.url));
}

/** Every scenario's agent tools by scenario name. */
export function loadAgentTools(file = agentToolsFile()): Map<string, AgentTools> {
  const parsed = File.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError([
      { file, line: 1, field: issue.path.map(String).join('.'), message: issue.message },
    ]);
  }
  const lists = parsed.data.tool_lists.map((list) =>
    list.map((spec): ToolSpec => ({
      name: spec.function.name,
      description: spec.function.description ?? '',
      parameters: spec.function.parameters,
    })),
  );
  const out = new Map<string, AgentTools>();
  for (const [name, entry] of Object.entries(parsed.data.scenarios)) {
    const specs = lists[entry.tools];
    if (!specs) throw new Error(`${file}: ${name}: no tool list ${entry.tools}`);
    out.set(name, { specs, names: entry.names });
  }
  return out;
}
