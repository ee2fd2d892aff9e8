// Limits of the playground's agent seat (docs/inspector.md, "Playing by hand"). The composer shows
// them; the episode service enforces them on every turn a person takes (actor "human").

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

/**
 * The error for a person's action whose message to the customer is over the cap, or null: the
 * `assistant_message` of an action object or of raw JSON text; raw text that is not a JSON
 * object counts whole (it is what the person typed).
 */
export function personActionError(action: unknown): string | null {
  let value = action;
  if (typeof action === 'string') {
    try {
      value = JSON.parse(action);
    } catch {
      return messageLengthError(action);
    }
  }
  if (typeof value !== 'object' || value === null)
    return typeof action === 'string' ? messageLengthError(action) : null;
  const message = (value as { assistant_message?: unknown }).assistant_message;
  return typeof message === 'string' ? messageLengthError(message) : null;
}
