import type { UserAct } from '@/server/engine/types';
import type { VoicedCustomerMessage } from '@/server/episodes/seat';
import { Badge, type Tone } from '@/components/ui/primitives';
import { FoldedText } from './FoldedText';

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

/** The LLM customer's note (inspector replay only): the template its text stands for, or why it was kept. */
function VoiceNote({ voice }: { voice: NonNullable<VoicedCustomerMessage['voice']> }) {
  return (
    <details className="mt-1 text-xs text-slate-500" data-testid="customer-voice">
      <summary className="cursor-pointer">
        {voice.fallback ? `template kept (${voice.by}: ${voice.fallback})` : `worded by ${voice.by}`}
      </summary>
      <p
        className="mt-1 whitespace-pre-wrap rounded border border-slate-200 bg-white px-2 py-1"
        data-testid="customer-template"
      >
        {voice.template}
      </p>
    </details>
  );
}

export function CustomerMessage({
  text,
  act,
  voice,
}: {
  text: string;
  act: UserAct;
  voice?: VoicedCustomerMessage['voice'];
}) {
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
          <FoldedText text={text} tone="light" />
        </p>
        {voice && <VoiceNote voice={voice} />}
      </div>
    </div>
  );
}
