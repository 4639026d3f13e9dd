import { parseArgs } from "node:util";
import type { Io } from "../output.ts";
import { UsageError } from "../output.ts";

export interface AdminCommand {
  /** e.g. "keys generate" */
  name: string;
  usage: string;
  run(args: string[], io: Io): Promise<void>;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/** Strict flag parsing: an unknown flag or a stray argument is a usage error (exit 2). */
export function flags<O extends Options>(args: string[], options: O, required: string[] = []) {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
  >;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  for (const r of required)
    if ((parsed.values as Record<string, unknown>)[r] === undefined)
      throw new UsageError(`--${r} is required`);
  return parsed.values;
}

/** Reads a password from stdin (--password-stdin): the first line, without its newline. */
export async function passwordFromStdin(io: Io): Promise<string> {
  const pw = (await io.stdin()).split(/\r?\n/)[0] ?? "";
  if (pw.length < 8) throw new UsageError("the password from stdin must be at least 8 characters");
  return pw;
}
