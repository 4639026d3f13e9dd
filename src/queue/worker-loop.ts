import type { App } from "../app/context.ts";

/** A loop that runs for the life of a worker process (the publish queue, webhook deliveries). */
export interface WorkerLoop {
  name: string;
  start(app: App): { stop(): Promise<void> };
}
