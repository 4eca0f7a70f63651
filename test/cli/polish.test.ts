/**
 * CLI polish through the real CLI: "did you mean" for near-miss values and flags, --ids that match
 * nothing, and `run --help` listing every kind of spec, the structural default judge, and each
 * default once.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('apb run: near misses and help', () => {
  it('suggests the nearest value for a mistyped judge, model, provider, choice or flag (exit 2, one line, no stack)', async () => {
    const cases: Array<[string[], string]> = [
      [['--judge', 'rule'], '--judge rule: not a known spec (did you mean "rules"?)'],
      [
        ['--model', 'heuristic'],
        '--model heuristic: not a known spec (did you mean "baseline:heuristic"?)',
      ],
      [['--model', 'opnai:gpt-4o'], '(did you mean "openai:gpt-4o"?)'],
      [
        ['--model', 'baseline:heurstic'],
        'unknown baseline "heurstic" (did you mean "baseline:heuristic"?)',
      ],
      [['--protocol', 'offical'], 'allowed values: paper, official (did you mean "official"?)'],
      [['--modle', 'baseline:oracle'], 'Did you mean --model?'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['run', ...args, '--limit', '1']);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('--ids that match no case exit 2 saying so, and write nothing', async () => {
    const result = await runCli([
      'run',
      '--ids',
      'no-such-case,nor-this',
      '--splits',
      'holistic_planning',
      '--out',
      '/tmp/apb-ids-none-never-written',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--ids matched no case in holistic_planning (no-such-case, nor-this)',
    );
  });

  it('run --help lists the providers, the baselines and rules, says the default judge is structural, and shows each default once', async () => {
    const help = (await runCli(['run', '--help'])).stdout;
    for (const text of [
      'openai-compatible:MODEL',
      'baseline:heuristic|oracle|refuse',
      'rules',
      "not comparable with the paper's LLM judge",
      'apb run --model openai:gpt-4o --model anthropic:claude-sonnet-4-5',
    ])
      expect(help).toContain(text);
    expect(help).not.toContain('(default: false)');
    for (const line of help.split(/\n(?=  --)/))
      expect(line.match(/default/gi)?.length ?? 0, line).toBeLessThanOrEqual(1);
  });
});
