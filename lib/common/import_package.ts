// An npm package loaded on first need, never before: its name is not
// literal, so a bundle of the toolkit leaves it out and commands that do not
// need it start as fast as without it. It resolves from the project's or
// the package's node_modules (or the import map); under Deno, from npm when
// nothing else has it.

/**
 * Imports the package `name`; under Deno, from npm at `range` when nothing
 * else resolves it. Rejects with what to install, and `need` (such as
 * `"sessions need"`) saying why.
 */
export async function importPackage<T>(
  name: string,
  range: string,
  need: string,
  alternative = "",
): Promise<T> {
  // Held in a variable so that bundlers do not inline the package.
  const specifier: string = name;
  try {
    return await import(specifier);
  } catch (error) {
    if ("Deno" in globalThis && !("Bun" in globalThis)) {
      try {
        return await import(`npm:${name}@${range}`);
      } catch {
        // Say what to do about the first failure.
      }
    }
    throw new Error(
      `cannot load "${name}", which ${need}: install it beside the toolkit with \`npm install ${name}@"${range}"\`${alternative} (${
        error instanceof Error ? error.message : String(error)
      })`,
    );
  }
}
