// Running the real `svc` binary (bun src/main.ts) as a child process, with its own config directory, as a person
// or a script would: piped (no terminal) here, or in a pseudo-terminal through pty.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnPty } from "./pty.ts";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export interface Cli {
  configDir: string;
  env: Record<string, string>;
  run(args: string[], o?: { stdin?: string; env?: Record<string, string> }): Promise<CliRun>;
  pty(args: string[], env?: Record<string, string>): ReturnType<typeof spawnPty>;
  cleanup(): void;
}

export function cli(): Cli {
  const configDir = mkdtempSync(join(tmpdir(), "svc-cli-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: configDir,
    SVC_CONFIG_DIR: join(configDir, "svc"),
    // A browser opener that does nothing, so nothing opens on the machine running the tests.
    BROWSER: "true",
  };
  return {
    configDir,
    env,
    async run(args, o = {}) {
      const p = Bun.spawn(["bun", "src/main.ts", ...args], {
        env: { ...env, ...o.env },
        stdin: o.stdin === undefined ? "ignore" : new TextEncoder().encode(o.stdin),
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
        p.exited,
      ]);
      return { code, out, err };
    },
    pty(args, extra = {}) {
      return spawnPty(["bun", "src/main.ts", ...args], { ...env, ...extra });
    },
    cleanup() {
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
