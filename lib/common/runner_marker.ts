/**
 * The first argument that starts the toolkit's program as a tool runner
 * instead of the command line (a one-file build runs its runners as
 * itself).
 *
 * @module
 */

/** The argument that starts the toolkit's entry as a tool runner. */
export const RUNNER_MARKER = "__beeuni_runner";
