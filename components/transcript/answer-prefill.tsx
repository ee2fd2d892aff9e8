'use client';
// Lets result cards fill the answer form in the playground: "+ Answer" on a product adds its id
// to an answer list of product ids; "Use in answer" on an order or line sets the selected
// order / line (and the status). Targets come from the answer form as it is now, so JOURNEY's
// sub-answers are found too. Nothing is offered outside the playground (the replay).
import { createContext, useContext, useMemo } from 'react';
import { usePlayStore } from '@/lib/stores/play';
import type { FieldSpec } from '@/components/play/schema-form';
import { answerTargets, type AnswerTargets } from '@/components/play/answer-targets';

export type { AnswerTargets, OrderSlot } from '@/components/play/answer-targets';

export const AnswerFormContext = createContext<FieldSpec[] | null>(null);

/** The answer form's targets, or null outside the playground. */
export function useAnswerTargets(): AnswerTargets | null {
  const fields = useContext(AnswerFormContext);
  const values = usePlayStore((s) => s.answerValues);
  return useMemo(() => (fields ? answerTargets(fields, values) : null), [fields, values]);
}
