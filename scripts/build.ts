#!/usr/bin/env bun
// `bun run build`: svc as one executable per platform, written to dist/ —
//   dist/svc              for this machine
//   dist/svc-linux-x64    dist/svc-linux-arm64
//   dist/node_modules/    sharp with libvips for both Linux platforms
// `--host-only` builds dist/svc alone (with sharp for this machine); `--out DIR` writes DIR instead of dist/.
// The dashboard's assets and the migrations are inside each executable. sharp's native part cannot load from inside
// a compiled Bun executable, so it ships beside it and `loadSharp` (src/domain/media/sniff.ts) requires it from
// there. dist/ copied alone to a fresh machine runs: `dist/svc all` starts on SQLite in the working directory.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outAt = process.argv.indexOf("--out");
const dist = outAt > 0 ? process.argv[outAt + 1]! : join(root, "dist");
const modules = join(root, "node_modules");
const cache = join(modules, ".cache", "svc-build");
const only = process.argv.includes("--host-only");

type Target = { file: string; bun: string; sharp: string };
const TARGETS: Target[] = [
  { file: "svc-linux-x64", bun: "bun-linux-x64", sharp: "linux-x64" },
  { file: "svc-linux-arm64", bun: "bun-linux-arm64", sharp: "linux-arm64" },
];
const hostSharp = `${process.platform}-${process.arch}`;

async function run(cmd: string[], cwd = root): Promise<void> {
  const p = Bun.spawn(cmd, { cwd, stdout: "inherit", stderr: "inherit" });
  if ((await p.exited) !== 0) throw new Error(`${cmd.join(" ")} failed`);
}

async function compile(outfile: string, target?: string): Promise<void> {
  const args = [
    "bun",
    "build",
    "--compile",
    // sharp (dist/node_modules) resolves through its package.json files at run time.
    "--compile-autoload-package-json",
    // Precompiled bytecode: the executable starts in about a quarter of `bun src/main.ts all`'s time, since the
    // bundle's source is not parsed at start (bench/executable.ts).
    "--bytecode",
    "--format=esm",
    "--minify-whitespace",
    "--minify-syntax",
    "src/main.ts",
    "--outfile",
  ];
  await run([...args, outfile, ...(target ? [`--target=${target}`] : [])]);
}

/** A package's folder for a platform: from node_modules when installed there, else fetched from the registry once. */
async function pkg(name: string, version: string): Promise<string> {
  const installed = join(modules, name);
  if (existsSync(join(installed, "package.json"))) {
    const v = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version;
    if (v === version) return installed;
  }
  const dir = join(cache, `${name.replace("/", "+")}@${version}`);
  if (!existsSync(join(dir, "package", "package.json"))) {
    mkdirSync(dir, { recursive: true });
    console.log(`fetching ${name}@${version}`);
    await run(["npm", "pack", "--silent", `${name}@${version}`, "--pack-destination", dir]);
    const tgz = new Bun.Glob("*.tgz").scanSync(dir).next().value as string;
    await run(["tar", "-xzf", tgz], dir);
  }
  return join(dir, "package");
}

const sharpPkg = JSON.parse(readFileSync(join(modules, "sharp", "package.json"), "utf8"));
const sharpOptional: Record<string, string> = sharpPkg.optionalDependencies;

async function shipSharp(platforms: string[]): Promise<void> {
  const out = join(dist, "node_modules");
  // sharp's JavaScript and what it requires at run time.
  for (const name of ["sharp", "detect-libc", "semver", "@img/colour"]) {
    cpSync(join(modules, name), join(out, name), { recursive: true, dereference: true });
  }
  for (const platform of platforms) {
    for (const name of [`@img/sharp-${platform}`, `@img/sharp-libvips-${platform}`]) {
      const version = sharpOptional[name];
      if (!version) throw new Error(`sharp ${sharpPkg.version} has no ${name}`);
      cpSync(await pkg(name, version), join(out, name), { recursive: true, dereference: true });
    }
  }
}

const started = performance.now();
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await compile(join(dist, "svc"));
if (!only) {
  for (const t of TARGETS) {
    if (t.sharp === hostSharp) cpSync(join(dist, "svc"), join(dist, t.file));
    else await compile(join(dist, t.file), t.bun);
  }
}
await shipSharp(only ? [hostSharp] : TARGETS.map((t) => t.sharp));
console.log(`dist/ written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
