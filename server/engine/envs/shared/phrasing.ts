// Small pieces of English the customers' messages are built from.

export const money = (x: number) => `$${x.toFixed(2)}`;
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** "a", "a and b", "a, b and c". */
export const joinList = (parts: readonly string[]) =>
  parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
