/** The exec report: Table 3 at the paper's decimals, and untrusted conversation text escaped in the case browser. */
import { describe, expect, it } from 'vitest';
import { execOutcomes } from '../execution/exec-outcomes.js';
import type { ExecScores } from '../execution/exec-scores.js';
import type { ExecutionLine } from '../execution/records.js';
import { table3 } from '../metrics/executable.js';
import { readFileSync } from 'node:fs';
import { table3Report } from '../metrics/executable-pooled.js';
import { compareTable3, setupDifferences } from './exec-paper.js';
import { execHtml, execMarkdown } from './exec-report.js';

const line: ExecutionLine = {
  schema_version: 1,
  task_id: '7',
  env: 'tau2:retail',
  mode: 'direct',
  model: 'openai:gpt-4o',
  user_model: 'openai:gpt-4o',
  trial: 0,
  reward: 0,
  reward_info: { db: 0, communicate: null, action: null, nl_assertion: null },
  termination: 'user_stop',
  stop_signal: '###STOP###',
  steps: 3,
  tool_errors: 0,
  messages: [
    { role: 'assistant', content: 'Hi! How can I help you today?' },
    { role: 'user', content: '<script>alert(1)</script>' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', name: 'get_order_details', arguments: { order_id: '<img src=x>' } }],
    },
  ],
  usage: {
    agent: { calls: 1, cached_calls: 0, input_tokens: 1, output_tokens: 1 },
    user: { calls: 1, cached_calls: 0, input_tokens: 1, output_tokens: 1 },
  },
  reward_details: {
    db_differences: [
      {
        collection: 'orders',
        key: '#W1',
        expected: { status: 'cancelled' },
        actual: { status: 'pending' },
      },
    ],
  },
  apb: {
    nl_judge: null,
    agent_prompt_version: 'a',
    user_prompt_version: 'u',
    planner_prompt_version: null,
    started_at: '',
    finished_at: '',
  },
};

const scores: ExecScores = {
  schema_version: 1,
  executions: 1,
  openings: 1,
  terminations: { user_stop: 1 },
  ...execOutcomes([line]),
  usage: {
    agent: {
      model: 'openai:gpt-4o',
      calls: 1,
      cached_calls: 0,
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: 0.00001,
    },
  },
  tables: {
    table3: table3([
      {
        env: 'tau2:retail',
        model: 'openai:gpt-4o',
        mode: 'direct',
        taskId: '7',
        trial: 0,
        reward: 0.5366,
        rewardIfNlMet: 0.5366,
        infrastructureError: false,
        planBefore: null,
        planAfter: null,
      },
      {
        env: 'tau2:retail',
        model: 'openai:gpt-4o',
        mode: 'refine',
        taskId: '7',
        trial: 0,
        reward: 1,
        rewardIfNlMet: 1,
        infrastructureError: false,
        planBefore: { is_correct: false, grade: 0.4 },
        planAfter: { is_correct: true, grade: 0.8 },
      },
    ]),
  },
};

describe('exec report', () => {
  it("prints Table 3 at the paper's decimals with before → after", () => {
    const markdown = execMarkdown(scores);
    expect(markdown).toContain(
      '| tau2:retail | openai:gpt-4o | reward | 0.54 | – | 1.00 | 0.0 → 100.0 | 0.40 → 0.80 | 1 | 1 |',
    );
  });

  it('escapes conversation text and tool arguments, and shows the database difference', () => {
    const html = execHtml(scores, [line]);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Database difference');
    expect(html).toContain('#W1');
    // Pretty-printed and wrapped in a fixed-width table, so a long record is never cut at the right.
    expect(html).toContain('<table class="data db-diff">');
    expect(html).toContain(`<pre>${'{\n  &quot;status&quot;: &quot;cancelled&quot;\n}'}</pre>`);
    expect(html).toMatch(/table\.db-diff td \{ white-space: normal;[^}]*overflow-wrap: anywhere/);
    // The same sections as the Markdown report: terminations and usage and cost by role.
    for (const heading of ['Terminations', 'Usage and cost by role'])
      expect(html).toContain(`<h2>${heading}</h2>`);
  });

  it("compares the pooled tau2 row (never a domain's) with the paper's row of the same model, at the paper's decimals", () => {
    const paperJson = JSON.parse(
      readFileSync(new URL('../../data/paper-tables.json', import.meta.url), 'utf8'),
    ) as unknown;
    const ours = table3Report([
      {
        env: 'tau2:retail',
        model: 'openai:gpt-4o',
        mode: 'direct',
        taskId: '1',
        trial: 0,
        reward: 0.5366,
        rewardIfNlMet: 0.5366,
        infrastructureError: false,
        planBefore: null,
        planAfter: null,
      },
      {
        env: 'tau2:retail',
        model: 'openai:gpt-4o',
        mode: 'refine',
        taskId: '1',
        trial: 0,
        reward: 0.6,
        rewardIfNlMet: 0.6,
        infrastructureError: false,
        planBefore: { is_correct: false, grade: 0.54 },
        planAfter: { is_correct: true, grade: 0.78 },
      },
      {
        env: 'tau2:retail',
        model: 'openai-compatible:my-own-model',
        mode: 'direct',
        taskId: '1',
        trial: 0,
        reward: 1,
        rewardIfNlMet: 1,
        infrastructureError: false,
        planBefore: null,
        planAfter: null,
      },
    ]);
    const [gptRetail, otherRetail, gpt, other] = compareTable3(ours, paperJson);
    // The domain rows are listed as not compared; the pooled rows are compared.
    expect(gptRetail).toMatchObject({ env: 'tau2:retail', cells: [] });
    expect(gptRetail!.notCompared).toContain('pooled tau2 row');
    expect(otherRetail!.notCompared).toBeDefined();
    expect(gpt).toMatchObject({ env: 'tau2', model: 'openai:gpt-4o' });
    expect(gpt!.paperModel).toBe('GPT-4o');
    const cell = (column: string) => gpt!.cells.find((item) => item.column === column)!;
    expect(cell('direct')).toMatchObject({ oursRounded: 0.54, paper: 0.54, matches: true });
    expect(cell('refine')).toMatchObject({ oursRounded: 0.6, paper: 0.63, matches: false });
    expect(cell('apb_grade_after')).toMatchObject({ oursRounded: 0.78, matches: true });
    expect(cell('plan_first')).toMatchObject({ ours: null, matches: false });
    expect(other).toMatchObject({ env: 'tau2', paperModel: null, cells: [] });
    const differences = setupDifferences(ours, {
      user_models: ['openai:gpt-4o'],
      critics: ['openai:gpt-4o'],
      plan_judges: ['rules'],
    });
    expect(differences[0]).toBe(
      "tasks: ours pools 1 (retail 1); the paper's row pools 200 τ²-bench tasks",
    );
    expect(differences).toContain(
      "plan judge: the structural `rules` judge, not the paper's LLM judge protocol",
    );
    expect(execMarkdown(scores, [gpt!, other!])).toContain('## Compared with the paper (Table 3)');
  });
});
