import * as v from "valibot";
import { type Problem, problem } from "../../lib/errors.ts";

export const MAX_GOALS = 20;
export const MAX_GOAL_LENGTH = 120;

export const AnalyticsSourceCreate = v.strictObject({
  brand: v.string(),
  provider: v.string(),
  goals: v.optional(v.array(v.string())),
  fields: v.optional(v.record(v.string(), v.string())),
});

export const ANALYTICS_GROUP_BY = ["post", "source", "medium", "campaign", "content", "day"] as const;
export type AnalyticsGroupBy = (typeof ANALYTICS_GROUP_BY)[number];

/** Goals as the tool names them: at most 20, each 1-120 characters, none twice. Every problem is listed. */
export function goalProblems(goals: string[]): Problem[] {
  const out: Problem[] = [];
  if (goals.length > MAX_GOALS)
    out.push(
      problem(
        "goals_too_many",
        `A source takes at most ${MAX_GOALS} goals; ${goals.length} were given.`,
        "goals",
      ),
    );
  const seen = new Set<string>();
  goals.forEach((g, i) => {
    const name = g.trim();
    if (name === "" || [...name].length > MAX_GOAL_LENGTH)
      out.push(
        problem("goal_invalid", `Goal ${i + 1} must be 1 to ${MAX_GOAL_LENGTH} characters.`, `goals.${i}`),
      );
    else if (seen.has(name)) out.push(problem("goal_invalid", `Goal ${name} is named twice.`, `goals.${i}`));
    seen.add(name);
  });
  return out;
}
