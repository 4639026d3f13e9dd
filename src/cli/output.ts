// Printing for commands: errors on stderr as `svc <cmd>: <message>`; exit 1 for runtime/API errors, 2 for usage.
import { fstatSync } from "node:fs";
import { ServiceError } from "../lib/errors.ts";
import { ApiError, Cancelled } from "./client/errors.ts";

export class UsageError extends Error {}

export interface Io {
  out(s: string): void;
  err(s: string): void;
  stdin(): Promise<string>;
}

// process.exit drops whatever a pipe has not taken yet, so each write is remembered until it is flushed.
let pending: Promise<unknown> = Promise.resolve();
function write(stream: NodeJS.WriteStream, s: string) {
  const line = s.endsWith("\n") ? s : `${s}\n`;
  const done = new Promise((resolve) => stream.write(line, resolve));
  pending = Promise.all([pending, done]);
}

/** Resolves once everything written so far has been handed to the terminal or pipe. */
export const flushed = () => pending;

/**
 * A reader that closed the pipe (`svc … | head -1`) has all it wants: leave quietly. Only a pipe or a socket can be
 * closed by its reader; a terminal, a file or /dev/null is left alone, since touching process.stdout or stderr
 * makes their streams (Node's stream machinery, about 1 MiB and several ms at start) for output that may never come.
 */
export function quietOnClosedPipe(): void {
  for (const fd of [1, 2]) {
    if (!closable(fd)) continue;
    (fd === 1 ? process.stdout : process.stderr).on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(0);
    });
  }
}

function closable(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    return s.isFIFO() || s.isSocket();
  } catch {
    return false;
  }
}

export const processIo: Io = {
  out: (s) => write(process.stdout, s),
  err: (s) => write(process.stderr, s),
  stdin: async () => await new Response(Bun.stdin.stream()).text(),
};

export function describeError(e: unknown): { message: string; code: number } {
  if (e instanceof UsageError) return { message: e.message, code: 2 };
  if (e instanceof Cancelled) return { message: "cancelled", code: 130 };
  if (e instanceof ApiError) {
    // Every problem on its own line; a single one is already the message.
    const lines = e.problems
      .filter((p) => e.problems.length > 1 || (p.message && p.message !== e.message))
      .map((p) => `  - ${p.param ? `${p.param}: ` : ""}${p.message ?? ""}${p.code ? ` (${p.code})` : ""}`);
    const hint =
      e.status === 401
        ? process.env.SVC_TOKEN
          ? "\n(the credential in SVC_TOKEN was refused)"
          : "\n(sign in again: svc auth login)"
        : "";
    return {
      message: `${e.message} (${e.code})${lines.length ? `\n${lines.join("\n")}` : ""}${hint}`,
      code: 1,
    };
  }
  if (e instanceof ServiceError) {
    const extra =
      e.errors && e.errors.length > 1
        ? `\n${e.errors.map((p) => `  - ${p.param ? `${p.param}: ` : ""}${p.message} (${p.code})`).join("\n")}`
        : "";
    return { message: `${e.message} (${e.code})${extra}`, code: 1 };
  }
  const msg = e instanceof Error ? e.message : String(e);
  if (/unknown option|Unexpected argument|argument missing|requires a value/i.test(msg))
    return { message: msg, code: 2 };
  return { message: msg, code: 1 };
}

/** Aligned columns for a terminal; tab-separated values when piped. */
export function table(rows: string[][], tty = Boolean(process.stdout.isTTY)): string {
  if (!tty) return rows.map((r) => r.join("\t")).join("\n");
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  "))
    .join("\n");
}
