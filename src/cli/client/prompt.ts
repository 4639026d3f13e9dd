// Guided prompts (@clack/prompts) only when a person is at a terminal; otherwise the missing flag is named and
// the command exits 2, so a script never hangs on a question.
import type * as Clack from "@clack/prompts";
import { once } from "../../lib/once.ts";
import { Cancelled } from "./errors.ts";

// The prompts load when a command first asks or shows something: output.ts imports this module for Cancelled, so
// every command, and `svc all`, would load them otherwise. With require: intro, spinner and the rest are synchronous.
const clack = once(() => require("@clack/prompts") as typeof Clack);

export { Cancelled } from "./errors.ts";

function settle<T>(v: T): Exclude<T, symbol> {
  if (clack().isCancel(v)) {
    clack().cancel("Cancelled.");
    throw new Cancelled();
  }
  return v as Exclude<T, symbol>;
}

export const ask = {
  async text(message: string, o: { placeholder?: string; initial?: string; required?: boolean } = {}) {
    return settle(
      await clack().text({
        message,
        placeholder: o.placeholder,
        initialValue: o.initial,
        validate: (v) => (o.required !== false && !v?.trim() ? "Required." : undefined),
      }),
    ).trim();
  },
  /**
   * Text of several lines (a post): Enter starts a new line, so a blank line between paragraphs and a pasted
   * text stay as typed; Tab moves to [ submit ] and Enter there finishes.
   */
  async lines(message: string, o: { initial?: string } = {}) {
    const v = settle(
      await clack().multiline({
        message: `${message} (Enter: new line; Tab, then Enter: done)`,
        initialValue: o.initial,
        showSubmit: true,
        validate: (v) => (!v?.trim() ? "Required." : undefined),
      }),
    );
    // Trailing blank lines are an artefact of typing, never part of the post.
    return v.replace(/\s+$/, "");
  },
  async secret(message: string) {
    return settle(
      await clack().password({ message, mask: "", validate: (v) => (v?.trim() ? undefined : "Required.") }),
    ).trim();
  },
  async select<T extends string>(message: string, options: { value: T; label: string; hint?: string }[]) {
    // biome-ignore lint/suspicious/noExplicitAny: clack's Option<T> is a conditional type tsc cannot match here
    return settle(await clack().select<T>({ message, options: options as any }));
  },
  async multiselect<T extends string>(
    message: string,
    options: { value: T; label: string; hint?: string }[],
    initial: T[],
  ) {
    return settle(
      await clack().multiselect<T>({
        message,
        // biome-ignore lint/suspicious/noExplicitAny: as above
        options: options as any,
        initialValues: initial,
        required: true,
      }),
    );
  },
  async confirm(message: string, initial = true) {
    return settle(await clack().confirm({ message, initialValue: initial }));
  },
};

export const intro = (s: string) => clack().intro(s);
export const outro = (s: string) => clack().outro(s);
export const note = (body: string, title?: string) => clack().note(body, title);
export const spinner = (output: NodeJS.WritableStream = process.stdout) =>
  clack().spinner({ output: output as never });
export const logStep = (s: string) => clack().log.step(s);
export const logWarn = (s: string) => clack().log.warn(s);
