/**
 * The toolkit's version, as `beeuni --version` prints it. A test keeps it
 * equal to `deno.json` and `package.json`.
 *
 * @module
 */

/** The version of `@beeuni/tools`. */
export const VERSION = "0.1.0";
