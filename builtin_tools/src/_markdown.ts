/**
 * The readable part of a page as Markdown, or as plain text, with turndown.
 * Its rules are turndown's, but for what a model reads best: `- ` and
 * `1. ` list markers indented by their width, few backslashes, fenced code
 * with the language a highlighter's class names, GitHub tables that keep
 * `colspan` and `rowspan` (a table in a cell becomes one line of it, a
 * layout table its cells' content), `~~deleted~~`, `<sup>`/`<sub>`.
 *
 * @module
 */

// @ts-types="@types/turndown"
import TurndownService from "turndown/lib/turndown.browser.es.js";
import { all, type DomElement, type DomNode } from "./_dom.ts";

/** The node turndown hands a rule: a copy of the page's element. */
type RuleNode = Parameters<TurndownService.ReplacementFunction>[1];

/** Marks around table parts until the table rule lays them out. */
const CELL = "\u001f";
const CELL_TEXT = "\u0000";
const CELL_END = "\u001e";
const ROW = "\u001d";
const ROW_END = "\u001c";
const CAPTION = "\u0002";
const CAPTION_END = "\u0003";

function element(node: RuleNode): DomElement {
  return node as unknown as DomElement;
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** Escapes what Markdown would read as marks, and nothing else. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\*`]/g, "\\$&")
    .replace(
      /(^|[\s(])_|_($|[\s).,;:!?])/g,
      (match) => match.replace("_", "\\_"),
    )
    .replace(/\[([^\]]*)\]\(/g, "\\[$1\\](")
    .replace(/^(#{1,6}\s|>|[-+]\s|={3,}\s*$|-{3,}\s*$)/, "\\$1")
    .replace(/^(\d+)([.)]\s)/, "$1\\$2");
}

/** A link target as Markdown needs it: no spaces or parentheses. */
function linkTarget(href: string): string {
  return href.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/ /g, "%20");
}

/** The number an `<ol>` gives `item`: `start`, then `value` where set. */
function itemNumber(list: DomElement, item: DomElement): number {
  let number = Number.parseInt(list.getAttribute("start") ?? "1", 10);
  if (!Number.isFinite(number)) number = 1;
  for (const sibling of Array.from(list.childNodes)) {
    if (sibling.nodeName !== "LI") continue;
    const value = Number.parseInt(
      (sibling as DomElement).getAttribute("value") ?? "",
      10,
    );
    if (Number.isFinite(value)) number = value;
    if (sibling === item) return number;
    number++;
  }
  return number;
}

/** Indents every line of `text` after the first by `width` spaces. */
function indent(text: string, width: number): string {
  const pad = " ".repeat(width);
  return text.replace(/\n(?!\n|$)/g, `\n${pad}`);
}

/** The language a highlighter's class names give a code block. */
function codeLanguage(pre: DomElement): string {
  const owners = [
    pre,
    ...all(pre, "code"),
    pre.parentNode as DomElement | null,
    pre.parentNode?.parentNode as DomElement | null,
  ];
  const classes = owners.map((owner) => owner?.getAttribute?.("class") ?? "")
    .join(" ");
  const named = /(?:^|\s)(?:(?:language|lang|highlight)-|brush:\s*)([\w+#.-]+)/
    .exec(
      classes,
    )?.[1];
  const dataLang = pre.getAttribute("data-lang") ?? "";
  return named ?? (/^[\w+#.-]+$/.test(dataLang) ? dataLang : "");
}

/** One table cell as laid out: its text and the grid cells it spans. */
interface Cell {
  text: string;
  colspan: number;
  rowspan: number;
}

/** The rows of a table rule's content, from the marks its parts left. */
function tableRows(content: string): { cells: Cell[]; header: boolean }[] {
  const rows = [];
  for (const row of content.split(ROW).slice(1)) {
    const cells = row.slice(1, row.indexOf(ROW_END)).split(CELL).slice(1)
      .map((part): Cell => {
        const [meta, text] = part.slice(0, part.indexOf(CELL_END))
          .split(CELL_TEXT);
        const [colspan, rowspan] = meta.split(" ").map(Number);
        return { text, colspan, rowspan };
      });
    if (cells.length > 0) rows.push({ cells, header: row[0] === "1" });
  }
  return rows;
}

/** Lays out cells with their spans: every row as wide as the widest. */
function grid(rows: { cells: Cell[] }[]): string[][] {
  const out: string[][] = [];
  rows.forEach((row, r) => {
    out[r] ??= [];
    let column = 0;
    for (const cell of row.cells) {
      while (out[r][column] !== undefined) column++;
      const rowspan = Math.min(cell.rowspan, rows.length - r);
      for (let c = 0; c < cell.colspan; c++) {
        for (let s = 0; s < rowspan; s++) {
          out[r + s] ??= [];
          out[r + s][column + c] = s === 0 && c === 0 ? cell.text : "";
        }
      }
      column += cell.colspan;
    }
  });
  const width = out.reduce((max, row) => Math.max(max, row.length), 0);
  return out.map((row) =>
    Array.from({ length: width }, (_, c) => (row[c] ?? "").trim())
  );
}

/** Elements that make a cell hold a page section rather than data. */
const SECTION_IN_CELL =
  "h1,h2,h3,h4,h5,h6,pre,blockquote,hr,article,section,main,nav,form";

/** The rows of `table` itself, not of a table inside it. */
function ownRows(table: DomElement): DomElement[] {
  return all(table, "tr").filter((row) => row.closest("table") === table);
}

/** Whether `table` lays out a page rather than holding data. */
function isLayoutTable(table: DomElement): boolean {
  const role = (table.getAttribute("role") ?? "").toLowerCase();
  if (role === "presentation" || role === "none") return true;
  const cells = ownRows(table).map((row) =>
    Array.from(row.childNodes).filter((cell) =>
      cell.nodeName === "TD" || cell.nodeName === "TH"
    ) as DomElement[]
  );
  if (cells.every((row) => row.length <= 1)) return true;
  const own = (inner: DomElement) => inner.closest("table") === table;
  if (all(table, SECTION_IN_CELL).some(own)) return true;
  return cells.flat().some((cell) =>
    all(cell, "p").filter((p) => p.closest("td, th") === cell).length > 1
  );
}

/**
 * The cell of a data table that holds `node`, if any: a cell of a layout
 * table does not count, its content is laid out as blocks.
 */
function dataCellOf(node: DomElement): DomElement | null {
  for (
    let cell = node.closest("td, th");
    cell;
    cell = (cell.closest("table")?.parentNode as DomElement | null)
      ?.closest?.("td, th") ?? null
  ) {
    const table = cell.closest("table");
    if (table && !isLayoutTable(table)) return cell;
  }
  return null;
}

/** Converts HTML nodes to Markdown (or plain text with `markdown` false). */
export function markdownConverter(
  markdown: boolean,
): (root: DomNode) => string {
  const service = new TurndownService({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "*",
    strongDelimiter: "**",
    br: markdown ? "  " : "",
  });
  // A no-break space reads as a space; Markdown marks are escaped.
  service.escape = (text: string) =>
    (markdown ? escapeMarkdown(text) : text).replace(/\u00a0/g, " ");
  const marked = (mark: string) => (content: string) =>
    markdown && content.trim() !== "" ? `${mark}${content}${mark}` : content;
  service.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement(content, node) {
      const text = collapse(content);
      if (text === "") return "";
      if (!markdown || dataCellOf(element(node))) {
        return `\n\n${text}\n\n`;
      }
      const level = Number(
        element(node).getAttribute("data-level") ?? node.nodeName[1],
      );
      return `\n\n${"#".repeat(level)} ${text}\n\n`;
    },
  });
  service.addRule("listItem", {
    filter: "li",
    replacement(content, node) {
      const item = element(node);
      const list = item.parentNode as DomElement | null;
      const marker = list?.nodeName === "OL"
        ? `${itemNumber(list, item)}. `
        : "- ";
      const text = content.replace(/^\n+/, "").replace(/\n+$/, "");
      return `${marker}${indent(text, marker.length)}${
        item.nextSibling ? "\n" : ""
      }`;
    },
  });
  service.addRule("codeBlock", {
    filter: "pre",
    replacement(_content, node) {
      const code = String(node.textContent ?? "").replace(/\r\n?/g, "\n")
        .replace(/^\n/, "").replace(/\s+$/, "");
      if (code.trim() === "") return "";
      if (dataCellOf(element(node))) {
        return markdown ? `\`${collapse(code)}\`` : collapse(code);
      }
      if (!markdown) return `\n\n${code}\n\n`;
      const longest = (code.match(/^\s*`{3,}/gm) ?? [])
        .reduce((max, run) => Math.max(max, run.trim().length), 2);
      const fence = "`".repeat(longest + 1);
      return `\n\n${fence}${
        codeLanguage(element(node))
      }\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule("link", {
    filter: (node) => node.nodeName === "A" && node.hasAttribute("href"),
    replacement(content, node) {
      const href = linkTarget(element(node).getAttribute("href") ?? "");
      const text = content.trim();
      if (!markdown || text === "") return content;
      if (!text.includes("\n")) {
        return content.replace(text, `[${text}](${href})`);
      }
      // A link around blocks (a card): the first line links.
      const [first, ...rest] = text.split("\n");
      const heading = /^(#{1,6} )(.+)$/.exec(first);
      const linked = heading
        ? `${heading[1]}[${heading[2]}](${href})`
        : first.includes("](")
        ? first
        : `[${first}](${href})`;
      return `\n\n${[linked, ...rest].join("\n")}\n\n`;
    },
  });
  service.addRule("image", {
    filter: "img",
    replacement(_content, node) {
      const alt = collapse(element(node).getAttribute("alt") ?? "");
      const src = element(node).getAttribute("src") ?? "";
      if (!markdown) return alt;
      return `![${alt.replace(/[[\]]/g, "\\$&")}](${linkTarget(src)})`;
    },
  });
  service.addRule("strong", {
    filter: ["strong", "b"],
    replacement: marked("**"),
  });
  service.addRule("emphasis", {
    filter: ["em", "i"],
    replacement: marked("*"),
  });
  service.addRule("deleted", {
    filter: ["del", "s", "strike"],
    replacement: marked("~~"),
  });
  service.addRule("code", {
    filter: (node) =>
      ["CODE", "KBD", "SAMP", "TT"].includes(node.nodeName) &&
      node.parentNode?.nodeName !== "PRE",
    replacement(_content, node) {
      const text = collapse(String(node.textContent ?? ""));
      if (!markdown || text === "") return text;
      const longest = (text.match(/`+/g) ?? [])
        .reduce((max, run) => Math.max(max, run.length), 0);
      const fence = "`".repeat(longest + 1);
      const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
      return `${fence}${pad}${text}${pad}${fence}`;
    },
  });
  service.addRule("superscript", {
    filter: ["sup", "sub"],
    replacement(content, node) {
      const text = content.trim();
      if (text === "" || text.startsWith("[") || text.startsWith("\\[")) {
        return text.replace(/^\\\[(.*)\\\]$/, "[$1]");
      }
      const tag = node.nodeName.toLowerCase();
      if (markdown) return `<${tag}>${text}</${tag}>`;
      return `${tag === "sup" ? "^" : "_"}${text}`;
    },
  });
  service.addRule("quotation", {
    filter: "q",
    replacement: (content) => `"${content}"`,
  });
  service.addRule("term", {
    filter: "dt",
    replacement(content) {
      const text = content.trim();
      if (text === "") return "";
      return markdown && !text.includes("\n")
        ? `\n\n**${text}**\n\n`
        : `\n\n${text}\n\n`;
    },
  });
  service.addRule("definition", {
    filter: "dd",
    replacement(content) {
      const text = content.replace(/^\n+/, "").replace(/\n+$/, "");
      return text === "" ? "" : `\n\n: ${indent(text, 2)}\n\n`;
    },
  });
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement(content, node) {
      const cell = element(node);
      const span = (name: string, max: number) =>
        Math.min(
          Math.max(Number.parseInt(cell.getAttribute(name) ?? "1", 10) || 1, 1),
          max,
        );
      return `${CELL}${span("colspan", 50)} ${
        span("rowspan", 1000)
      }${CELL_TEXT}${content.trim()}${CELL_END}`;
    },
  });
  service.addRule("tableRow", {
    filter: "tr",
    replacement(content, node) {
      const row = element(node);
      const cells = Array.from(row.childNodes).filter((child) =>
        child.nodeName === "TD" || child.nodeName === "TH"
      );
      const header = row.parentNode?.nodeName === "THEAD" ||
        (cells.length > 0 && cells.every((cell) => cell.nodeName === "TH"));
      return `${ROW}${header ? 1 : 0}${content}${ROW_END}`;
    },
  });
  service.addRule("tableSection", {
    filter: ["thead", "tbody", "tfoot"],
    replacement: (content) => content,
  });
  service.addRule("tableCaption", {
    filter: "caption",
    replacement: (content) => `${CAPTION}${content.trim()}${CAPTION_END}`,
  });
  service.addRule("tableColumns", {
    filter: ["colgroup", "col"],
    replacement: () => "",
  });
  service.addRule("table", {
    filter: "table",
    replacement: (content, node) => table(content, element(node)),
  });
  /** A table: a pipe table, one line in a cell, or a layout's blocks. */
  const table = (content: string, node: DomElement): string => {
    const caption = content.includes(CAPTION)
      ? content.slice(
        content.indexOf(CAPTION) + 1,
        content.indexOf(CAPTION_END),
      )
      : "";
    const rows = tableRows(content);
    const cells = grid(rows);
    const width = cells[0]?.length ?? 0;
    const filled = (row: string[]) => row.some((cell) => cell !== "");
    const inCell = node.parentNode && dataCellOf(node.parentNode as DomElement);
    if (inCell) {
      const flat = cells.filter(filled).map((row) =>
        row.filter((cell) => cell !== "").join("; ").replace(/\n+/g, " ")
      );
      return ` ${[caption, ...flat].filter(Boolean).join("\n")} `;
    }
    const blocks = [caption];
    if (isLayoutTable(node)) {
      blocks.push(...rows.flatMap((row) => row.cells.map((cell) => cell.text)));
    } else if (!markdown) {
      blocks.push(
        cells.filter(filled).map((row) => row.join(" | ").replace(/\n+/g, " "))
          .join("\n"),
      );
    } else if (cells.some(filled)) {
      const line = (row: string[]) =>
        `| ${
          row.map((cell) => cell.replace(/\n+/g, "<br>").replace(/\|/g, "\\|"))
            .join(" | ")
        } |`;
      const hasHeader = rows[0].header && filled(cells[0]);
      blocks.push([
        line(hasHeader ? cells[0] : new Array(width).fill("")),
        line(new Array(width).fill("---")),
        ...(hasHeader ? cells.slice(1) : cells).filter(filled).map(line),
      ].join("\n"));
    }
    return `\n\n${
      blocks.filter((block) => block.trim() !== "").join("\n\n")
    }\n\n`;
  };
  return (root) =>
    service.turndown(root as unknown as TurndownService.Node)
      .replace(
        /[ \t]+$/gm,
        (spaces) => spaces === "  " && markdown ? spaces : "",
      )
      .replace(/\n{3,}/g, "\n\n")
      .trim();
}
