// The rendering core (text counting, link finding with the full list of top-level domains, template rendering)
// loads with the first post or preview, not at start-up: it is most of the memory a process would otherwise pay
// before serving anything.
export type { RenderViolation, Rendition } from "./render.ts";

let mod: typeof import("./render.ts") | null = null;

export async function loadRender(): Promise<typeof import("./render.ts")> {
  mod ??= await import("./render.ts");
  return mod;
}
