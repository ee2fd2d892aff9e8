// Operations on form text values (see schema-form.ts for where each shape lives):
// lists of scalars, lists of objects, and the concrete fields a filled-in form has.
import { chosenOption, hasItems, itemField } from './schema-form';
import type { FieldSpec, FormValues } from './schema-types';

// ---------- lists of scalars: "a, b, c" ----------

export function listItems(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export const joinList = (items: readonly string[]) => items.join(', ');

/** Appends items not yet in the list (pasted text may hold several, comma or newline separated). */
export function appendToList(text: string | undefined, added: string): string {
  const items = listItems(text);
  for (const x of listItems(added)) if (!items.includes(x)) items.push(x);
  return joinList(items);
}

export function removeFromList(text: string | undefined, index: number): string {
  return joinList(listItems(text).filter((_, i) => i !== index));
}

/** Moves item `index` one place up (earlier = better ranked). */
export function moveUpInList(text: string | undefined, index: number): string {
  const items = listItems(text);
  if (index <= 0 || index >= items.length) return joinList(items);
  [items[index - 1], items[index]] = [items[index], items[index - 1]];
  return joinList(items);
}

// ---------- lists of objects: `${path}#items` and `${path}.${i}…` ----------

export function itemCount(values: FormValues, path: string): number {
  const n = Number(values[`${path}#items`] ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export function addItem(values: FormValues, path: string, initial: FormValues = {}): FormValues {
  const n = itemCount(values, path);
  const out = { ...values, [`${path}#items`]: String(n + 1) };
  for (const [k, v] of Object.entries(initial)) out[`${path}.${n}.${k}`] = v;
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Removes item i; later items move down one place. */
export function removeItem(values: FormValues, path: string, index: number): FormValues {
  const n = itemCount(values, path);
  const re = new RegExp(`^${escape(path)}\\.(\\d+)(?=$|[.#])`);
  const out: FormValues = {};
  for (const [k, v] of Object.entries(values)) {
    const m = re.exec(k);
    if (!m) {
      out[k] = v;
      continue;
    }
    const i = Number(m[1]);
    if (i === index) continue;
    out[i > index ? `${path}.${i - 1}${k.slice(m[0].length)}` : k] = v;
  }
  out[`${path}#items`] = String(Math.max(0, n - 1));
  return out;
}

// ---------- the concrete fields of a filled-in form ----------

export interface ConcreteField extends FieldSpec {
  /** Human path, e.g. "subtasks[1] SUB › recommended_product_ids". */
  label: string;
  /** Path of the object holding the field ("" at the top). */
  parent: string;
}

/**
 * The leaf fields the form has now: objects opened up, the chosen option of each union,
 * each item of each list of objects. Answer buttons on result cards use it to find e.g. every
 * `recommended_product_ids` list (JOURNEY has one per PD/SUB/BUNDLE sub-answer).
 */
export function concreteFields(
  fields: FieldSpec[],
  values: FormValues,
  labelPrefix = '',
  parent = '',
): ConcreteField[] {
  const out: ConcreteField[] = [];
  const label = (key: string) => (labelPrefix ? `${labelPrefix} › ${key}` : key);
  for (const f of fields) {
    if (f.kind === 'object') out.push(...concreteFields(f.children ?? [], values, label(f.key), f.path));
    else if (f.kind === 'union') {
      const opt = chosenOption(f, values);
      if (opt?.kind === 'object')
        out.push(...concreteFields(opt.children ?? [], values, label(`${f.key} ${opt.label}`), f.path));
      else out.push({ ...f, label: label(f.key), parent });
    } else if (hasItems(f)) {
      for (let i = 0; i < itemCount(values, f.path); i++)
        out.push(...concreteFields([itemField(f, i)], values, labelPrefix, parent));
    } else out.push({ ...f, label: label(f.key), parent });
  }
  return out;
}
