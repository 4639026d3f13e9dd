// Preloaded into a child svc process by test/app/lazy-load.test.ts (`bun --preload`): on SIGUSR2 it writes the path
// of every module loaded so far to LOADED_MODULES_TO. Bun's require.cache lists ES modules as well as CommonJS.
import { renameSync, writeFileSync } from "node:fs";

process.on("SIGUSR2", () => {
  const to = process.env.LOADED_MODULES_TO!;
  writeFileSync(`${to}.part`, JSON.stringify(Object.keys(require.cache)));
  renameSync(`${to}.part`, to);
});
