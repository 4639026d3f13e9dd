// What the post action commands share: the post (or target) as the API answers, printed as its ID and status, or
// as JSON with --json.
import type { Ctx } from "../client/command.ts";
import { printObject } from "../client/printer.ts";

// biome-ignore lint/suspicious/noExplicitAny: the API's Post or PostTarget JSON
export async function printAction(ctx: Ctx, p: any): Promise<number> {
  const rows: [string, string | null | undefined][] = [
    ["ID", p.id],
    ["Status", p.status],
  ];
  if (p.publish_at !== undefined) rows.push(["Publish at", p.publish_at ?? "-"]);
  if (Array.isArray(p.problems) && p.problems.length)
    rows.push([
      "Problems",
      p.problems.map((x: { code: string; message: string }) => `${x.code}: ${x.message}`).join("\n"),
    ]);
  await printObject(ctx, p, rows);
  return 0;
}
