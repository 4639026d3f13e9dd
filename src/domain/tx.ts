import type { App } from "../app/context.ts";
import type { Tx } from "../db/index.ts";

/** Runs `fn` in one transaction: a change, its event and its audit row commit together or not at all. */
export const inTx = <T>(app: App, fn: (tx: Tx) => Promise<T>): Promise<T> => app.db.transaction().execute(fn);

export function isUniqueViolation(e: unknown, constraintHint?: string): boolean {
  const err = e as { code?: string; message?: string; constraint?: string };
  const hit = err?.code === "23505" || /UNIQUE constraint failed/.test(err?.message ?? "");
  if (!hit || !constraintHint) return hit;
  return `${err.constraint ?? ""} ${err.message ?? ""}`.includes(constraintHint);
}

export const json = (v: unknown) => JSON.stringify(v);
export const fromJson = <T>(s: string | null | undefined, dflt: T): T =>
  s == null ? dflt : (JSON.parse(s) as T);
