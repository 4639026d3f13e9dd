// Template data, schemas and examples arrive as parsed JSON: these are the shapes worth telling apart.

/** A JSON object: not null and not a list, which `typeof` alone would let through. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
