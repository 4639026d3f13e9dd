#!/usr/bin/env bun
// svc: the one command. Process roles, `svc admin …`, and client commands.
import { run } from "./cli/run.ts";

process.exit(await run(process.argv.slice(2)));
