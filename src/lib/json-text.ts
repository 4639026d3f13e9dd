// The JSON text of an answer serialized while it was made: a create's presentation is its event's data, its
// Idempotency-Key answer and the response body, and one JSON.stringify serves all three. An object passed to
// serializeOnce must not change afterwards (presentations are built fresh and only read).
const texts = new WeakMap<object, string>();

/** JSON.stringify(value), remembered for whoever sends the same object later. */
export function serializeOnce(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** The text serializeOnce made for `value`, else a fresh JSON.stringify. */
export function jsonOf(value: unknown): string {
  const known = typeof value === "object" && value !== null ? texts.get(value) : undefined;
  return known ?? JSON.stringify(value);
}
