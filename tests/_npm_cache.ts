// Programs the tests run for real (opencode, Bun), installed from npm into a
// cache folder outside the repository and reused between runs.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache folder holding the npm install of `name@version`. */
export function npmCacheDir(name: string, version: string): string {
  return join(testCacheRoot(), `${name}-${version}`);
}

/**
 * The folder of the tests' own caches, `~/.cache/beeuni-test` (under
 * `$XDG_CACHE_HOME` when set): installs, and what the programs the tests run
 * keep between runs.
 */
export function testCacheRoot(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const base = xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache");
  return join(base, "beeuni-test");
}

/**
 * Variables that keep what a program run by the tests writes for itself in
 * the tests' cache instead of the user's home: `beeuni tools migrate`'s
 * plugin install (`XDG_CACHE_HOME`), Bun's transpiler cache
 * (`~/.bun/install/cache` by default).
 */
export function testCacheEnv(): Record<string, string> {
  return {
    XDG_CACHE_HOME: join(testCacheRoot(), "xdg-cache"),
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(testCacheRoot(), "bun-transpiler"),
  };
}

/**
 * A home of its own for a program the tests run that writes into its home
 * (Chromium's crash reports, an npm package's install script): `HOME` and
 * the XDG folders under `<test cache>/homes/<name>`.
 */
export function testHomeEnv(name: string): Record<string, string> {
  const home = join(testCacheRoot(), "homes", name);
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
  };
}

const installs = new Map<string, Promise<string>>();

/**
 * The path of the `bin` program of npm package `name@version`, installing it
 * with npm into {@linkcode npmCacheDir} the first time (into a fresh folder
 * that is then renamed into place, so a half-done install is never reused).
 */
export function npmBin(
  name: string,
  version: string,
  bin: string,
): Promise<string> {
  return installOnce(name, version, join("node_modules", ".bin", bin));
}

/**
 * The `node_modules` folder holding npm package `name@version` (a library,
 * no program), installed like {@linkcode npmBin} the first time.
 */
export async function npmPackage(
  name: string,
  version: string,
): Promise<string> {
  await installOnce(name, version, join("node_modules", name, "package.json"));
  return join(npmCacheDir(name, version), "node_modules");
}

function installOnce(
  name: string,
  version: string,
  probe: string,
): Promise<string> {
  const key = `${name}@${version}`;
  let install = installs.get(key);
  if (install === undefined) {
    install = installInto(npmCacheDir(name, version), key, probe);
    installs.set(key, install);
  }
  return install;
}

async function installInto(
  dir: string,
  spec: string,
  probe: string,
): Promise<string> {
  const bin = join(dir, probe);
  if (existsSync(bin)) return bin;
  const staging = `${dir}.${Deno.pid}.tmp`;
  await Deno.mkdir(staging, { recursive: true });
  const out = await new Deno.Command("npm", {
    args: ["install", "--prefix", staging, spec, "--no-audit", "--no-fund"],
    // Install scripts (opencode's) write into their home: not the user's.
    // npm keeps its own download cache where it always is.
    env: {
      ...testHomeEnv("npm-install"),
      npm_config_cache: Deno.env.get("npm_config_cache") ??
        join(homedir(), ".npm"),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `npm install ${spec} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  try {
    await Deno.rename(staging, dir);
  } catch (error) {
    // Another run finished first: use its install.
    if (!existsSync(bin)) throw error;
    await Deno.remove(staging, { recursive: true });
  }
  return bin;
}
