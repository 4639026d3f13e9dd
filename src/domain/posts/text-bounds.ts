// A post's own text (content.body, content.parts, overrides) is measured, cut, link-tagged and split per network
// on the event loop every tenant shares, in time that grows with its length: a 1 MiB body held the process for
// seconds. Like a template's rendered output, it is at most 64 KiB, checked before any of that work.
import { type Problem, problem } from "../../lib/errors.ts";
import { TEMPLATE_LIMIT_BYTES, utf8Length } from "../templates/limits.ts";

const tooLarge = (param: string, size: number) =>
  problem(
    "output_too_large",
    `\`${param}\` is ${size} bytes of UTF-8, over the limit of ${TEMPLATE_LIMIT_BYTES} bytes (64 KiB).`,
    param,
    { length: size, limit: TEMPLATE_LIMIT_BYTES },
  );

/** `output_too_large` for the body, the parts together, and each override over 64 KiB. */
export function postTextBounds(input: {
  content?: { body?: string; parts?: string[]; overrides?: Record<string, string> } | undefined;
  overrides?: Record<string, string> | undefined;
}): Problem[] {
  const out: Problem[] = [];
  const check = (param: string, size: number) => {
    if (size > TEMPLATE_LIMIT_BYTES) out.push(tooLarge(param, size));
  };
  const c = input.content;
  if (c?.body !== undefined) check("content.body", utf8Length(c.body));
  if (c?.parts !== undefined)
    check(
      "content.parts",
      c.parts.reduce((n, p) => n + utf8Length(p), 0),
    );
  for (const [provider, text] of Object.entries(c?.overrides ?? {}))
    check(`content.overrides.${provider}`, utf8Length(text));
  for (const [provider, text] of Object.entries(input.overrides ?? {}))
    check(`overrides.${provider}`, utf8Length(text));
  return out;
}
