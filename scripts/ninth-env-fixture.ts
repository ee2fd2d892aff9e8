// A ninth environment, ECHO, added through the README's steps ("Adding an environment"), for
// ninth-env.test.ts: the files an author writes and the one-line registrations they make.
// Applied to a scratch copy of the engine only; ECHO is never part of the real registry.

/** Step 1: the env file, and its id in ENV_IDS. */
export const ENV_FILE = {
  path: 'server/engine/envs/echo.ts',
  text: `// ECHO (a test fixture): the customer asks for today's date.
import { z } from 'zod';
import { PASS_THRESHOLD } from '../reward';
import type { EnvDefinition } from './types';

export interface EchoGoal {
  today: string;
}

export const echoEnv: EnvDefinition<EchoGoal, null> = {
  id: 'ECHO',
  name: 'Echo the date',
  description: "The customer asks for today's date.",
  passRule: 'the answered date is today',
  tools: ['datetime.now'],
  answerSchema: z.strictObject({ date: z.string().describe('today, YYYY-MM-DD') }),
  generate: (ctx) => ({ goal: { today: ctx.world.today }, state: null, opening: "Hi! What is today's date?", slots: [] }),
  nudges: ['So, what is the date?'],
  verify(goal, _state, answer, ctx) {
    const rTask = answer?.date === goal.today ? 1 : 0;
    return {
      rTask,
      isCorrect: rTask >= PASS_THRESHOLD,
      metrics: {},
      evidence: [{ text: 'answered ' + String(answer?.date), turns: [ctx.turn], ok: rTask === 1 }],
    };
  },
  recommendedIds: () => [],
  summarize: (goal) => ['wants to know the date (' + goal.today + ')'],
};
`,
};

export interface Edit {
  path: string;
  /** Text that is in the file today; `insert` goes right after it. */
  after: string;
  insert: string;
}

export const ENV_ID_EDIT: Edit = { path: 'server/engine/types.ts', after: "'BUNDLE', 'JOURNEY'", insert: ", 'ECHO'" };

/** Steps 2–4: every place that must name the new env, each a compile error until it does. */
export const REGISTRATIONS: Array<{ files: Array<{ path: string; text: string }>; edits: Edit[] }> = [
  {
    files: [],
    edits: [
      {
        path: 'server/engine/envs/registry.ts',
        after: "import { cartEnv } from './cart';\n",
        insert: "import { echoEnv } from './echo';\n",
      },
      { path: 'server/engine/envs/registry.ts', after: 'policyEnv, bundleEnv', insert: ', echoEnv' },
      { path: 'server/engine/envs/registry.ts', after: '  BUNDLE: bundleEnv,\n', insert: '  ECHO: echoEnv,\n' },
    ],
  },
  {
    files: [
      {
        path: 'server/engine/agents/oracle/echo.ts',
        text: `import type { EchoGoal } from '../../envs/echo';
import type { Episode } from '../../episode';
import type { Action } from '../../types';

export function echoOracle(episode: Episode): Action {
  const goal = episode.hiddenGoal().data as EchoGoal;
  return { assistant_message: 'Today is ' + goal.today + '.', tool_calls: [{ name: 'datetime.now', args: {} }], answer: { env: 'ECHO', done: true, date: goal.today } };
}
`,
      },
    ],
    edits: [
      {
        path: 'server/engine/agents/oracle.ts',
        after: "import { cartOracle } from './oracle/cart';\n",
        insert: "import { echoOracle } from './oracle/echo';\n",
      },
      { path: 'server/engine/agents/oracle.ts', after: '  BUNDLE: bundleOracle,\n', insert: '  ECHO: echoOracle,\n' },
    ],
  },
  {
    files: [
      {
        path: 'server/engine/agents/heuristic/echo.ts',
        text: `import type { Strategy } from './types';

export function createEchoStrategy(): Strategy {
  return {
    envId: 'ECHO',
    step(input) {
      const today = (input.results.find((r) => r.name === 'datetime.now')?.result as { today?: string } | null)?.today;
      if (today) return { message: 'Today is ' + today + '.', calls: [], answer: { date: today } };
      return { message: 'Let me check.', calls: [{ name: 'datetime.now', args: {} }] };
    },
  };
}
`,
      },
    ],
    edits: [
      {
        path: 'server/engine/agents/heuristic/index.ts',
        after: "import { createCartStrategy } from './cart';\n",
        insert: "import { createEchoStrategy } from './echo';\n",
      },
      {
        path: 'server/engine/agents/heuristic/index.ts',
        after: '  POLICY: createPolicyStrategy,\n',
        insert: '  ECHO: createEchoStrategy,\n',
      },
      {
        path: 'server/engine/agents/heuristic/journey.ts',
        after: 'export const REQUEST_PATTERNS: Record<AtomicEnvId, Array<[RegExp, number]>> = {\n',
        insert: "  ECHO: [[/today'?s date|what day is it/i, 4]],\n",
      },
      {
        path: 'server/engine/agents/heuristic/journey.ts',
        after: 'const REQUEST_WORDS: Record<AtomicEnvId, Array<[string, number]>> = {\n',
        insert: "  ECHO: [['date', 3]],\n",
      },
    ],
  },
  {
    files: [],
    edits: [
      { path: 'components/curriculum/colors.ts', after: "  JOURNEY: '#dc2626',\n", insert: "  ECHO: '#0891b2',\n" },
    ],
  },
];

/** The files a registration step names (where the compiler must complain while it is missing). */
export const REGISTERED_IN = [
  'server/engine/envs/registry.ts',
  'server/engine/agents/oracle.ts',
  'server/engine/agents/heuristic/index.ts',
  'server/engine/agents/heuristic/journey.ts',
  'components/curriculum/colors.ts',
];
