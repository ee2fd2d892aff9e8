'use client';
// Renders the fields of a JSON Schema (see schema-form.ts) as form controls: scalars, enums,
// objects, ranked lists of ids, unions (number | string; objects told apart by e.g. env) and
// lists of objects.
import { cx } from '@/components/ui/primitives';
import { FieldLabel, inputCls, fieldId } from './form/controls';
import { ItemsField } from './form/ItemsField';
import { ListInput } from './form/ListInput';
import { UnionField } from './form/UnionField';
import { hasItems, type FieldSpec, type FormValues } from './schema-form';

export type FormProps = {
  values: FormValues;
  errors: Record<string, string>;
  onChange: (path: string, value: string) => void;
  /** Several values at once (adding or removing list items). */
  onValues: (update: (values: FormValues) => FormValues) => void;
  idPrefix: string;
};

function Control({
  f,
  id,
  value,
  onChange,
}: {
  f: FieldSpec;
  id: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const name = f.path;
  const jsonArea = (placeholder: string) => (
    <textarea
      id={id}
      name={name}
      rows={2}
      className={cx(inputCls, 'font-mono text-xs')}
      value={value}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
    />
  );
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
      if (f.itemKind !== 'json')
        return (
          <ListInput
            id={id}
            name={name}
            value={value}
            itemKind={f.itemKind}
            maxItems={f.maxItems}
            onChange={onChange}
          />
        );
      return jsonArea('JSON list');
    case 'json':
      return jsonArea('JSON');
    default:
      return (
        <input
          id={id}
          name={name}
          type="text"
          className={inputCls}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

export function FieldView({ f, ...props }: FormProps & { f: FieldSpec }) {
  const { values, errors, onChange, idPrefix } = props;
  const id = fieldId(idPrefix, f.path);
  if (f.kind === 'object') {
    const set = (f.children ?? []).filter((c) => (values[c.path] ?? '') !== '').length;
    return (
      <details
        className="rounded-md border border-slate-200 bg-slate-50 px-2.5 py-1.5"
        open={set > 0}
        data-testid={`object-${f.path}`}
      >
        <summary className="cursor-pointer text-xs">
          <span className="font-mono font-medium text-slate-800">{f.key}</span>
          <span className="text-slate-400"> · object{f.required ? '' : ' · optional'}</span>
          {set > 0 && <span className="ml-1 text-slate-600">({set} set)</span>}
        </summary>
        <div className="mt-2 grid gap-2.5 pb-1 sm:grid-cols-2">
          {(f.children ?? []).map((c) => (
            <FieldView key={c.path} f={c} {...props} />
          ))}
        </div>
      </details>
    );
  }
  if (f.kind === 'union')
    return <UnionField f={f} {...props} renderField={(c) => <FieldView key={c.path} f={c} {...props} />} />;
  if (hasItems(f))
    return <ItemsField f={f} {...props} renderField={(c) => <FieldView key={c.path} f={c} {...props} />} />;
  return (
    <div data-testid={`field-${f.path}`}>
      <FieldLabel f={f} htmlFor={id} />
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
