'use client';
// This turn's action: queued tool calls, the message to the customer, and the answer.
import { useMemo, useState } from 'react';
import type { Action } from '@/server/engine/types';
import { parseAction } from '@/server/engine/action';
import { usePlayStore } from '@/lib/stores/play';
import { MAX_MESSAGE_CHARS, messageLengthError } from '@/lib/play-limits';
import { Button, Card, CardHeader } from '@/components/ui/primitives';
import { SchemaForm } from './SchemaForm';
import { answerTargets } from './answer-targets';
import { buildArgs } from './schema-build';
import { fieldsOf, type JsonSchema } from './schema-form';

export function Composer({
  envId,
  answerSchema,
  keepsGoOnAnswers,
  pending,
  onSend,
}: {
  envId: string;
  answerSchema: JsonSchema | undefined;
  /** the engine keeps an answer sent with done: false (EnvInfo.keepsGoOnAnswers: JOURNEY) */
  keepsGoOnAnswers: boolean;
  pending: boolean;
  onSend: (action: Action | string) => void;
}) {
  const {
    queue,
    removeCall,
    message,
    setMessage,
    rawText,
    setRawText,
    answerValues,
    setAnswerField,
    updateAnswerValues,
    selectedTool,
    formValues,
  } = usePlayStore();
  const unqueued = selectedTool !== null && Object.values(formValues).some((v) => v.trim() !== '');
  const [answerErrors, setAnswerErrors] = useState<Record<string, string>>({});
  const [msgError, setMsgError] = useState<string | null>(null);
  // why the raw text does not parse, while the person decides whether to send it anyway
  const [rawProblem, setRawProblem] = useState<string | null>(null);
  const answerFields = useMemo(() => fieldsOf(answerSchema), [answerSchema]);
  const targets = useMemo(() => answerTargets(answerFields, answerValues), [answerFields, answerValues]);
  const hasTargets = targets.productLists.length + targets.orderSlots.length + targets.policyAnswers.length > 0;

  /** turn: no answer; answer: the answer with done: false (the episode goes on); finish: done: true. */
  function send(mode: 'turn' | 'answer' | 'finish') {
    // read the store now: a list box commits what was typed in it when it loses focus
    const state = usePlayStore.getState();
    if (state.message.trim() === '') {
      setMsgError('Write a message to the customer (assistant_message is required).');
      return;
    }
    const tooLong = messageLengthError(state.message);
    if (tooLong) return setMsgError(tooLong);
    setMsgError(null);
    let answer: Action['answer'] = null;
    if (mode !== 'turn') {
      const { args, errors } = buildArgs(answerFields, state.answerValues);
      setAnswerErrors(errors);
      if (Object.keys(errors).length > 0) return;
      answer = { env: envId, done: mode === 'finish', ...args };
    } else setAnswerErrors({});
    onSend({
      assistant_message: state.message,
      tool_calls: state.queue.map((c) => ({ name: c.name, args: c.args })),
      answer,
    });
  }

  /** Raw text that parses goes as it is; text that does not asks first (the bad-action path stays one click on). */
  function sendRaw() {
    const parsed = parseAction(rawText);
    if (parsed.ok) onSend(rawText);
    else setRawProblem(parsed.error);
  }

  return (
    <Card data-testid="composer">
      <CardHeader title="Your turn (agent)" />
      <div className="space-y-3 p-4">
        <div>
          <h3 className="mb-1 text-xs font-medium text-slate-500">Tool calls in this turn</h3>
          {queue.length === 0 ? (
            <p className="text-xs text-slate-400">None yet: add calls from the Tools panel.</p>
          ) : (
            <ol className="space-y-1" data-testid="queued-calls">
              {queue.map((c, i) => (
                <li key={c.id} className="flex items-center gap-2 rounded-md bg-slate-50 px-2 py-1 text-xs">
                  <span className="text-slate-400">{i + 1}.</span>
                  <code className="font-semibold">{c.name}</code>
                  <code className="min-w-0 flex-1 truncate text-slate-600">{JSON.stringify(c.args)}</code>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => removeCall(c.id)}
                    aria-label={`remove call ${i + 1}`}
                  >
                    ✕
                  </Button>
                </li>
              ))}
            </ol>
          )}
        </div>
        <div>
          <label htmlFor="assistant-message" className="mb-1 block text-xs font-medium text-slate-500">
            Message to the customer
          </label>
          <textarea
            id="assistant-message"
            rows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="e.g. Let me look that up for you."
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-slate-500 focus:outline-none focus:ring-1 focus:ring-slate-500"
          />
          {message.length > MAX_MESSAGE_CHARS * 0.8 && (
            <p
              className={`text-right text-[11px] tabular-nums ${message.length > MAX_MESSAGE_CHARS ? 'text-rose-600' : 'text-slate-500'}`}
              data-testid="message-length"
            >
              {message.length.toLocaleString('en-US')} / {MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters
            </p>
          )}
          {msgError && (
            <p className="mt-1 text-xs text-rose-600" role="alert" data-testid="message-error">
              {msgError}
            </p>
          )}
        </div>
        {answerFields.length > 0 ? (
          <section
            className="rounded-md border border-emerald-200 bg-emerald-50/40 px-3 py-2.5"
            data-testid="answer-form"
            aria-label="Answer"
          >
            <h3 className="mb-2 flex flex-wrap items-baseline justify-between gap-x-2 text-xs font-semibold text-emerald-900">
              Answer
              {hasTargets && (
                <span className="font-normal text-emerald-700">
                  “+ Answer” / “Use … in answer” on result cards fill it in
                </span>
              )}
            </h3>
            <SchemaForm
              fields={answerFields}
              values={answerValues}
              errors={answerErrors}
              onChange={setAnswerField}
              onValues={updateAnswerValues}
              idPrefix="answer"
            />
          </section>
        ) : (
          <p className="text-xs text-slate-500">
            {envId} needs no answer fields: finishing submits <code>{`{"env":"${envId}","done":true}`}</code> and the
            cart is judged as it stands.
          </p>
        )}
        {unqueued && (
          <p className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800">
            The <code>{selectedTool}</code> form is filled in but not added to this turn; it will not be sent.
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="primary" disabled={pending} onClick={() => send('turn')} data-testid="send-turn">
            Send turn
          </Button>
          {/* Only an env that keeps an answer sent with done: false (JOURNEY: it answers the current
              request) gets this button; the others score the final answer alone, so it would lose it. */}
          {answerFields.length > 0 && keepsGoOnAnswers && (
            <Button
              disabled={pending}
              onClick={() => send('answer')}
              data-testid="send-answer"
              title="Sends the answer with done: false: it answers the current request and the customer moves on to the next one."
            >
              Send with answer (go on)
            </Button>
          )}
          <Button variant="accent" disabled={pending} onClick={() => send('finish')} data-testid="send-finish">
            Send &amp; finish (answer)
          </Button>
          {pending && <span className="text-xs text-slate-500">running…</span>}
        </div>
        {Object.keys(answerErrors).length > 0 && (
          <p
            className="rounded-md bg-rose-50 px-2.5 py-1.5 text-xs text-rose-800"
            role="alert"
            data-testid="answer-errors"
          >
            The answer is not complete: {Object.values(answerErrors).join('; ')}.
          </p>
        )}
        <details className="text-xs">
          <summary className="cursor-pointer text-slate-500">
            Send raw agent text instead (for testing bad actions)
          </summary>
          <textarea
            rows={4}
            value={rawText}
            onChange={(e) => (setRawText(e.target.value), setRawProblem(null))}
            placeholder='{"assistant_message": "...", "tool_calls": [], "answer": null}'
            className="mt-2 w-full rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs"
            aria-label="Raw agent text"
            data-testid="raw-text"
          />
          {rawProblem ? (
            <div
              className="mt-1 space-y-1.5 rounded-md border border-amber-300 bg-amber-50 px-2.5 py-2 text-amber-900"
              role="alertdialog"
              aria-label="The raw text is not a valid action"
              data-testid="raw-confirm"
            >
              <p>
                This text is not a valid action: <span className="font-medium">{rawProblem}</span>. Sent as it is, the
                turn is a bad action: the episode ends with reward −1.
              </p>
              <div className="flex gap-2">
                <Button size="sm" onClick={() => setRawProblem(null)} data-testid="raw-keep-editing">
                  Keep editing
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={pending}
                  onClick={() => (setRawProblem(null), onSend(rawText))}
                  data-testid="raw-send-anyway"
                >
                  Send it anyway (bad action)
                </Button>
              </div>
            </div>
          ) : (
            <Button size="sm" disabled={pending} onClick={() => sendRaw()} className="mt-1" data-testid="raw-send">
              Send raw text
            </Button>
          )}
        </details>
      </div>
    </Card>
  );
}
