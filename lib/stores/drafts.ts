// Playground drafts kept per episode across reloads (issue 31, "nothing lost"): the tool calls
// queued for this turn, the message, the raw text and the answer values, in localStorage under
// the episode id. Written on every change, removed once a turn is sent with nothing left over.
import type { FormValues } from '@/lib/form-values';

export interface Draft {
  queue: Array<{ id: number; name: string; args: Record<string, unknown> }>;
  nextId: number;
  message: string;
  rawText: string;
  answerValues: FormValues;
}

const PREFIX = 'ecomrlve:draft:';
const storage = () => (typeof window === 'undefined' ? null : window.localStorage);

const isEmpty = (d: Draft) =>
  d.queue.length === 0 && d.message === '' && d.rawText === '' && Object.keys(d.answerValues).length === 0;

/** The draft kept for an episode, or null (none, or unreadable: a bad entry is dropped). */
export function loadDraft(episodeId: string): Draft | null {
  const raw = storage()?.getItem(PREFIX + episodeId);
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<Draft>;
    if (!Array.isArray(d.queue) || typeof d.message !== 'string') throw new Error('not a draft');
    return {
      queue: d.queue,
      nextId: Number.isInteger(d.nextId) ? d.nextId! : d.queue.length + 1,
      message: d.message,
      rawText: typeof d.rawText === 'string' ? d.rawText : '',
      answerValues: d.answerValues && typeof d.answerValues === 'object' ? d.answerValues : {},
    };
  } catch {
    storage()?.removeItem(PREFIX + episodeId);
    return null;
  }
}

/** Keeps the draft (an empty one is removed). Storage full or blocked: the draft lives in memory only. */
export function saveDraft(episodeId: string, draft: Draft): void {
  try {
    if (isEmpty(draft)) storage()?.removeItem(PREFIX + episodeId);
    else storage()?.setItem(PREFIX + episodeId, JSON.stringify(draft));
  } catch {
    // quota or privacy mode: nothing to do but keep playing
  }
}

export function clearDraft(episodeId: string): void {
  storage()?.removeItem(PREFIX + episodeId);
}
