// The port's tools answer what ToolSandbox's own tools answer: tool calls run through ToolSandbox
// under the frozen clock (fixture exported by scripts/toolsandbox/export_tool_cases.py, cases in
// scripts/toolsandbox/tool_cases.py; Apple's licence: data/toolsandbox/LICENSE), the rapidfuzz
// scores the searches rank by, the holidays package's US holidays, and pint's conversions.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defaultProcess,
  partialRatio,
  wRatio,
} from '../../src/execution/environments/toolsandbox/fuzzy.js';
import { loadScenarios } from '../../src/execution/environments/toolsandbox/scenarios.js';
import { ToolSandboxSession } from '../../src/execution/environments/toolsandbox/session.js';
import { toDicts } from '../../src/execution/environments/toolsandbox/tools-common.js';
import { ExecutionContext } from '../../src/execution/environments/toolsandbox/execution-context.js';
import { TOOLS } from '../../src/execution/environments/toolsandbox/tools.js';
import { convertUnits } from '../../src/execution/environments/toolsandbox/units.js';
import { usHolidays } from '../../src/execution/environments/toolsandbox/us-holidays.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/toolsandbox/${name}`, import.meta.url), 'utf8'));

interface Case {
  title: string;
  scenario: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  outputs: string[];
  tables: Record<'contact' | 'messaging' | 'reminder', Record<string, unknown>[]>;
}
const data = fixture('tool-cases.json') as {
  cases: Case[];
  fuzzy: { a: string; b: string; wratio: number; partial_ratio: number }[];
  us_holidays: Record<string, [string, string][]>;
};
const scenarios = new Map(loadScenarios().scenarios.map((s) => [s.name, s]));

describe('ToolSandbox tools, call by call as ToolSandbox answers', () => {
  it.each(data.cases.map((c) => [c.title, c] as const))('%s', (_title, want) => {
    const session = new ToolSandboxSession(scenarios.get(want.scenario)!.startingContext(), TOOLS);
    const outputs = want.calls.map(
      (call, i) => session.agentCalls([{ id: `call_${i}`, ...call }])[0]!.content,
    );
    expect(outputs).toEqual(want.outputs);
    for (const namespace of ['contact', 'messaging', 'reminder'] as const) {
      const rows = toDicts(namespace, session.context.getDatabase(namespace));
      expect(JSON.parse(JSON.stringify(rows)), namespace).toEqual(want.tables[namespace]);
    }
  });

  it('covers every agent tool but the RapidAPI ones and the distance', () => {
    const called = new Set(data.cases.flatMap((c) => c.calls.map((call) => call.name)));
    const agentTools = [...TOOLS.values()].filter((t) => t.visibleTo.includes('agent'));
    const missing = agentTools.map((t) => t.name).filter((name) => !called.has(name));
    expect(missing.sort()).toEqual([
      'calculate_lat_lon_distance',
      'convert_currency',
      'get_cellular_service_status',
      'get_current_location',
      'get_location_service_status',
      'get_low_battery_mode_status',
      'get_wifi_status',
      'search_lat_lon',
      'search_location_around_lat_lon',
      'search_stock',
      'search_weather_around_lat_lon',
      'set_location_service_status',
      'set_low_battery_mode_status',
    ]);
  });
});

describe('the tool set', () => {
  const file = JSON.parse(
    readFileSync(new URL('../../data/toolsandbox/tools.json', import.meta.url), 'utf8'),
  ) as { tool_lists: { function: { name: string; parameters: Record<string, unknown> } }[][] };

  it("has every tool of the agents' lists, with the parameters ToolSandbox offers", () => {
    const specs = new Map(
      file.tool_lists.flat().map((spec) => [spec.function.name, spec.function]),
    );
    const real = [...specs.values()].filter((spec) => !/_\d+$/.test(spec.name));
    expect(real).toHaveLength(33);
    for (const spec of real) {
      const tool = TOOLS.get(spec.name)!;
      expect(tool, spec.name).toBeDefined();
      if (tool.parameters.length === 0 && Object.keys(spec.parameters.properties ?? {}).length > 0)
        continue; // a RapidAPI tool: answered before any argument is bound
      const properties = Object.keys((spec.parameters.properties ?? {}) as object);
      expect(
        tool.parameters.map((p) => p.name),
        spec.name,
      ).toEqual(properties);
      const required = tool.parameters.filter((p) => p.required).map((p) => p.name);
      expect(required.sort(), spec.name).toEqual(
        [...((spec.parameters.required ?? []) as string[])].sort(),
      );
    }
    expect(TOOLS.size).toBe(34);
  });

  it('keeps each tool to its role (visible_to)', () => {
    const context = new ExecutionContext();
    const session = new ToolSandboxSession(context, TOOLS);
    const [asAgent] = session.agentCalls([{ id: 'a', name: 'end_conversation', arguments: {} }]);
    expect(asAgent!.content).toBe("NameError: name 'end_conversation' is not defined");
    expect(session.active).toBe(true);
    session.userEnds();
    expect(session.active).toBe(false);
  });
});

describe('rapidfuzz scores', () => {
  it(`WRatio and partial_ratio with default_process, ${data.fuzzy.length} pairs`, () => {
    for (const { a, b, wratio, partial_ratio } of data.fuzzy) {
      const [pa, pb] = [defaultProcess(a), defaultProcess(b)];
      expect(wRatio(pa, pb), `${a} | ${b}`).toBeCloseTo(wratio, 9);
      expect(partialRatio(pa, pb), `${a} | ${b}`).toBeCloseTo(partial_ratio, 9);
    }
  });

  it('default_process drops punctuation and case', () => {
    expect(defaultProcess("  New Year's Day (observed) ")).toBe('new year s day  observed');
  });
});

describe('US holidays', () => {
  it('lists what the holidays package lists, 1990 to 2060', () => {
    for (const [year, want] of Object.entries(data.us_holidays)) {
      const got = usHolidays(Number(year)).map((h) => [
        `${h.year}-${String(h.month).padStart(2, '0')}-${String(h.day).padStart(2, '0')}`,
        h.name,
      ]);
      expect(got, year).toEqual(want);
    }
  });
});

describe('unit conversion (pint)', () => {
  const { cases } = fixture('unit-conversions.json') as {
    cases: { amount: number; from: string; to: string; result?: string; error?: string }[];
  };
  it.each(cases.map((c) => [`${c.amount} ${c.from} -> ${c.to}`, c] as const))('%s', (_n, c) => {
    const tool = TOOLS.get('unit_conversion')!;
    const session = new ToolSandboxSession(scenarios.get('wifi_off')!.startingContext(), TOOLS);
    const args = { amount: c.amount, from_unit: c.from, to_unit: c.to };
    const [result] = session.agentCalls([{ id: 'c', name: tool.name, arguments: args }]);
    expect(result!.content).toBe(c.result ?? c.error);
  });
});
