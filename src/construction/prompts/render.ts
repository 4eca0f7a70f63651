/** Source records rendered for construction prompts, through the planner prompts' own renderers. */
import { normalizeTrajectoryEntry } from '../../dataset/normalize.js';
import type { TrajectoryEntry } from '../../dataset/record-schema.js';
import { renderTools, renderTrajectory } from '../../settings/render.js';
import { prefixEntry } from '../case-record.js';
import type { SourceRecord, SourceTool } from '../source-record.js';

/** The tool bank, one JSON object per line. */
export function toolsText(tools: readonly SourceTool[]): string {
  return renderTools([...tools], { showCost: tools.some((tool) => tool.cost !== undefined) });
}

/** The executed trajectory as numbered messages. */
export function trajectoryText(record: SourceRecord): string {
  return renderTrajectory(
    record.messages.flatMap((message) =>
      normalizeTrajectoryEntry(prefixEntry(message) as TrajectoryEntry),
    ),
  );
}

/** The task block every construction prompt starts from. */
export function taskText(record: Pick<SourceRecord, 'query' | 'system_prompt' | 'tools'>): string {
  const parts = [`## User query\n${record.query}`];
  if (record.system_prompt) parts.push(`## System prompt of the agent\n${record.system_prompt}`);
  parts.push(`## Tools\n${toolsText(record.tools)}`);
  return parts.join('\n\n');
}
