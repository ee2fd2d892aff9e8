'use client';
// Renders the fields of a JSON Schema (see schema-form.ts) as form controls.
import { cx } from '@/components/ui/primitives';
import type { FieldSpec, FormValues } from './schema-form';

const inputCls =
  'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-slate-500 focus:outline-none focus:ring-1 focus:ring-slate-500';

function Label({ f, htmlFor }: { f: FieldSpec; htmlFor: string }) {
  return (
    <label htmlFor={htmlFor} className="mb-0.5 flex items-baseline gap-1.5 text-xs">
      <span className="font-mono font-medium text-slate-800">{f.key}</span>
      <span className="text-slate-400">
        {f.kind === 'array' ? `list of ${f.itemKind}` : f.kind}
        {f.required ? '' : ' · optional'}
        {f.default !== undefined ? ` · default ${JSON.stringify(f.default)}` : ''}
      </span>
    </label>
  );
}

function Control({ f, id, value, onChange }: { f: FieldSpec; id: string; value: string; onChange: (v: string) => void }) {
  const name = f.path;
  switch (f.kind) {
    case 'enum':
      return (
        <select id={id} name={name} className={inputCls} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{f.required ? 'choose…' : '(not set)'}</option>
          {f.enumValues!.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      );
    case 'boolean':
      return (
        <select id={id} name={name} className={inputCls} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{f.required ? 'choose…' : '(not set)'}</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'number':
    case 'integer':
      return (
        <input
          id={id}
          name={name}
          type="number"
          inputMode={f.kind === 'integer' ? 'numeric' : 'decimal'}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.min}
          max={f.max}
          className={inputCls}
          value={value}
          placeholder={f.default !== undefined ? String(f.default) : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'array':
    case 'json':
      return (
        <textarea
          id={id}
          name={name}
          rows={2}
          className={cx(inputCls, 'font-mono text-xs')}
          value={value}
          placeholder={f.kind === 'array' && f.itemKind !== 'json' ? 'comma-separated' : 'JSON'}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <input id={id} name={name} type="text" className={inputCls} value={value} onChange={(e) => onChange(e.target.value)} />
      );
  }
}

type FormProps = {
  values: FormValues;
  errors: Record<string, string>;
  onChange: (path: string, value: string) => void;
  idPrefix: string;
};

function FieldView({ f, values, errors, onChange, idPrefix }: FormProps & { f: FieldSpec }) {
  const id = `${idPrefix}-${f.path.replace(/\./g, '-')}`;
  if (f.kind === 'object') {
    const set = (f.children ?? []).filter((c) => (values[c.path] ?? '') !== '').length;
    return (
      <details className="rounded-md border border-slate-200 bg-slate-50 px-2.5 py-1.5" open={set > 0} data-testid={`object-${f.path}`}>
        <summary className="cursor-pointer text-xs">
          <span className="font-mono font-medium text-slate-800">{f.key}</span>
          <span className="text-slate-400"> · object{f.required ? '' : ' · optional'}</span>
          {set > 0 && <span className="ml-1 text-slate-600">({set} set)</span>}
        </summary>
        <div className="mt-2 grid gap-2.5 pb-1 sm:grid-cols-2">
          {(f.children ?? []).map((c) => (
            <FieldView key={c.path} f={c} values={values} errors={errors} onChange={onChange} idPrefix={idPrefix} />
          ))}
        </div>
      </details>
    );
  }
  return (
    <div>
      <Label f={f} htmlFor={id} />
      <Control f={f} id={id} value={values[f.path] ?? ''} onChange={(v) => onChange(f.path, v)} />
      {f.description && <p className="mt-0.5 text-[11px] text-slate-500">{f.description}</p>}
      {errors[f.path] && <p className="mt-0.5 text-xs text-rose-600">{errors[f.path]}</p>}
    </div>
  );
}

export function SchemaForm({ fields, ...props }: FormProps & { fields: FieldSpec[] }) {
  if (fields.length === 0) return <p className="text-xs text-slate-500">No arguments.</p>;
  return (
    <div className="space-y-2.5">
      {fields.map((f) => (
        <FieldView key={f.path} f={f} {...props} />
      ))}
    </div>
  );
}
