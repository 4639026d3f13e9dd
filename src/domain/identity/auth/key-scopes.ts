// What a key's stored `scopes` column grants, worked out once per distinct column text: every request with a key
// needs it, and an org's keys share a handful of scope lists. The results are shared between requests, so they
// are only read (Actor's types say so).
import { type Scope, scopesOfKey } from "../../scopes.ts";

export interface KeyScopes {
  /** The listed scopes (null = full integration access), as Actor.keyScopes. */
  listed: readonly string[] | null;
  scopes: ReadonlySet<Scope>;
}

const FULL: KeyScopes = { listed: null, scopes: scopesOfKey(null) };
const byColumn = new Map<string, KeyScopes>();

export function scopesOfColumn(column: string | null): KeyScopes {
  if (!column) return FULL;
  let found = byColumn.get(column);
  if (found === undefined) {
    const listed = JSON.parse(column) as string[];
    found = { listed, scopes: scopesOfKey(listed) };
    // Bounded for a process that sees very many distinct lists; starting over only costs re-parsing.
    if (byColumn.size >= 1000) byColumn.clear();
    byColumn.set(column, found);
  }
  return found;
}
