/**
 * One escaping rule for every line a person reads: output of the CLI and
 * the logs of the host, the HTTP handler and the daemon.
 *
 * @module
 */

/** Options of {@linkcode escapeControl}. */
export interface EscapeControlOptions {
  /** Keep line feeds (for text that is meant to span lines, such as a tool's error); default false. */
  keepNewlines?: boolean;
}

const NAMED: Record<string, string> = {
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** Whether the UTF-16 unit `code` is a character a terminal acts on or a line breaker. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c || code === 0x200e || code === 0x200f ||
    code === 0x2028 || code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character written as a visible escape, so a
 * name from a manifest, a request or a tool can neither drive the terminal
 * (ESC sequences that set its title or clear the screen) nor start a line
 * of its own (a forged diagnostic or log line). Line feed, carriage return
 * and tab become `\n`, `\r` and `\t`; other C0 and C1 controls and DEL
 * become `\x1b` and the like; Unicode line separators and bidirectional
 * controls become `\u2028` and the like. Everything else, backslashes
 * included, is left as it is. Never use it on JSON output: JSON has its own
 * escapes.
 *
 * @example
 * ```ts
 * import { escapeControl } from "./escape_control.ts";
 *
 * escapeControl("a\nb\x1b[2J"); // "a\\nb\\x1b[2J"
 * ```
 */
export function escapeControl(
  text: string,
  options: EscapeControlOptions = {},
): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isControl(code) || (code === 0x0a && options.keepNewlines)) continue;
    out += text.slice(from, i) + escapeOne(text[i]);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
