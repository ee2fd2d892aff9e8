'use client';
// A list of objects or unions (JOURNEY's subtasks): one card per item with "remove", and
// "add" at the end. Items live at `${path}.${i}`; the count at `${path}#items`.
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/primitives';
import { addItem, itemCount, removeItem } from '../form-values';
import { itemField, type FieldSpec } from '../schema-form';
import type { FormProps } from '../SchemaForm';
import { FieldLabel, fieldId } from './controls';

export function ItemsField({
  f,
  values,
  errors,
  onValues,
  idPrefix,
  renderField,
}: FormProps & { f: FieldSpec; renderField: (c: FieldSpec) => ReactNode }) {
  const n = itemCount(values, f.path);
  const full = f.maxItems !== undefined && n >= f.maxItems;
  const addId = fieldId(idPrefix, `${f.path}#add`);
  return (
    <div data-testid={`field-${f.path}`}>
      <FieldLabel f={f} htmlFor={addId} />
      {f.description && <p className="mb-1 text-[11px] text-slate-500">{f.description}</p>}
      <ol className="space-y-2">
        {Array.from({ length: n }, (_, i) => {
          const item = itemField(f, i);
          return (
            <li
              key={i}
              className="rounded-md border border-slate-200 bg-slate-50 p-2.5"
              data-testid="form-item"
              data-path={item.path}
            >
              <div className="mb-2 flex items-center justify-between gap-2">
                <span className="font-mono text-xs font-semibold text-slate-700">{item.key}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => onValues((v) => removeItem(v, f.path, i))}
                  aria-label={`remove ${item.key}`}
                >
                  Remove
                </Button>
              </div>
              {item.kind === 'object' ? (item.children ?? []).map((c) => renderField(c)) : renderField(item)}
              {errors[item.path] && item.kind !== 'union' && (
                <p className="mt-0.5 text-xs text-rose-600">{errors[item.path]}</p>
              )}
            </li>
          );
        })}
      </ol>
      {n === 0 && <p className="text-xs text-slate-500">No items{f.required ? ': an empty list is sent' : ''}.</p>}
      <Button
        id={addId}
        size="sm"
        className="mt-1.5"
        disabled={full}
        onClick={() => onValues((v) => addItem(v, f.path))}
        data-testid={`add-item-${f.path}`}
      >
        + Add {f.key} item
      </Button>
      {errors[f.path] && <p className="mt-0.5 text-xs text-rose-600">{errors[f.path]}</p>}
    </div>
  );
}
