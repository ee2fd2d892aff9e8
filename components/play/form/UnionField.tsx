'use client';
// A union field (JSON Schema anyOf / oneOf). Objects told apart by a constant property
// (JOURNEY's sub-answers by env): pick the option, then its own fields appear. Scalars
// (number | string): one box, read as the first type it parses as unless a type is picked.
import type { ReactNode } from 'react';
import { autoOptionLabel } from '../schema-build';
import { chosenOption, choicePath, type FieldSpec } from '../schema-form';
import type { FormProps } from '../SchemaForm';
import { FieldLabel, fieldId, inputCls } from './controls';

export function UnionField({
  f,
  values,
  errors,
  onChange,
  idPrefix,
  renderField,
}: FormProps & { f: FieldSpec; renderField: (c: FieldSpec) => ReactNode }) {
  const options = f.options ?? [];
  const chosen = chosenOption(f, values);
  const choiceId = fieldId(idPrefix, choicePath(f));
  const allScalar = options.every((o) => o.kind !== 'object');

  if (allScalar) {
    const id = fieldId(idPrefix, f.path);
    const text = values[f.path] ?? '';
    const guess = chosen ? null : autoOptionLabel(f, text);
    return (
      <div data-testid={`field-${f.path}`}>
        <FieldLabel f={f} htmlFor={id} />
        <div className="flex gap-1.5">
          <input
            id={id}
            name={f.path}
            type="text"
            className={inputCls}
            value={text}
            onChange={(e) => onChange(f.path, e.target.value)}
          />
          <select
            id={choiceId}
            aria-label={`${f.key}: send as`}
            className="w-32 shrink-0 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-700"
            value={chosen?.label ?? ''}
            onChange={(e) => onChange(choicePath(f), e.target.value)}
          >
            <option value="">auto</option>
            {options.map((o) => (
              <option key={o.label} value={o.label}>
                as {o.label}
              </option>
            ))}
          </select>
        </div>
        {guess && text.trim() !== '' && (
          <p className="mt-0.5 text-[11px] text-slate-500" data-testid={`union-guess-${f.path}`}>
            will be sent as a {guess}
          </p>
        )}
        {f.description && <p className="mt-0.5 text-[11px] text-slate-500">{f.description}</p>}
        {errors[f.path] && <p className="mt-0.5 text-xs text-rose-600">{errors[f.path]}</p>}
      </div>
    );
  }

  const pick = f.discriminator ?? 'type';
  return (
    <div className="space-y-2" data-testid={`field-${f.path}`}>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={choiceId} className="text-xs">
          <span className="font-mono font-medium text-slate-800">{pick}</span>
          <span className="text-slate-400"> · {f.discriminator ? 'pick one; its fields follow' : 'pick a type'}</span>
        </label>
        <select
          id={choiceId}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-900"
          value={chosen?.label ?? ''}
          onChange={(e) => onChange(choicePath(f), e.target.value)}
        >
          <option value="">choose…</option>
          {options.map((o) => (
            <option key={o.label} value={o.label}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {errors[f.path] && <p className="text-xs text-rose-600">{errors[f.path]}</p>}
      {chosen?.kind === 'object' && (
        <div className="space-y-2.5">
          {(chosen.children ?? []).length === 0 ? (
            <p className="text-xs text-slate-500">{chosen.label} needs no fields.</p>
          ) : (
            (chosen.children ?? []).map((c) => renderField(c))
          )}
        </div>
      )}
      {chosen &&
        chosen.kind !== 'object' &&
        renderField({ ...f, kind: chosen.kind, enumValues: chosen.enumValues, options: undefined })}
    </div>
  );
}
