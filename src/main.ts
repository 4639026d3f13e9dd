#!/usr/bin/env bun
// svc: the one command. Process roles, `svc admin …`, and client commands.
import { flushed, processIo, quietOnClosedPipe } from "./cli/output.ts";
import { run } from "./cli/run.ts";

quietOnClosedPipe();
// The composition root (src/boot.ts) loads only for the commands that need it: process roles and admin.
const code = await run(process.argv.slice(2), processIo, () => import("./boot.ts"));
await flushed();
process.exit(code);
