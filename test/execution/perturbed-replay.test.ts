/**
 * Perturbed replays: a task's reference actions changed one way, replayed, and scored. Each expected
 * reward is derived by hand from tau2-bench's rules (the comment on each case says which):
 * the reward is the product of the components in the task's basis; DB compares the final database
 * with the one the reference actions leave (key order ignored, list order kept); only mutating
 * calls can change it; COMMUNICATE looks for each string in the agent's messages, lower-cased,
 * commas removed; an ending other than agent_stop/user_stop scores 0.
 * Retail tasks used here have no NL assertion (reward exact without a judge) unless stated.
 */
import { describe, expect, it } from 'vitest';
import type { ExecTask, Termination } from '../../src/execution/environment.js';
import type { NlAssertionJudge } from '../../src/execution/nl-assertions.js';
import { loadEnvironment } from '../../src/execution/registry.js';
import { goldReplay, replayTask, type ReplayScript } from '../../src/execution/replay.js';
import { computeReward, type RewardResult } from '../../src/execution/reward.js';

type Action = ReplayScript['actions'][number];

interface Perturbation {
  env: 'tau2:retail' | 'tau2:airline';
  task: string;
  /** What was done to the gold script, and why tau2 gives the expected reward. */
  why: string;
  actions?: (gold: Action[]) => Action[];
  messages?: (gold: string[]) => string[];
  termination?: Termination;
  nlJudge?: NlAssertionJudge;
  reward: number | null;
  db?: 0 | 1;
  communicate?: 0 | 1;
}

const writes = (actions: Action[], ...names: string[]) =>
  actions.filter((action) => names.includes(action.name));
const withoutLast = (actions: Action[], name: string) => {
  const index = actions.map((action) => action.name).lastIndexOf(name);
  return actions.filter((_, position) => position !== index);
};
const edit = (
  actions: Action[],
  name: string,
  change: (args: Record<string, unknown>) => Record<string, unknown>,
) =>
  actions.map((action) =>
    action.name === name ? { name, arguments: change(structuredClone(action.arguments)) } : action,
  );
const RETAIL_WRITES = [
  'cancel_pending_order',
  'exchange_delivered_order_items',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
];

/** A named fake NL judge: answers every assertion with `met`, or fails to read the reply. */
const fakeNlJudge = (met: boolean | 'unreadable'): NlAssertionJudge => ({
  id: `fake-nl-judge(${String(met)})`,
  judge: async ({ assertions }) =>
    met === 'unreadable'
      ? { ok: false, reason: 'the reply holds no JSON object with a "results" list', usage: null }
      : {
          ok: true,
          checks: assertions.map((assertion, index) => ({
            assertion,
            met: index === 0 ? met : true,
            justification: '',
          })),
          usage: null,
        },
});

const CASES: Perturbation[] = [
  // Retail.
  {
    env: 'tau2:retail',
    task: '0',
    why: 'the exchange (the only write) dropped: the order stays delivered',
    actions: (gold) => withoutLast(gold, 'exchange_delivered_order_items'),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'an argument changed: another available keyboard variant (white backlight) is requested',
    actions: (gold) =>
      edit(gold, 'exchange_delivered_order_items', (args) => ({
        ...args,
        new_item_ids: ['6342039236', '7747408585'],
      })),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'both item lists permuted alike: tau2 stores them sorted and the price difference is the same sum',
    actions: (gold) =>
      edit(gold, 'exchange_delivered_order_items', (args) => ({
        ...args,
        item_ids: [...(args.item_ids as string[])].reverse(),
        new_item_ids: [...(args.new_item_ids as string[])].reverse(),
      })),
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'every lookup dropped, the write kept: DB compares end states only',
    actions: (gold) => writes(gold, ...RETAIL_WRITES),
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'the exchange sent twice: the second fails (the order is no longer delivered) and changes nothing',
    actions: (gold) => [...gold, gold.at(-1)!],
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'extra calls: a hallucinated tool, a failing write on a delivered order, reads',
    actions: (gold) => [
      { name: 'refund_everything', arguments: {} },
      ...gold,
      {
        name: 'modify_pending_order_address',
        arguments: {
          order_id: '#W2378156',
          address1: 'x',
          address2: '',
          city: 'x',
          state: 'x',
          country: 'x',
          zip: '1',
        },
      },
      { name: 'list_all_product_types', arguments: {} },
    ],
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '0',
    why: 'the gold actions, but the conversation hit the step limit: not evaluated, 0',
    termination: 'max_steps',
    reward: 0,
  },
  {
    env: 'tau2:retail',
    task: '32',
    why: 'the first cancellation given the other allowed reason: cancel_reason differs',
    actions: (gold) =>
      gold.map((action, index) =>
        index === gold.findIndex((candidate) => candidate.name === 'cancel_pending_order')
          ? { name: action.name, arguments: { ...action.arguments, reason: 'ordered by mistake' } }
          : action,
      ),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '81',
    why: "an extra cancel of the user's third pending order",
    actions: (gold) => [
      ...gold,
      {
        name: 'cancel_pending_order',
        arguments: { order_id: '#W9154975', reason: 'no longer needed' },
      },
    ],
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '81',
    why: 'the two cancellations swapped: independent orders refunded to PayPal, same end state',
    actions: (gold) => [...gold].reverse(),
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '13',
    why: 'the returned items listed in another order: tau2 stores return_items sorted',
    actions: (gold) =>
      edit(gold, 'return_delivered_order_items', (args) => ({
        ...args,
        item_ids: [...(args.item_ids as string[])].reverse(),
      })),
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '33',
    why: 'DB-only task: the new address with another zip',
    actions: (gold) => edit(gold, 'modify_user_address', (args) => ({ ...args, zip: '98196' })),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '22',
    why: 'both user-address changes dropped: the second restores the original address, so the end state is the same',
    actions: (gold) => gold.filter((action) => action.name !== 'modify_user_address'),
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '22',
    why: 'the two user-address changes swapped: the user ends at "101 Highway"',
    actions: (gold) => {
      const [a, b] = [
        gold.findIndex((x) => x.name === 'modify_user_address'),
        gold.map((x) => x.name).lastIndexOf('modify_user_address'),
      ];
      const out = [...gold];
      [out[a], out[b]] = [out[b]!, out[a]!];
      return out;
    },
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '10',
    why: 'a task with no write (a transfer): an extra cancel of a delivered order is refused and changes nothing',
    actions: (gold) => [
      ...gold,
      {
        name: 'cancel_pending_order',
        arguments: { order_id: '#W7387996', reason: 'no longer needed' },
      },
    ],
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '10',
    why: 'a task with no write (a transfer): an extra return of a delivered order goes through',
    actions: (gold) => [
      ...gold,
      {
        name: 'return_delivered_order_items',
        arguments: {
          order_id: '#W7387996',
          item_ids: ['5796612084'],
          payment_method_id: 'paypal_9497703',
        },
      },
    ],
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:retail',
    task: '2',
    why: 'NL task, gold actions, a judge that finds the first assertion unmet: NL_ASSERTION 0',
    nlJudge: fakeNlJudge(false),
    reward: 0,
    db: 1,
  },
  {
    env: 'tau2:retail',
    task: '2',
    why: 'NL task, gold actions, an unreadable judge reply: never counted as met, reward null',
    nlJudge: fakeNlJudge('unreadable'),
    reward: null,
    db: 1,
  },
  // Airline: the basis is DB × COMMUNICATE for every task.
  {
    env: 'tau2:airline',
    task: '3',
    why: 'the required message ("4") not said',
    messages: () => [],
    reward: 0,
    db: 1,
    communicate: 0,
  },
  {
    env: 'tau2:airline',
    task: '3',
    why: 'the required "4" said inside a sentence',
    messages: () => ['You can bring 4 checked bags in total.'],
    reward: 1,
    communicate: 1,
  },
  {
    env: 'tau2:airline',
    task: '7',
    why: '"1628" said as "$1,628.00": tau2 removes commas before looking',
    messages: () => ['The refund comes to $1,628.00.'],
    reward: 1,
    communicate: 1,
  },
  {
    env: 'tau2:airline',
    task: '7',
    why: 'the final cancellation dropped',
    actions: (gold) => withoutLast(gold, 'cancel_reservation'),
    reward: 0,
    db: 0,
    communicate: 1,
  },
  {
    env: 'tau2:airline',
    task: '14',
    why: 'only two of the three required amounts said',
    messages: (gold) => gold.slice(0, 2),
    reward: 0,
    db: 1,
    communicate: 0,
  },
  {
    env: 'tau2:airline',
    task: '19',
    why: 'the cancellation sent twice: tau2 appends the refunds again (not idempotent)',
    actions: (gold) => [...gold, gold.at(-1)!],
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:airline',
    task: '19',
    why: "an extra cancel of the user's other reservation",
    actions: (gold) => [
      ...gold,
      { name: 'cancel_reservation', arguments: { reservation_id: 'K67C4W' } },
    ],
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:airline',
    task: '12',
    why: 'the baggage change paid with a certificate: refused ("Certificate cannot be used…"), the bags stay as they were',
    actions: (gold) =>
      edit(gold, 'update_reservation_baggages', (args) => ({
        ...args,
        payment_id: 'certificate_6730850',
      })),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:airline',
    task: '33',
    why: 'the flight change and the baggage change swapped on one reservation: same fields set, same payments in the same order',
    actions: (gold) => {
      const out = [...gold];
      const [a, b] = [
        out.findIndex((x) => x.name === 'update_reservation_flights'),
        out.findIndex((x) => x.name === 'update_reservation_baggages'),
      ];
      [out[a], out[b]] = [out[b]!, out[a]!];
      return out;
    },
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:airline',
    task: '42',
    why: 'the two cancellations swapped: each changes only its own reservation',
    actions: (gold) => {
      const out = [...gold];
      const [a, b] = [
        out.findIndex((x) => x.name === 'cancel_reservation'),
        out.map((x) => x.name).lastIndexOf('cancel_reservation'),
      ];
      [out[a], out[b]] = [out[b]!, out[a]!];
      return out;
    },
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:airline',
    task: '0',
    why: 'a task the agent must refuse (no action): cancelling anyway',
    actions: () => [{ name: 'cancel_reservation', arguments: { reservation_id: 'EHGLP3' } }],
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:airline',
    task: '0',
    why: 'the refusal with lookups and a transfer to a human: nothing written',
    actions: () => [
      { name: 'get_user_details', arguments: { user_id: 'emma_kim_9957' } },
      { name: 'get_reservation_details', arguments: { reservation_id: 'EHGLP3' } },
      { name: 'transfer_to_human_agents', arguments: { summary: 'wants a refund' } },
    ],
    reward: 1,
    db: 1,
  },
  {
    env: 'tau2:airline',
    task: '8',
    why: 'the booking with one more (free) bag: the reservation differs',
    actions: (gold) => edit(gold, 'book_reservation', (args) => ({ ...args, total_baggages: 1 })),
    reward: 0,
    db: 0,
  },
  {
    env: 'tau2:airline',
    task: '8',
    why: 'the gold booking, but a model call failed after its retries: no result (null), never 0',
    termination: 'infrastructure_error',
    reward: null,
  },
];

async function score(perturbation: Perturbation): Promise<RewardResult> {
  const environment = loadEnvironment(perturbation.env);
  const task = environment.tasks.find(
    (candidate) => candidate.id === perturbation.task,
  ) as ExecTask;
  const gold = goldReplay(environment).scripts.get(task.id)!;
  const script: ReplayScript = {
    task_id: task.id,
    actions: perturbation.actions
      ? perturbation.actions(structuredClone(gold.actions))
      : gold.actions,
    messages: perturbation.messages ? perturbation.messages([...gold.messages]) : gold.messages,
  };
  const outcome = await replayTask(environment, task, script);
  return computeReward({
    environment,
    task,
    messages: outcome.messages,
    termination: perturbation.termination ?? outcome.termination,
    finalDatabase: outcome.finalDatabase,
    ...(perturbation.nlJudge ? { nlJudge: perturbation.nlJudge } : {}),
  });
}

describe("perturbed replays score as tau2-bench's rules give", () => {
  it('covers both domains with at least 20 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CASES.map((perturbation) => perturbation.env)).size).toBe(2);
  });

  it.each(
    CASES.map(
      (perturbation) =>
        [
          `${perturbation.env} task ${perturbation.task}: ${perturbation.why}`,
          perturbation,
        ] as const,
    ),
  )('%s', async (_name, perturbation) => {
    const result = await score(perturbation);
    expect(result.reward).toBe(perturbation.reward);
    if (perturbation.db !== undefined) expect(result.reward_info.db).toBe(perturbation.db);
    if (perturbation.communicate !== undefined)
      expect(result.reward_info.communicate).toBe(perturbation.communicate);
    // A database that differs always says where.
    expect(result.details.db_differences.length > 0).toBe(result.reward_info.db === 0);
  });
});
