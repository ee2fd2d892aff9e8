// Shared bits of the generated forms: input style, element ids, the field label.
import { typeText, type FieldSpec } from '../schema-form';

export const inputCls =
  'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-slate-500 focus:outline-none focus:ring-1 focus:ring-slate-500';

/** Element id of a field's control: "answer-subtasks-0-env" for path subtasks.0.env. */
export function fieldId(idPrefix: string, path: string): string {
  return `${idPrefix}-${path.replace(/[.#]/g, '-')}`;
}

export function FieldLabel({ f, htmlFor, text }: { f: FieldSpec; htmlFor: string; text?: string }) {
  return (
    <label htmlFor={htmlFor} className="mb-0.5 flex flex-wrap items-baseline gap-x-1.5 text-xs">
      <span className="font-mono font-medium text-slate-800">{text ?? f.key}</span>
      <span className="text-slate-400">
        {typeText(f)}
        {f.required ? '' : ' · optional'}
        {f.default !== undefined ? ` · default ${JSON.stringify(f.default)}` : ''}
      </span>
    </label>
  );
}
