// Every guess at a secret goes through here: a password at sign-in, the current password (sudo mode, changing
// it), a second-factor or recovery code, the user code of a CLI sign-in. The count is in the database, so every
// process shares it, and it is kept twice for each kind and subject (whose secret):
//
// - per client address: ten wrong guesses within 15 minutes stop that address for 15 minutes. Someone who guesses
//   from their own address locks only themselves out, never the person from theirs;
// - over every address ('*'): a higher ceiling, so guessing from many addresses is bounded too.
//
// A guess is counted BEFORE the secret is checked, atomically, so a burst of concurrent guesses cannot slip past
// the ceiling between check and count; a right guess then takes its count back. A right guess of one kind never
// clears another kind's count (a right password does not forgive wrong codes).
//
// For sign-in the subject is the address typed (hashed), whether or not an account has it, so a locked answer
// says nothing about which addresses have accounts.
import { sql } from "kysely";
import type { App } from "../../../app/context.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import type { Tx } from "../../../db/index.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { inTx } from "../../tx.ts";

export type GuessKind = "password" | "second_factor" | "current_password" | "user_code";

/** Wrong guesses within the window that stop one address, and all addresses together, for LOCK_MS. */
export const GUESS_LIMITS: Record<GuessKind, { perAddress: number; perAccount: number }> = {
  password: { perAddress: 10, perAccount: 100 },
  second_factor: { perAddress: 10, perAccount: 20 },
  current_password: { perAddress: 10, perAccount: 20 },
  user_code: { perAddress: 10, perAccount: 20 },
};
export const GUESS_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

const ALL = "*";

/** Whose secret: an account, or for password sign-in the address typed (known or not, hashed). */
export const accountSubject = (userId: string) => `user:${userId}`;
export const emailSubject = (email: string) => `email:${sha256hex(email.trim().toLowerCase())}`;

export interface Guess {
  kind: GuessKind;
  subject: string;
  /** The client's address; null (unknown) shares one count with every other unknown. */
  address: string | null;
}

export interface GuessTicket {
  /** Set when guessing is stopped: the guess was not counted and the secret must not be checked. */
  lockedUntil: number | null;
  /** The secret was right: this address's count of this kind starts over, the guess leaves the overall count. */
  right(): Promise<void>;
  /**
   * The guess named something real but proves nothing about the guesser (a CLI sign-in's user code): only this
   * guess leaves the counts, so right guesses in between never wipe out wrong ones.
   */
  matched(): Promise<void>;
  /** The secret was wrong (already counted): returns the lock's end when this guess reached a ceiling. */
  wrong(): Promise<number | null>;
}

const addressOf = (g: Guess) => (g.address ?? "unknown").slice(0, 64);

/**
 * Counts one guess before its secret is checked. When the address or the account is locked, or this guess
 * would go past a ceiling, nothing is counted and `lockedUntil` says until when.
 */
export async function beginGuess(app: App, g: Guess): Promise<GuessTicket> {
  const limits = GUESS_LIMITS[g.kind];
  const address = addressOf(g);
  const now = app.clock.now();
  const lockedUntil = await inTx(app, async (tx) => {
    const rows = await tx
      .selectFrom("secret_guesses")
      .select(["address", "locked_until"])
      .where("kind", "=", g.kind)
      .where("subject", "=", g.subject)
      .where("address", "in", [address, ALL])
      .execute();
    const locked = Math.max(0, ...rows.map((r) => Number(r.locked_until ?? 0)));
    if (locked > now) return locked;
    let until: number | null = null;
    for (const [addr, max] of [
      [address, limits.perAddress],
      [ALL, limits.perAccount],
    ] as const) {
      // A pause still running (set by a guess that raced past the check above) stays as it is and counts
      // nothing; a window that ended, or a pause that ran out, starts the count over.
      const active = sql<boolean>`secret_guesses.locked_until IS NOT NULL AND secret_guesses.locked_until > ${now}`;
      const stale = sql<boolean>`secret_guesses.window_start <= ${now - GUESS_WINDOW_MS} OR secret_guesses.locked_until IS NOT NULL`;
      const row = await tx
        .insertInto("secret_guesses")
        .values({
          kind: g.kind,
          subject: g.subject,
          address: addr,
          failures: 1,
          window_start: now,
          locked_until: null,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["kind", "subject", "address"]).doUpdateSet({
            failures: sql<number>`CASE WHEN ${active} THEN secret_guesses.failures WHEN ${stale} THEN 1 ELSE secret_guesses.failures + 1 END`,
            window_start: sql<number>`CASE WHEN ${active} THEN secret_guesses.window_start WHEN ${stale} THEN ${now} ELSE secret_guesses.window_start END`,
            locked_until: sql<
              number | null
            >`CASE WHEN ${active} THEN secret_guesses.locked_until ELSE NULL END`,
            updated_at: now,
          }),
        )
        .returning(["failures", "locked_until"])
        .executeTakeFirstOrThrow();
      if (row.locked_until !== null && Number(row.locked_until) > now) {
        until = Math.max(until ?? 0, Number(row.locked_until));
      } else if (Number(row.failures) > max) {
        // Past a ceiling (only concurrent guesses get here: the guess that reaches it pauses): pause; this
        // guess is refused unchecked.
        until = Math.max(until ?? 0, now + LOCK_MS);
        await lock(tx, g, addr, now + LOCK_MS, now);
      }
    }
    // A refused guess is not a guess: take it back from the count that did not lock.
    if (until !== null)
      await tx
        .updateTable("secret_guesses")
        .set({ failures: sql<number>`CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END` })
        .where("kind", "=", g.kind)
        .where("subject", "=", g.subject)
        .where("address", "in", [address, ALL])
        .where("locked_until", "is", null)
        .execute();
    return until;
  });
  let settled = lockedUntil !== null;
  return {
    lockedUntil,
    async right() {
      if (settled) return;
      settled = true;
      await inTx(app, async (tx) => {
        await tx
          .deleteFrom("secret_guesses")
          .where("kind", "=", g.kind)
          .where("subject", "=", g.subject)
          .where("address", "=", address)
          .execute();
        await tx
          .updateTable("secret_guesses")
          .set({ failures: sql<number>`CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END` })
          .where("kind", "=", g.kind)
          .where("subject", "=", g.subject)
          .where("address", "=", ALL)
          .where("locked_until", "is", null)
          .execute();
      });
    },
    async matched() {
      if (settled) return;
      settled = true;
      await inTx(app, async (tx) => {
        // One row at a time, the address's first: the order every writer takes them in (no deadlock).
        for (const addr of [address, ALL])
          await tx
            .updateTable("secret_guesses")
            .set({ failures: sql<number>`CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END` })
            .where("kind", "=", g.kind)
            .where("subject", "=", g.subject)
            .where("address", "=", addr)
            .where("locked_until", "is", null)
            .execute();
      });
    },
    async wrong() {
      if (settled) return null;
      settled = true;
      const now2 = app.clock.now();
      return inTx(app, async (tx) => {
        const rows = await tx
          .selectFrom("secret_guesses")
          .select(["address", "failures", "locked_until"])
          .where("kind", "=", g.kind)
          .where("subject", "=", g.subject)
          .where("address", "in", [address, ALL])
          .execute();
        // The lock and its message are made from one reading of the clock: "15 minutes" means 15.
        let until: number | null = null;
        // The address's row first: the order every writer takes them in (no deadlock).
        rows.sort((x, y) => (x.address === ALL ? 1 : 0) - (y.address === ALL ? 1 : 0));
        for (const r of rows) {
          const max = r.address === ALL ? limits.perAccount : limits.perAddress;
          if (r.locked_until === null && Number(r.failures) >= max) {
            until = now2 + LOCK_MS;
            await lock(tx, g, r.address, until, now2);
          }
        }
        return until;
      });
    },
  };
}

async function lock(tx: Tx, g: Guess, address: string, until: number, now: number) {
  await tx
    .updateTable("secret_guesses")
    .set({ locked_until: until, failures: 0, window_start: now, updated_at: now })
    .where("kind", "=", g.kind)
    .where("subject", "=", g.subject)
    .where("address", "=", address)
    .execute();
}

/** Ends this address's count (and pause) of one kind: the person proved themselves another way. */
export async function clearGuesses(app: App, g: Guess): Promise<void> {
  await app.db
    .deleteFrom("secret_guesses")
    .where("kind", "=", g.kind)
    .where("subject", "=", g.subject)
    .where("address", "=", addressOf(g))
    .execute();
}

/** Forgets every count of these kinds for a subject (a password reset: the person proved their mailbox). */
export async function forgetGuesses(app: App, kinds: GuessKind[], subject: string): Promise<void> {
  await app.db
    .deleteFrom("secret_guesses")
    .where("kind", "in", kinds)
    .where("subject", "=", subject)
    .execute();
}

/** Deletes counts untouched for a day (run by the sessions.prune task): no lock or window lasts that long. */
export async function pruneGuesses(app: App): Promise<number> {
  const res = await app.db
    .deleteFrom("secret_guesses")
    .where("updated_at", "<", app.clock.now() - 86400_000)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

const minutes = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 60_000));

/** The answer while guessing is stopped: 429 with Retry-After, the same for every subject of a kind. */
export function guessesLocked(kind: GuessKind, until: number, now: number, param?: string): ServiceError {
  const n = minutes(until, now);
  const wait = `${n} more minute${n === 1 ? "" : "s"}`;
  const message =
    kind === "password"
      ? `Too many wrong attempts: signing in to this account with a password from here is paused for ${wait}. A passkey, or your password together with a code from your authenticator app or a recovery code, still signs you in.`
      : kind === "second_factor"
        ? `Too many wrong codes: codes are paused for ${wait}. A passkey still signs you in.`
        : kind === "current_password"
          ? `Too many wrong passwords: try again in ${wait}.`
          : `Too many wrong codes: try again in ${wait}.`;
  return new ServiceError(429, kind === "user_code" ? "rate_limited" : "account_locked", message, {
    ...(param ? { param } : {}),
    headers: { "Retry-After": String(Math.max(1, Math.ceil((until - now) / 1000))) },
  });
}
