// Connect fields that take one of a few values, per provider: a value outside them is refused (field_invalid)
// when a channel's settings are given or changed.
const choices: Record<string, Record<string, readonly string[]>> = {
  youtube: { privacy: ["public", "unlisted", "private"] },
};

/** The values a provider's field takes, or null when it takes any. */
export function fieldChoices(provider: string, field: string): readonly string[] | null {
  return choices[provider]?.[field] ?? null;
}
