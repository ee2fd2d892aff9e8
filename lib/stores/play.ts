// Playground UI state: the tool form, the calls queued for this turn, the message,
// the answer fields and the "reveal hidden goal" toggle. Reset when the episode changes; the
// turn's draft (queue, message, raw text, answer) is kept per episode in localStorage (drafts.ts).
import { create } from 'zustand';
import type { FormValues } from '@/lib/form-values';
import { loadDraft, saveDraft } from './drafts';

export interface QueuedCall {
  id: number;
  name: string;
  args: Record<string, unknown>;
}

interface PlayState {
  episodeId: string | null;
  revealGoal: boolean;
  selectedTool: string | null;
  formValues: FormValues;
  queue: QueuedCall[];
  message: string;
  rawText: string;
  answerValues: FormValues;
  nextId: number;
  init(episodeId: string): void;
  toggleReveal(): void;
  selectTool(name: string | null): void;
  prefill(name: string, values: FormValues): void;
  setField(path: string, value: string): void;
  /** Several tool-form values at once (list items added or removed). */
  updateFormValues(update: (values: FormValues) => FormValues): void;
  enqueue(name: string, args: Record<string, unknown>): void;
  removeCall(id: number): void;
  setMessage(message: string): void;
  setRawText(rawText: string): void;
  setAnswerField(path: string, value: string): void;
  updateAnswerValues(update: (values: FormValues) => FormValues): void;
  /** After a turn was sent; the answer form keeps its values unless the answer went with the turn. */
  clearTurn(answerSent: boolean): void;
}

const fresh = { selectedTool: null, formValues: {}, queue: [], message: '', rawText: '', answerValues: {} };

export const usePlayStore = create<PlayState>()((set) => ({
  episodeId: null,
  revealGoal: false,
  nextId: 1,
  ...fresh,
  init: (episodeId) =>
    set((s) => (s.episodeId === episodeId ? s : { ...fresh, ...loadDraft(episodeId), episodeId, revealGoal: false })),
  toggleReveal: () => set((s) => ({ revealGoal: !s.revealGoal })),
  selectTool: (name) => set({ selectedTool: name, formValues: {} }),
  prefill: (name, values) => set({ selectedTool: name, formValues: values }),
  setField: (path, value) => set((s) => ({ formValues: { ...s.formValues, [path]: value } })),
  updateFormValues: (update) => set((s) => ({ formValues: update(s.formValues) })),
  enqueue: (name, args) =>
    set((s) => ({ queue: [...s.queue, { id: s.nextId, name, args }], nextId: s.nextId + 1, formValues: {} })),
  removeCall: (id) => set((s) => ({ queue: s.queue.filter((c) => c.id !== id) })),
  setMessage: (message) => set({ message }),
  setRawText: (rawText) => set({ rawText }),
  setAnswerField: (path, value) => set((s) => ({ answerValues: { ...s.answerValues, [path]: value } })),
  updateAnswerValues: (update) => set((s) => ({ answerValues: update(s.answerValues) })),
  clearTurn: (answerSent) =>
    set((s) => ({ queue: [], message: '', rawText: '', answerValues: answerSent ? {} : s.answerValues })),
}));

// Every change to the draft's parts is written through to the episode's localStorage entry.
usePlayStore.subscribe((s, prev) => {
  if (!s.episodeId || s.episodeId !== prev.episodeId) return;
  if (
    s.queue === prev.queue &&
    s.message === prev.message &&
    s.rawText === prev.rawText &&
    s.answerValues === prev.answerValues
  )
    return;
  saveDraft(s.episodeId, {
    queue: s.queue,
    nextId: s.nextId,
    message: s.message,
    rawText: s.rawText,
    answerValues: s.answerValues,
  });
});
