// Every migration in order. Listed by import, not read from disk, so a compiled single executable carries them.
import type { Migration } from "../src/db/migration.ts";
import core from "./0001_core.ts";
import webhooks from "./0004_webhooks.ts";

export const migrations: Migration[] = [core, webhooks];
