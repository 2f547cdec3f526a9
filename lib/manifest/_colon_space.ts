// A key written without the space YAML needs after its colon
// (`slug:tools/slug.ts`) is read as one string, not a key and its value.
// The parser names the fix wherever such a string turns up.

/**
 * `key:value` with no space after the colon; not a URL (`://`), a
 * `beeuni:<name>` value or a drive letter (`C:\`).
 */
const UNSPACED = /^(?!beeuni:)([A-Za-z_][\w.-]+):([^\s/]\S*|\/(?!\/)\S*)$/;

/**
 * The text `key: value` that `text` meant when it is a key and its value
 * written without the space after the colon (`slug:tools/slug.ts`), else
 * `undefined`. A URL (`http://…`) is not one.
 */
export function spacedEntry(text: string): string | undefined {
  const match = UNSPACED.exec(text.trim());
  return match ? `${match[1]}: ${match[2]}` : undefined;
}
