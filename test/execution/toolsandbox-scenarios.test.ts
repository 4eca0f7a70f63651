// The 1,032 ToolSandbox scenarios and their agent tool lists load from data/ (converted from
// ToolSandbox's own code; Apple's licence: data/toolsandbox/LICENSE).
import { describe, expect, it } from 'vitest';
import { loadAgentTools } from '../../src/execution/environments/toolsandbox/agent-tools.js';
import { loadScenarios, VARIANTS } from '../../src/execution/environments/toolsandbox/scenarios.js';

describe('ToolSandbox scenarios as data', () => {
  const { scenarios, clock } = loadScenarios();
  const tools = loadAgentTools();

  it('are all 1,032: 129 base x 8 variants, 38 base (304) needing the network', () => {
    expect(scenarios).toHaveLength(1032);
    expect(new Set(scenarios.map((s) => s.base)).size).toBe(129);
    for (const variant of VARIANTS)
      expect(scenarios.filter((s) => s.variant === variant)).toHaveLength(129);
    const network = scenarios.filter((s) => s.requiresNetwork);
    expect(network).toHaveLength(304);
    expect(new Set(network.map((s) => s.base)).size).toBe(38);
    expect(clock).toBe('2024-09-02T12:00:00+00:00');
  });

  it('each starts with a user turn after the system prompt and few-shot examples', () => {
    for (const s of scenarios) {
      const context = s.startingContext();
      expect(context.firstUserSandboxMessageIndex, s.name).toBeGreaterThan(0);
      expect(context.getDatabase('setting')).toHaveLength(1);
    }
  });

  it("offer the agent exactly the scenario's allowed agent tools, scrambled by variant", () => {
    for (const s of scenarios) {
      const offered = tools.get(s.name)!;
      const denied = s.toolDenyList ?? [];
      const allowed = (s.toolAllowList ?? []).filter(
        (name) => name !== 'end_conversation' && !denied.includes(name),
      );
      expect(Object.values(offered.names).sort(), s.name).toEqual([...allowed].sort());
      expect(offered.specs.map((spec) => spec.name).sort()).toEqual(
        Object.keys(offered.names).sort(),
      );
      const scrambled = Object.entries(offered.names).some(([agent, real]) => agent !== real);
      expect(scrambled, s.name).toBe(s.variant === '3_distraction_tools_tool_name_scrambled');
    }
  });

  it('add distraction tools to the base list: 3, 10, or every tool', () => {
    const byName = new Map(scenarios.map((s) => [s.name, s]));
    const base = byName.get('cellular_off')!;
    const size = (name: string) => byName.get(name)!.toolAllowList!.length;
    expect(size('cellular_off_3_distraction_tools')).toBe(base.toolAllowList!.length + 3);
    expect(size('cellular_off_10_distraction_tools')).toBe(base.toolAllowList!.length + 10);
    expect(size('cellular_off_all_tools')).toBe(34);
  });
});
