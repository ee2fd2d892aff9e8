// A form's values as text, by dotted path ("filters.color"); see components/play/schema-form.ts.
// Here in lib/ because the playground store (lib/stores/play.ts) keeps them.

export type FormValues = Record<string, string>;
