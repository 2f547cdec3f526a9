// @ts-check
/// <reference lib="dom" />
// A small syntax highlighter: comments, strings, numbers, keywords and
// markup tags, as text nodes inside spans (never HTML). Enough to read code
// a tool shows; not a parser.

const KEYWORDS = new Set(
  ("abstract and as async await break case catch class const continue def " +
    "default defer del delete do elif else enum except export extends false " +
    "final finally fn for from func function go if impl import in instanceof " +
    "interface is lambda let loop match mod module mut new nil none None not " +
    "null of or package pass private protected pub public raise return self " +
    "static struct super switch this throw throws true True False try type " +
    "typeof undefined use var void where while with yield fi then done esac " +
    "echo local export")
    .split(" "),
);

const HASH_COMMENTS = new Set([
  "python",
  "py",
  "sh",
  "bash",
  "shell",
  "zsh",
  "yaml",
  "yml",
  "toml",
  "ruby",
  "rb",
  "r",
  "perl",
  "dockerfile",
  "makefile",
  "ini",
  "conf",
]);

const MARKUP = new Set(["html", "xml", "svg", "vue", "xhtml"]);

const STRING = String.raw`"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'` +
  String.raw`|` + "`(?:\\\\[\\s\\S]|[^`\\\\])*`";
const NUMBER = String
  .raw`\b0[xX][\da-fA-F]+\b|\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b`;

/**
 * @param {string} language
 * @returns {RegExp}
 */
function pattern(language) {
  if (MARKUP.has(language)) {
    return new RegExp(
      String.raw`(?<comment><!--[\s\S]*?-->)|(?<tag><\/?[A-Za-z][^>]*>)`,
      "g",
    );
  }
  const comment = HASH_COMMENTS.has(language)
    ? String.raw`#.*`
    : String.raw`\/\/.*|\/\*[\s\S]*?\*\/`;
  const triple = language === "python" || language === "py"
    ? String.raw`"""[\s\S]*?"""|'''[\s\S]*?'''|`
    : "";
  return new RegExp(
    `(?<comment>${comment})|(?<string>${triple}${STRING})|(?<number>${NUMBER})|(?<word>[A-Za-z_$][\\w$]*)`,
    "g",
  );
}

/**
 * `code` in `language` as a fragment of text nodes and spans.
 * @param {string} code
 * @param {unknown} [language]
 * @returns {DocumentFragment}
 */
export function highlight(code, language) {
  const fragment = document.createDocumentFragment();
  const lang = String(language ?? "").toLowerCase();
  if (code.length > 500_000 || lang === "text" || lang === "plain") {
    fragment.append(code);
    return fragment;
  }
  const regex = pattern(lang);
  let last = 0;
  for (const match of code.matchAll(regex)) {
    const groups = match.groups ?? {};
    let kind = Object.keys(groups).find((name) => groups[name] !== undefined);
    if (kind === "word") {
      if (!KEYWORDS.has(match[0])) continue;
      kind = "keyword";
    }
    if (match.index > last) fragment.append(code.slice(last, match.index));
    const span = document.createElement("span");
    span.className = `hl-${kind}`;
    span.textContent = match[0];
    fragment.append(span);
    last = match.index + match[0].length;
  }
  if (last < code.length) fragment.append(code.slice(last));
  return fragment;
}
