// The contract between the heuristic's dispatcher and its per-environment
// strategies. A strategy sees only what an agent sees: the customer's words and the
// results of its own tool calls.

import type { ProductCard } from '../../tools/catalog-tools';
import type { EnvId, ToolCall, ToolResult } from '../../types';

export interface TurnInput {
  /** The customer's latest message (the opening on the first turn). */
  message: string;
  /** Results of the calls this strategy made on its previous turn. */
  results: ToolResult[];
  /** Agent turns left, counting this one. */
  turnsLeft: number;
  /** Tool calls allowed this turn (B_tool). */
  budget: number;
}

export interface TurnOutput {
  message: string;
  calls: ToolCall[];
  /** Env-specific answer fields (no env / done); set when the request is answered this turn. */
  answer?: Record<string, unknown>;
}

export interface Strategy {
  envId: EnvId;
  step(input: TurnInput): TurnOutput;
}

/** Product card as catalog.search and user.get_visit_history return it. */
export type Card = ProductCard;
