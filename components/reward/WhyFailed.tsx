// The top of a failed episode's breakdown: the environment's pass rule (as the engine states it,
// EnvInfo.passRule) and the failing evidence lines that broke it, so "why did it fail" is
// answered before any scrolling.
import Link from 'next/link';
import type { EnvId, RewardBreakdown, TerminationReason } from '@/server/engine/types';
import { failureReasons } from '@/lib/pass-rules';
import { fmtTermination } from '@/lib/format';

export function WhyFailed({
  envId,
  passRule,
  breakdown,
  termination,
  episodeId,
}: {
  envId: EnvId;
  /** undefined for an env this build does not know (an imported episode): the rule line is left out */
  passRule: string | undefined;
  breakdown: RewardBreakdown;
  termination: TerminationReason | null;
  episodeId: string;
}) {
  const why = failureReasons(passRule ?? '', breakdown, termination);
  if (!why) return null;
  return (
    <div className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900" data-testid="why-failed">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-rose-700">Why it failed</h3>
      {why.rule !== '' && (
        <p className="mt-1 text-xs text-rose-800" data-testid="pass-rule">
          <span className="font-medium">{envId} passes when</span> {why.rule}.
        </p>
      )}
      {why.hardFail && (
        <p className="mt-1">
          Hard fail <span className="font-mono">{why.hardFail}</span>: the reward is −1 whatever the components say.
        </p>
      )}
      {why.ended && (
        <p className="mt-1">
          The episode ended without an answer: <span className="font-medium">{fmtTermination(why.ended)}</span>.
        </p>
      )}
      {why.reasons.length > 0 && (
        <ul className="mt-1.5 space-y-1">
          {why.reasons.map((e, i) => (
            <li key={i} className="flex gap-2 [overflow-wrap:anywhere]">
              <span aria-hidden>✗</span>
              <span className="min-w-0 flex-1">
                {e.text}
                {e.turns.length > 0 && (
                  <Link
                    href={`/episodes/${episodeId}?turn=${e.turns[0]}#turn-${e.turns[0]}`}
                    className="ml-1.5 whitespace-nowrap text-xs text-sky-700 underline"
                  >
                    turn {e.turns[0]}
                  </Link>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {why.more > 0 && (
        <p className="mt-1 text-xs text-rose-700">{why.more} more failing line(s) in the evidence below.</p>
      )}
    </div>
  );
}
