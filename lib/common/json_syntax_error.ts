/**
 * Where a JSON text breaks, the same on every runtime: `JSON.parse` says it
 * in words that differ between V8 and JavaScriptCore, and not always with a
 * position.
 *
 * @module
 */

/** Where a JSON text breaks and what was expected there. */
export interface JsonSyntaxError {
  /** Offset (UTF-16 units) of the first character that does not fit. */
  offset: number;
  /** 1-based line of that character. */
  line: number;
  /** 1-based column of that character. */
  col: number;
  /** What is wrong there, in words (`expected a property name in double quotes`). */
  problem: string;
  /** The text from that character on, at most 20 characters of its line (empty at the end). */
  near: string;
}

/** Thrown inside the scan at the first character that does not fit. */
class Broken {
  readonly offset: number;
  readonly problem: string;

  constructor(offset: number, problem: string) {
    this.offset = offset;
    this.problem = problem;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** Reads JSON text one token at a time, with an explicit stack. */
class Scan {
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  #space(): void {
    while (" \t\n\r".includes(this.#text[this.#at] ?? "x")) this.#at++;
  }

  #fail(problem: string): never {
    throw new Broken(this.#at, problem);
  }

  #expect(what: string): never {
    this.#fail(`expected ${what}`);
  }

  #string(what: string): void {
    const text = this.#text;
    if (text[this.#at] !== '"') this.#expect(what);
    this.#at++;
    while (true) {
      const char = text[this.#at];
      if (char === undefined) this.#expect('a closing quote (")');
      if (char === '"') break;
      if (char === "\\") {
        ESCAPE.lastIndex = this.#at;
        if (!ESCAPE.test(text)) {
          this.#expect('an escape such as \\n, \\" or \\u00e9');
        }
        this.#at = ESCAPE.lastIndex;
        continue;
      }
      if (char.charCodeAt(0) < 0x20) {
        this.#fail(
          "a control character (a line break, a tab) inside a string: write it as \\n or \\t",
        );
      }
      this.#at++;
    }
    this.#at++;
  }

  /** Reads one scalar, or opens a collection (returned as its closer). */
  #value(): "}" | "]" | undefined {
    this.#space();
    const text = this.#text;
    const char = text[this.#at];
    if (char === "{" || char === "[") {
      this.#at++;
      return char === "{" ? "}" : "]";
    }
    if (char === '"') {
      this.#string("a value");
      return undefined;
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return undefined;
      }
    }
    NUMBER.lastIndex = this.#at;
    if (NUMBER.test(text)) {
      this.#at = NUMBER.lastIndex;
      return undefined;
    }
    this.#expect(
      "a value (a string in double quotes, a number, true, false, null, an object or a list)",
    );
  }

  #key(): void {
    this.#space();
    this.#string("a property name in double quotes");
    this.#space();
    if (this.#text[this.#at] !== ":") {
      this.#expect('":" after the property name');
    }
    this.#at++;
  }

  /** Scans the whole text; throws {@linkcode Broken} where it breaks. */
  run(): void {
    const open: ("}" | "]")[] = [];
    let closer = this.#value();
    while (true) {
      if (closer !== undefined) {
        // Just opened: it may close at once, else its first entry follows.
        open.push(closer);
        this.#space();
        if (this.#text[this.#at] === closer) {
          this.#at++;
          open.pop();
        } else {
          if (closer === "}") this.#key();
          closer = this.#value();
          continue;
        }
      }
      const inner = open.at(-1);
      if (inner === undefined) break;
      this.#space();
      const char = this.#text[this.#at];
      if (char === inner) {
        this.#at++;
        open.pop();
        closer = undefined;
        continue;
      }
      if (char !== ",") {
        this.#expect(`"," or "${inner}" after the value`);
      }
      this.#at++;
      if (inner === "}") this.#key();
      closer = this.#value();
    }
    this.#space();
    if (this.#at < this.#text.length) this.#expect("the end of the text");
  }
}

/**
 * Where `text` stops being JSON, or `undefined` when it is JSON. The scan
 * keeps an explicit stack, so deep nesting costs no call stack.
 *
 * @example
 * ```ts
 * import { jsonSyntaxError } from "./json_syntax_error.ts";
 *
 * jsonSyntaxError("{'query': 1}");
 * // { offset: 1, line: 1, col: 2, near: "'query': 1}",
 * //   problem: "expected a property name in double quotes" }
 * ```
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new Scan(text).run();
    return undefined;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    const { offset, problem } = error;
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const col = offset - (before.lastIndexOf("\n") + 1) + 1;
    const near = text.slice(offset).split(/\r?\n/)[0].slice(0, 20);
    return { offset, line, col, problem, near };
  }
}
