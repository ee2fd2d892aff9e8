// Limits of the playground's agent seat (docs/inspector.md, "Playing by hand").

/** Longest message to the customer a person can send from the playground (the engine's own cap is the whole action, 64 KiB). */
export const MAX_MESSAGE_CHARS = 4000;

/** Transcript text longer than this is folded (first part shown, "show all" opens the rest). */
export const FOLD_CHARS = 1200;

/** The playground's error for a message over the cap, or null. */
export function messageLengthError(message: string): string | null {
  return message.length > MAX_MESSAGE_CHARS
    ? `The message is ${message.length.toLocaleString('en-US')} characters; the playground's limit is ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}. Shorten it.`
    : null;
}
