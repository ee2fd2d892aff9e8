// policy.search: lexical search over the store's policy rules (world/policy-kb.ts).

import { z } from 'zod';
import { searchPolicies, type PolicyHit } from '../world/policy-search';
import { defineTool } from './registry';

export const POLICY_TOP_K_DEFAULT = 5;
export const POLICY_TOP_K_MAX = 20;

export const policySearch = defineTool({
  name: 'policy.search',
  description:
    'Search the store policy rules by keywords. Each rule states the conditions it applies to and its answer. When several rules on the same question apply, the one with the most conditions takes precedence.',
  args: z.strictObject({
    query: z.string().min(1).describe('keywords, e.g. "free shipping minimum basic member"'),
    top_k: z
      .int()
      .min(1)
      .max(POLICY_TOP_K_MAX)
      .default(POLICY_TOP_K_DEFAULT)
      .describe(`number of rules (1–${POLICY_TOP_K_MAX}, default ${POLICY_TOP_K_DEFAULT})`),
  }),
  run: (args, ctx): PolicyHit[] => searchPolicies(args.query, args.top_k, ctx.engineVersion),
  freshResult: true,
});
