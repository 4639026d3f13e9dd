#!/usr/bin/env bun
// svc: the one command. Process roles, `svc admin …`, and client commands.
import { flushed, quietOnClosedPipe } from "./cli/output.ts";
import { run } from "./cli/run.ts";

quietOnClosedPipe();
const code = await run(process.argv.slice(2));
await flushed();
process.exit(code);
