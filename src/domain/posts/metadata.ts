// metadata: at most 50 string pairs, keys 1-40 characters, values at most 500 (metadata_invalid);
// metadata.svc_simulate is reserved for test mode and known values (reference §3); svc_simulate_channels, which
// limits it to some channels, for test mode.
import { type Problem, problem } from "../../lib/errors.ts";

export const SIMULATE_KEY = "svc_simulate";
/** Limits svc_simulate to some channels (IDs or emulated networks, comma-separated): partial publishing. */
export const SIMULATE_CHANNELS_KEY = "svc_simulate_channels";

export function checkMetadata(
  input: Record<string, unknown> | undefined,
  livemode: boolean,
  simulations: readonly string[],
): { metadata: Record<string, string>; problems: Problem[] } {
  const problems: Problem[] = [];
  const metadata: Record<string, string> = {};
  const entries = Object.entries(input ?? {});
  if (entries.length > 50)
    problems.push(problem("metadata_invalid", "metadata holds at most 50 keys.", "metadata"));
  for (const [k, v] of entries) {
    if (k.length < 1 || k.length > 40)
      problems.push(problem("metadata_invalid", "metadata keys are 1 to 40 characters.", `metadata.${k}`));
    else if (typeof v !== "string")
      problems.push(problem("metadata_invalid", "metadata values are strings.", `metadata.${k}`));
    else if (v.length > 500)
      problems.push(
        problem("metadata_invalid", "metadata values are at most 500 characters.", `metadata.${k}`),
      );
    else metadata[k] = v;
  }
  const sim = metadata[SIMULATE_KEY];
  if (sim !== undefined) {
    if (livemode)
      problems.push(
        problem(
          "simulation_in_live_mode",
          "svc_simulate works in test mode only.",
          `metadata.${SIMULATE_KEY}`,
        ),
      );
    else if (!simulations.includes(sim)) {
      problems.push(
        problem(
          "simulation_invalid",
          `svc_simulate must be one of ${simulations.join(", ")}.`,
          `metadata.${SIMULATE_KEY}`,
        ),
      );
    }
  }
  if (metadata[SIMULATE_CHANNELS_KEY] !== undefined && livemode)
    problems.push(
      problem(
        "simulation_in_live_mode",
        "svc_simulate_channels works in test mode only.",
        `metadata.${SIMULATE_CHANNELS_KEY}`,
      ),
    );
  return { metadata, problems };
}
