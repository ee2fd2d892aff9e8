import type { UserAct } from '@/server/engine/types';
import { Badge, type Tone } from '@/components/ui/primitives';

const ACT_TONES: Record<UserAct, Tone> = {
  opening: 'slate',
  continue: 'blue',
  confirm: 'green',
  clarify: 'violet',
  correct: 'amber',
  elaborate: 'blue',
  ragequit: 'red',
};

const ACT_HELP: Record<UserAct, string> = {
  opening: 'the request that opens the episode',
  continue: 'the customer waits for progress',
  confirm: 'the customer confirms (does not count toward T_eff)',
  clarify: 'the customer answers a question about an omitted detail (does not count toward T_eff)',
  correct: 'the customer points out a mistake',
  elaborate: 'the customer adds a requirement',
  ragequit: 'the customer gives up',
};

export function UserActBadge({ act }: { act: UserAct }) {
  return (
    <Badge tone={ACT_TONES[act] ?? 'slate'} title={ACT_HELP[act]}>
      {act}
    </Badge>
  );
}

export function CustomerMessage({ text, act }: { text: string; act: UserAct }) {
  return (
    <div className="flex gap-3" data-testid="customer-message">
      <div className="mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-sky-100 text-xs font-semibold text-sky-800">
        C
      </div>
      <div className="min-w-0 flex-1">
        <div className="mb-1 flex items-center gap-2 text-xs text-slate-500">
          <span className="font-medium text-slate-700">Customer</span>
          <UserActBadge act={act} />
        </div>
        <p className="whitespace-pre-wrap rounded-lg rounded-tl-none bg-sky-50 px-3 py-2 text-sm text-slate-900">
          {text}
        </p>
      </div>
    </div>
  );
}
