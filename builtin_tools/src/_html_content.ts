/**
 * HTML to readable Markdown or plain text for `scrape_webpage`.
 *
 * @module
 */

// ---------------------------------------------------------------------------
// HTML parsing: a forgiving tokenizer and tree builder

interface Element {
  kind: "element";
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  parent: Element | null;
}

interface Text {
  kind: "text";
  text: string;
}

type Node = Element | Text;

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

const RAW_TEXT = new Set([
  "script",
  "style",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
]);
const ESCAPABLE_RAW_TEXT = new Set(["title", "textarea"]);

const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "ul",
  "dd",
  "dt",
]);

const HEAD_CONTENT = new Set([
  "title",
  "meta",
  "link",
  "style",
  "script",
  "base",
  "noscript",
  "template",
]);

const SCOPE_BARRIERS = new Set([
  "#document",
  "html",
  "table",
  "td",
  "th",
  "caption",
  "template",
  "applet",
  "object",
  "marquee",
]);

const MAX_DEPTH = 256;

const TABLE_PARTS = new Set([
  "tr",
  "td",
  "th",
  "tbody",
  "thead",
  "tfoot",
  "caption",
  "colgroup",
]);

function newElement(
  name: string,
  attrs: Record<string, string>,
  parent: Element | null,
  children: Node[] = [],
): Element {
  return { kind: "element", name, attrs, children, parent };
}

class TreeBuilder {
  readonly root: Element = newElement("#document", {}, null);
  private readonly stack: Element[] = [this.root];
  private foreign = 0;

  private get current(): Element {
    return this.stack[this.stack.length - 1];
  }

  text(text: string): void {
    if (text === "") return;
    if (
      this.headOpen() && this.current.name === "head" && /\S/.test(text)
    ) {
      this.popTo("head");
    }
    const children = this.current.children;
    const last = children[children.length - 1];
    if (last && last.kind === "text") last.text += text;
    else children.push({ kind: "text", text });
  }

  /** Whether `<head>` is open (it can only sit right below the root). */
  private headOpen(): boolean {
    return this.stack[1]?.name === "head" || this.stack[2]?.name === "head";
  }

  /** Index of the nearest open `name` not hidden behind a barrier. */
  private inScope(name: string, barriers: Set<string>): number {
    for (let i = this.stack.length - 1; i > 0; i--) {
      const element = this.stack[i];
      if (element.name === name) return i;
      if (barriers.has(element.name)) return -1;
    }
    return -1;
  }

  private popTo(name: string, barriers = SCOPE_BARRIERS): boolean {
    const at = this.inScope(name, barriers);
    if (at < 0) return false;
    this.stack.length = at;
    return true;
  }

  start(
    name: string,
    attrs: Record<string, string>,
    selfClosing: boolean,
  ): Element {
    if (this.foreign === 0) this.implyEnds(name);
    const element = newElement(name, attrs, this.current);
    this.current.children.push(element);
    // Like browsers, nesting stops deepening at a fixed depth: deeper
    // elements become siblings, which keeps the walks below shallow.
    const isVoid = VOID.has(name) || (selfClosing && this.foreign > 0) ||
      (selfClosing && (name === "svg" || name === "math")) ||
      this.stack.length >= MAX_DEPTH;
    if (!isVoid) {
      this.stack.push(element);
      if (name === "svg" || name === "math") this.foreign++;
    }
    return element;
  }

  private implyEnds(name: string): void {
    if (this.headOpen() && !HEAD_CONTENT.has(name) && name !== "head") {
      this.popTo("head");
    }
    if (CLOSES_P.has(name)) this.popTo("p");
    if (name === "li") {
      this.popTo("li", new Set([...SCOPE_BARRIERS, "ul", "ol", "menu", "dir"]));
    } else if (name === "dt" || name === "dd") {
      const barriers = new Set([...SCOPE_BARRIERS, "dl"]);
      this.popTo("dt", barriers);
      this.popTo("dd", barriers);
    } else if (/^h[1-6]$/.test(name) && /^h[1-6]$/.test(this.current.name)) {
      this.stack.pop();
    } else if (name === "option" && this.current.name === "option") {
      this.stack.pop();
    } else if (name === "a") {
      this.popTo("a");
    } else if (name === "tr") {
      this.closeCells();
      this.popTo("tr", new Set(["table", "#document"]));
    } else if (name === "td" || name === "th") {
      this.closeCells();
      if (this.inTable() && this.current.name !== "tr") {
        this.start("tr", {}, false);
      }
    } else if (
      name === "tbody" || name === "thead" || name === "tfoot" ||
      name === "caption" || name === "colgroup"
    ) {
      this.closeCells();
      const barriers = new Set(["table", "#document"]);
      this.popTo("tr", barriers);
      for (const part of ["tbody", "thead", "tfoot", "caption", "colgroup"]) {
        this.popTo(part, barriers);
      }
    }
  }

  private closeCells(): void {
    const barriers = new Set(["table", "#document"]);
    this.popTo("td", barriers);
    this.popTo("th", barriers);
  }

  private inTable(): boolean {
    const name = this.current.name;
    return name === "table" || name === "tbody" || name === "thead" ||
      name === "tfoot";
  }

  end(name: string): void {
    if (name === "br") {
      this.start("br", {}, false);
      return;
    }
    if (name === "html" || name === "body") return;
    let barriers = SCOPE_BARRIERS;
    if (TABLE_PARTS.has(name)) barriers = new Set(["table", "#document"]);
    else if (name === "table") barriers = new Set(["#document"]);
    else if (this.foreign > 0) barriers = new Set(["#document"]);
    let at = this.inScope(name, barriers);
    if (at < 0 && /^h[1-6]$/.test(name)) {
      // Any heading end tag closes the open heading, whatever its level.
      for (let i = this.stack.length - 1; i > 0; i--) {
        if (/^h[1-6]$/.test(this.stack[i].name)) at = i;
        if (at >= 0 || barriers.has(this.stack[i].name)) break;
      }
    }
    if (at < 0) return;
    for (let i = at; i < this.stack.length; i++) {
      const open = this.stack[i].name;
      if ((open === "svg" || open === "math") && this.foreign > 0) {
        this.foreign--;
      }
    }
    this.stack.length = at;
  }
}

/** Parses the attributes part of a tag (everything after the name). */
function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let i = 0;
  const n = source.length;
  while (i < n) {
    while (i < n && /[\s/]/.test(source[i])) i++;
    if (i >= n) break;
    let start = i;
    i++; // an attribute name may start with "="
    while (i < n && !/[\s/>=]/.test(source[i])) i++;
    const name = source.slice(start, i).toLowerCase();
    while (i < n && /\s/.test(source[i])) i++;
    let value = "";
    if (source[i] === "=") {
      i++;
      while (i < n && /\s/.test(source[i])) i++;
      const quote = source[i];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, i + 1);
        const stop = close < 0 ? n : close;
        value = source.slice(i + 1, stop);
        i = stop + 1;
      } else {
        start = i;
        while (i < n && !/[\s>]/.test(source[i])) i++;
        value = source.slice(start, i);
      }
    }
    if (name !== "" && !(name in attrs)) {
      attrs[name] = decodeEntities(value, true);
    }
  }
  return attrs;
}

/** Finds the `>` that ends a tag starting at `from`, honouring quotes. */
function tagEnd(source: string, from: number): number {
  let quote = "";
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === ">") return i;
    else if ((c === '"' || c === "'") && /[=\s]/.test(source[i - 1] ?? "")) {
      // Only a quote right after "=" (or space before a value) opens one.
      if (source[i - 1] === "=" || /=\s*$/.test(source.slice(from, i))) {
        quote = c;
      }
    }
  }
  return -1;
}

/** Parses an HTML document, forgiving broken markup as browsers do. */
export function parseHtml(source: string): Element {
  const tree = new TreeBuilder();
  const n = source.length;
  let i = 0;
  const text = (raw: string): void => tree.text(decodeEntities(raw, false));
  while (i < n) {
    const lt = source.indexOf("<", i);
    if (lt < 0) {
      text(source.slice(i));
      break;
    }
    if (lt > i) text(source.slice(i, lt));
    i = lt;
    const next = source[i + 1] ?? "";
    if (source.startsWith("<!--", i)) {
      if (source.startsWith("<!-->", i)) {
        i += 5;
        continue;
      }
      if (source.startsWith("<!--->", i)) {
        i += 6;
        continue;
      }
      const close = source.indexOf("-->", i + 4);
      const bang = source.indexOf("--!>", i + 4);
      const stop = close < 0
        ? (bang < 0 ? n : bang + 4)
        : bang >= 0 && bang < close
        ? bang + 4
        : close + 3;
      i = stop;
      continue;
    }
    if (source.startsWith("<![CDATA[", i)) {
      const close = source.indexOf("]]>", i + 9);
      tree.text(source.slice(i + 9, close < 0 ? n : close));
      i = close < 0 ? n : close + 3;
      continue;
    }
    if (next === "!" || next === "?") {
      const close = source.indexOf(">", i + 2);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (next === "/") {
      const match = /^<\/([a-zA-Z][^\s/>]*)/.exec(source.slice(i, i + 64));
      if (!match) {
        const close = source.indexOf(">", i + 2);
        i = close < 0 ? n : close + 1;
        continue;
      }
      const close = source.indexOf(">", i + match[0].length);
      tree.end(match[1].toLowerCase());
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (!/[a-zA-Z]/.test(next)) {
      text("<");
      i++;
      continue;
    }
    const nameMatch = /^<([a-zA-Z][^\s/>]*)/.exec(source.slice(i, i + 128));
    const name = (nameMatch ? nameMatch[1] : next).toLowerCase();
    const afterName = i + 1 + (nameMatch ? nameMatch[1].length : 1);
    const close = tagEnd(source, afterName);
    if (close < 0) break; // an unfinished tag at the end is dropped
    const inside = source.slice(afterName, close);
    const selfClosing = inside.endsWith("/");
    const element = tree.start(name, parseAttributes(inside), selfClosing);
    i = close + 1;
    if (
      (RAW_TEXT.has(name) || ESCAPABLE_RAW_TEXT.has(name) ||
        name === "plaintext") && !VOID.has(name) && !selfClosing
    ) {
      let stop = n;
      let resume = n;
      if (name !== "plaintext") {
        const pattern = new RegExp(`</${name}(?=[\\s/>])`, "ig");
        pattern.lastIndex = i;
        const found = pattern.exec(source);
        if (found) {
          stop = found.index;
          const gt = source.indexOf(">", stop);
          resume = gt < 0 ? n : gt + 1;
        }
      }
      const raw = source.slice(i, stop);
      const content = ESCAPABLE_RAW_TEXT.has(name)
        ? decodeEntities(raw, false)
        : raw;
      if (content !== "") {
        element.children.push({ kind: "text", text: content });
      }
      tree.end(name);
      i = resume;
    }
  }
  return tree.root;
}

// ---------------------------------------------------------------------------
// Character references

const LATIN1_NAMES =
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml"
    .split(" ");

const GREEK_UPPER =
  "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau Upsilon Phi Chi Psi Omega"
    .split(" ");
const GREEK_LOWER =
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega"
    .split(" ");

const OTHER_ENTITIES =
  "quot:34 amp:38 apos:39 lt:60 gt:62 QUOT:34 AMP:38 LT:60 GT:62 COPY:169 REG:174 " +
  "OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 fnof:402 circ:710 tilde:732 " +
  "thetasym:977 upsih:978 piv:982 ensp:8194 emsp:8195 thinsp:8201 hairsp:8202 zwnj:8204 " +
  "zwj:8205 lrm:8206 rlm:8207 hyphen:8208 dash:8208 ndash:8211 mdash:8212 horbar:8213 " +
  "lsquo:8216 rsquo:8217 rsquor:8217 sbquo:8218 ldquo:8220 rdquo:8221 rdquor:8221 bdquo:8222 " +
  "dagger:8224 Dagger:8225 bull:8226 bullet:8226 nldr:8229 hellip:8230 mldr:8230 permil:8240 " +
  "prime:8242 Prime:8243 lsaquo:8249 rsaquo:8250 oline:8254 frasl:8260 euro:8364 " +
  "image:8465 weierp:8472 real:8476 trade:8482 TRADE:8482 alefsym:8501 larr:8592 uarr:8593 " +
  "rarr:8594 darr:8595 harr:8596 crarr:8629 lArr:8656 uArr:8657 rArr:8658 dArr:8659 " +
  "hArr:8660 forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 " +
  "ni:8715 prod:8719 sum:8721 minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 " +
  "ang:8736 and:8743 or:8744 cap:8745 cup:8746 int:8747 there4:8756 sim:8764 cong:8773 " +
  "asymp:8776 ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 nsub:8836 sube:8838 " +
  "supe:8839 oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 lfloor:8970 " +
  "rfloor:8971 lang:10216 rang:10217 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830 " +
  "Tab:9 NewLine:10 excl:33 num:35 dollar:36 percnt:37 lpar:40 rpar:41 ast:42 midast:42 " +
  "plus:43 comma:44 period:46 sol:47 colon:58 semi:59 equals:61 quest:63 commat:64 " +
  "lsqb:91 lbrack:91 bsol:92 rsqb:93 rbrack:93 Hat:94 lowbar:95 grave:96 lcub:123 " +
  "lbrace:123 verbar:124 vert:124 VerticalLine:124 rcub:125 rbrace:125 nbsp:160 " +
  "NonBreakingSpace:160 half:189 centerdot:183 check:10003 checkmark:10003 cross:10007 " +
  "star:9734 starf:9733 bigstar:9733 phone:9742 female:9792 male:9794 sharp:9839 " +
  "flat:9837 natural:9838 larrow:8592 rarrow:8594 leftarrow:8592 rightarrow:8594 " +
  "uparrow:8593 downarrow:8595 LeftArrow:8592 RightArrow:8594 ensp:8194 numsp:8199 " +
  "puncsp:8200 MediumSpace:8287 NoBreak:8288 ZeroWidthSpace:8203 copysr:8471 " +
  "incare:8453 numero:8470 ohm:937 angst:197 deg:176 times:215 divide:247 pm:177 " +
  "middot:183 laquo:171 raquo:187 blacksquare:9642 square:9633 squ:9633 cir:9675 " +
  "dollar:36 yen:165 pound:163 cent:162 inodot:305 imath:305 Ccaron:268 ccaron:269 " +
  "Zcaron:381 zcaron:382 Rcaron:344 rcaron:345 Ecaron:282 ecaron:283 Lstrok:321 lstrok:322";

const ENTITIES = new Map<string, string>();
const LEGACY = new Set<string>([
  "amp",
  "lt",
  "gt",
  "quot",
  "AMP",
  "LT",
  "GT",
  "QUOT",
  "COPY",
  "REG",
]);
LATIN1_NAMES.forEach((name, i) => {
  ENTITIES.set(name, String.fromCodePoint(160 + i));
  LEGACY.add(name);
});
GREEK_UPPER.forEach((name, i) => {
  if (name !== "-") ENTITIES.set(name, String.fromCodePoint(913 + i));
});
GREEK_LOWER.forEach((name, i) =>
  ENTITIES.set(name, String.fromCodePoint(945 + i))
);
for (const pair of OTHER_ENTITIES.split(" ")) {
  const [name, code] = pair.split(":");
  if (name && code) ENTITIES.set(name, String.fromCodePoint(Number(code)));
}

/** Windows-1252 meanings of the C1 range, as browsers read `&#150;`. */
const C1 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function numericReference(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
    return "\ufffd";
  }
  if (code >= 0x80 && code <= 0x9f) return C1[code - 0x80];
  return String.fromCodePoint(code);
}

function decodeEntities(text: string, inAttribute: boolean): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([a-zA-Z][a-zA-Z0-9]*)(;?))/g,
    (whole, hex, dec, name, semi, at: number, all: string) => {
      if (hex !== undefined) {
        return numericReference(parseInt(hex.slice(0, 8), 16));
      }
      if (dec !== undefined) return numericReference(Number(dec.slice(0, 9)));
      if (semi && ENTITIES.has(name)) return ENTITIES.get(name)!;
      // Legacy names work without ";" and as a prefix ("&copy2020").
      for (let len = Math.min(name.length, 8); len >= 2; len--) {
        const prefix = name.slice(0, len);
        if (!LEGACY.has(prefix)) continue;
        const following = len < name.length
          ? name[len]
          : semi || all[at + whole.length] || "";
        if (inAttribute && (len < name.length || following === "=")) {
          return whole;
        }
        if (len === name.length && semi) return ENTITIES.get(prefix)!;
        return ENTITIES.get(prefix)! + name.slice(len) + semi;
      }
      return whole;
    },
  );
}

// ---------------------------------------------------------------------------
// Readable content: choosing the main part and dropping boilerplate

const ALWAYS_DROPPED = new Set([
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "audio",
  "video",
  "map",
  "link",
  "meta",
  "base",
  "title",
  "input",
  "button",
  "select",
  "option",
  "optgroup",
  "textarea",
  "datalist",
  "output",
  "progress",
  "meter",
  "noembed",
  "noframes",
  "param",
  "source",
  "track",
  "slot",
]);

const BOILERPLATE_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menubar",
  "dialog",
  "alertdialog",
  "toolbar",
]);

const BOILERPLATE_WORDS =
  /(^|[\s_-])(nav|navbar|navigation|menu|menubar|sidebar|breadcrumbs?|cookies?|cookie-banner|consent|gdpr|share|sharing|social|advert|advertisement|ads|ad-slot|sponsored|promo|newsletter|subscribe|skip-link|skip-to-content|site-header|site-footer|masthead|popup|modal|related-posts|comments?|footer|topbar|pagination|pager|editsection|edit-section)($|[\s_-])/i;

function isHidden(element: Element): boolean {
  const attrs = element.attrs;
  if ("hidden" in attrs) return true;
  if ((attrs["aria-hidden"] ?? "").toLowerCase() === "true") return true;
  const style = (attrs.style ?? "").toLowerCase().replace(/\s+/g, "");
  return style.includes("display:none") || style.includes("visibility:hidden");
}

function textLength(node: Node, memo: Map<Element, number>): number {
  if (node.kind === "text") return node.text.replace(/\s+/g, "").length;
  const known = memo.get(node);
  if (known !== undefined) return known;
  let total = 0;
  if (!ALWAYS_DROPPED.has(node.name)) {
    for (const child of node.children) total += textLength(child, memo);
  }
  memo.set(node, total);
  return total;
}

function findAll(
  root: Element,
  test: (element: Element) => boolean,
): Element[] {
  const found: Element[] = [];
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element" || ALWAYS_DROPPED.has(child.name)) continue;
      if (isHidden(child)) continue;
      if (test(child)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function contains(outer: Element, inner: Element): boolean {
  for (let at: Element | null = inner; at; at = at.parent) {
    if (at === outer) return true;
  }
  return false;
}

/** Picks the element holding the page's main content. */
function contentRoot(document: Element): Element {
  const memo = new Map<Element, number>();
  const body = findAll(document, (element) => element.name === "body")[0] ??
    document;
  const total = textLength(body, memo);
  const substantial = (element: Element): boolean =>
    textLength(element, memo) >= Math.min(50, total * 0.5);
  const mains = findAll(
    body,
    (element) =>
      element.name === "main" ||
      (element.attrs.role ?? "").toLowerCase() === "main",
  ).filter(substantial);
  if (mains.length > 0) return mains[0];
  const articles = findAll(body, (element) => element.name === "article")
    .filter((article) => substantial(article));
  const outermost = articles.filter((article) =>
    !articles.some((other) => other !== article && contains(other, article))
  );
  if (outermost.length === 1) return outermost[0];
  if (outermost.length > 1) return body;
  const byId = findAll(
    body,
    (element) =>
      /^(content|main|main-content|maincontent|primary|article|post)$/i.test(
        element.attrs.id ?? "",
      ),
  ).filter((element) => textLength(element, memo) >= total * 0.4);
  return byId[0] ?? body;
}

/** Removes boilerplate below `root`, in place. */
function prune(root: Element): void {
  const memo = new Map<Element, number>();
  const rootText = textLength(root, memo);
  const keepsHeading = (element: Element): boolean =>
    findAll(element, (inner) => inner.name === "h1").length > 0;
  const walk = (element: Element, inSection: boolean): void => {
    element.children = element.children.filter((child) => {
      if (child.kind === "text") return true;
      const name = child.name;
      if (ALWAYS_DROPPED.has(name) || isHidden(child)) return false;
      if (name === "dialog" && !("open" in child.attrs)) return false;
      if (
        name === "a" && (child.attrs.href ?? "").startsWith("#") &&
        /^[\s¶#§🔗]*$/u.test(textOf(child)) &&
        !child.children.some((inner) => inner.kind === "element")
      ) return false; // a heading's permalink mark
      if (name === "nav" || name === "aside" || name === "footer") return false;
      const role = (child.attrs.role ?? "").toLowerCase();
      if (BOILERPLATE_ROLES.has(role)) return false;
      if (name === "header") {
        const heading = findAll(child, (inner) => /^h[1-6]$/.test(inner.name))
          .length > 0;
        if (!inSection || !heading) return false;
      }
      if (name === "form") {
        const wraps = findAll(
          child,
          (inner) => inner.name === "main" || inner.name === "article",
        ).length > 0;
        if (!wraps && textLength(child, memo) < 200) return false;
      }
      const words = `${child.attrs.id ?? ""} ${child.attrs.class ?? ""}`;
      if (
        BOILERPLATE_WORDS.test(words) && !keepsHeading(child) &&
        textLength(child, memo) < rootText * 0.4
      ) return false;
      return true;
    });
    for (const child of element.children) {
      if (child.kind === "element") {
        walk(
          child,
          inSection || child.name === "article" || child.name === "section" ||
            child.name === "main",
        );
      }
    }
  };
  walk(
    root,
    root.name === "article" || root.name === "main" ||
      root.name === "section" || (root.attrs.role ?? "") === "main",
  );
}

export function documentTitle(document: Element): string {
  let title = "";
  let ogTitle = "";
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element" || title) continue;
      if (child.name === "svg" || child.name === "math") continue;
      if (child.name === "title") {
        title = collapse(textOf(child));
        continue;
      }
      if (
        child.name === "meta" && !ogTitle &&
        (child.attrs.property ?? child.attrs.name ?? "").toLowerCase() ===
          "og:title"
      ) ogTitle = collapse(child.attrs.content ?? "");
      walk(child);
    }
  };
  walk(document);
  if (title) return title;
  if (ogTitle) return ogTitle;
  const h1 = findAll(document, (element) => element.name === "h1")[0];
  return h1 ? collapse(textOf(h1)) : "";
}

function baseUrl(document: Element, pageUrl: URL): URL {
  const base = findAllIncludingHead(document, "base")
    .find((element) => element.attrs.href);
  if (!base) return pageUrl;
  try {
    return new URL(base.attrs.href, pageUrl);
  } catch {
    return pageUrl;
  }
}

function findAllIncludingHead(root: Element, name: string): Element[] {
  const found: Element[] = [];
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element") continue;
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function textOf(node: Node): string {
  if (node.kind === "text") return node.text;
  if (node.name === "br") return "\n";
  return node.children.map(textOf).join("");
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

// ---------------------------------------------------------------------------
// Rendering Markdown (or plain text)

interface RenderContext {
  markdown: boolean;
  base: URL;
  cell: boolean;
}

const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp",
  "#document",
]);

/** Marks a hard line break inside inline text until paragraphs are built. */
const BREAK = "\ue000";

function hasBlock(element: Element): boolean {
  return element.children.some((child) =>
    child.kind === "element" && (BLOCKS.has(child.name) || hasBlock(child))
  );
}

function escapeMarkdown(text: string): string {
  if (!/[\\*`_[]/.test(text)) return text;
  return text
    .replace(/\\/g, "\\\\")
    .replace(/([*`])/g, "\\$1")
    .replace(
      /(^|[\s(])_|_($|[\s).,;:!?])/g,
      (match) => match.replace("_", "\\_"),
    )
    .replace(/\[([^\]]*)\]\(/g, "\\[$1\\](");
}

function escapeLineStart(line: string): string {
  if (!/^[#>+=\d-]/.test(line)) return line;
  return line
    .replace(/^(#{1,6}\s)/, "\\$1")
    .replace(/^>/, "\\>")
    .replace(/^([-+])(\s)/, "\\$1$2")
    .replace(/^(\d+)([.)])(\s)/, "$1\\$2$3")
    .replace(/^(={3,}|-{3,})\s*$/, "\\$1");
}

function paragraph(inline: string, context: RenderContext): string {
  const lines = inline
    .replace(/[ \t\n\r\f\u00a0]+/g, " ")
    .split(BREAK)
    .map((line) => line.trim());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  const fixed = context.markdown ? lines.map(escapeLineStart) : lines;
  return fixed.join(context.markdown && !context.cell ? "  \n" : "\n");
}

function wrapInline(inner: string, marker: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  if (match[2] === "") return inner;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
}

function codeSpan(text: string): string {
  const content = collapse(text);
  if (content === "") return "";
  const runs = content.match(/`+/g) ?? [];
  const longest = runs.reduce((max, run) => Math.max(max, run.length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = content.startsWith("`") || content.endsWith("`") ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

function resolveLink(href: string | undefined, base: URL): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (!["http:", "https:", "mailto:", "ftp:", "tel:"].includes(url.protocol)) {
    return null;
  }
  return url.href.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(
    / /g,
    "%20",
  );
}

function renderInline(node: Node, context: RenderContext): string {
  if (node.kind === "text") {
    return context.markdown ? escapeMarkdown(node.text) : node.text;
  }
  const name = node.name;
  const children = (): string =>
    node.children.map((child) => renderInline(child, context)).join("");
  switch (name) {
    case "br":
      return BREAK;
    case "wbr":
      return "";
    case "img": {
      const alt = collapse(node.attrs.alt ?? "");
      const width = node.attrs.width ?? "";
      const height = node.attrs.height ?? "";
      if (/^[01](px)?$/.test(width) && /^[01](px)?$/.test(height)) return "";
      const src = resolveLink(node.attrs.src, context.base);
      if (!context.markdown) return alt;
      if (!src || !/^https?:/.test(src)) return escapeMarkdown(alt);
      return `![${alt.replace(/[[\]]/g, "\\$&")}](${src})`;
    }
    case "a": {
      const inner = children();
      const href = resolveLink(node.attrs.href, context.base);
      if (!context.markdown || !href) return inner;
      if (inner.replace(new RegExp(BREAK, "g"), "").trim() === "") return inner;
      const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
      return `${match[1]}[${match[2]}](${href})${match[3]}`;
    }
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return context.markdown ? codeSpan(textOf(node)) : textOf(node);
    case "em":
    case "i":
      return context.markdown ? wrapInline(children(), "*") : children();
    case "strong":
    case "b":
      return context.markdown ? wrapInline(children(), "**") : children();
    case "del":
    case "s":
    case "strike":
      return context.markdown ? wrapInline(children(), "~~") : children();
    case "q":
      return `"${children()}"`;
    case "sup":
    case "sub": {
      const inner = children();
      if (inner.trim() === "" || /^\s*\[/.test(inner)) return inner;
      if (context.markdown) return `<${name}>${inner.trim()}</${name}>`;
      return `${name === "sup" ? "^" : "_"}${inner.trim()}`;
    }
    case "table":
      return ` ${flattenTable(node, context)} `;
    default:
      if (BLOCKS.has(name)) return ` ${children()} `;
      return children();
  }
}

/** Renders the children of a container as a list of blocks. */
function renderBlocks(nodes: Node[], context: RenderContext): string[] {
  const blocks: string[] = [];
  let inline = "";
  const flush = (): void => {
    const text = paragraph(inline, context);
    if (text !== "") blocks.push(text);
    inline = "";
  };
  for (const node of nodes) {
    if (node.kind === "text") {
      inline += renderInline(node, context);
    } else if (BLOCKS.has(node.name)) {
      flush();
      blocks.push(...renderBlock(node, context));
    } else if (hasBlock(node)) {
      flush();
      const inner = renderBlocks(node.children, context);
      const href = node.name === "a" && context.markdown
        ? resolveLink(node.attrs.href, context.base)
        : null;
      if (href && inner.length > 0) {
        const heading = /^(#{1,6} )(.*)$/.exec(inner[0]);
        if (heading && !inner[0].includes("\n")) {
          inner[0] = `${heading[1]}[${heading[2]}](${href})`;
        } else if (!inner[0].includes("\n")) {
          inner[0] = `[${inner[0]}](${href})`;
        }
      }
      blocks.push(...inner);
    } else {
      inline += renderInline(node, context);
    }
  }
  flush();
  return blocks;
}

function renderBlock(element: Element, context: RenderContext): string[] {
  const name = element.name;
  if (/^h[1-6]$/.test(name)) {
    const text = paragraph(
      renderInline(element, context).replace(new RegExp(BREAK, "g"), " "),
      { ...context, markdown: false },
    );
    if (text === "") return [];
    if (!context.markdown || context.cell) return [text];
    return [`${"#".repeat(Number(name[1]))} ${text}`];
  }
  switch (name) {
    case "hr":
      return context.cell ? [] : ["---"];
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      return renderPre(element, context);
    case "blockquote": {
      const inner = renderBlocks(element.children, context).join("\n\n");
      if (inner === "") return [];
      return [
        inner.split("\n").map((line) => line === "" ? ">" : `> ${line}`).join(
          "\n",
        ),
      ];
    }
    case "ul":
    case "ol":
    case "menu":
    case "dir":
      return renderList(element, context);
    case "li":
      return renderList(newElement("ul", {}, null, [element]), context);
    case "dl":
      return renderBlocks(element.children, context);
    case "dt": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return context.markdown && !context.cell && blocks.length === 1
        ? [`**${blocks[0]}**`]
        : blocks;
    }
    case "dd": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return [indentItem(": ", blocks.join("\n\n"))];
    }
    case "table":
      return renderTable(element, context);
    default:
      return renderBlocks(element.children, context);
  }
}

function renderPre(element: Element, context: RenderContext): string[] {
  let code = textOf(element).replace(/\r\n?/g, "\n");
  if (code.startsWith("\n")) code = code.slice(1);
  code = code.replace(/\s+$/, "");
  if (code.trim() === "") return [];
  if (context.cell) {
    return [context.markdown ? codeSpan(code) : collapse(code)];
  }
  if (!context.markdown) return [code];
  const classes = [
    element.attrs.class ?? "",
    ...element.children.filter((child): child is Element =>
      child.kind === "element" && child.name === "code"
    ).map((child) => child.attrs.class ?? ""),
    element.parent?.attrs.class ?? "",
    element.parent?.parent?.attrs.class ?? "",
  ].join(" ");
  const dataLang = element.attrs["data-lang"] ?? "";
  const language =
    /(?:^|\s)(?:(?:language|lang|highlight)-|brush:\s*)([\w+#.-]+)/.exec(
      classes,
    )?.[1] ?? (/^[\w+#.-]+$/.test(dataLang) ? dataLang : "");
  const runs = code.match(/^\s*`{3,}/gm) ?? [];
  const longest = runs.reduce(
    (max, run) => Math.max(max, run.trim().length),
    2,
  );
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}\n${code}\n${fence}`];
}

function indentItem(marker: string, text: string): string {
  const pad = " ".repeat(marker.length);
  return text.split("\n").map((line, i) =>
    i === 0 ? marker + line : line === "" ? "" : pad + line
  ).join("\n");
}

function renderList(list: Element, context: RenderContext): string[] {
  const ordered = list.name === "ol";
  let number = Number.parseInt(list.attrs.start ?? "1", 10);
  if (!Number.isFinite(number)) number = 1;
  const items: Node[][] = [];
  for (const child of list.children) {
    if (child.kind === "element" && child.name === "li") {
      items.push([...child.children]);
    } else if (child.kind === "text" && child.text.trim() === "") {
      continue;
    } else if (items.length > 0) {
      // A list nested straight in a list, or stray content: it belongs to
      // the item before it.
      items[items.length - 1].push(child);
    } else {
      items.push([child]);
    }
  }
  const lines: string[] = [];
  const liValues = list.children.filter((child): child is Element =>
    child.kind === "element" && child.name === "li"
  );
  items.forEach((nodes, i) => {
    const value = Number.parseInt(liValues[i]?.attrs.value ?? "", 10);
    if (ordered && Number.isFinite(value)) number = value;
    const marker = ordered ? `${number}. ` : "- ";
    number++;
    const blocks = renderBlocks(nodes, context);
    if (blocks.length === 0) return;
    let text = blocks[0];
    for (let b = 1; b < blocks.length; b++) {
      const nested = /^(- |\d+\. )/.test(blocks[b]);
      text += (nested ? "\n" : "\n\n") + blocks[b];
    }
    lines.push(indentItem(marker, text));
  });
  if (lines.length === 0) return [];
  if (context.cell) return [lines.join(BREAK)];
  return [lines.join("\n")];
}

interface Row {
  cells: Element[];
  header: boolean;
}

function tableRows(
  table: Element,
): { rows: Row[]; caption: Element | null; stray: Node[] } {
  const rows: Row[] = [];
  let caption: Element | null = null;
  const stray: Node[] = [];
  const addRow = (tr: Element, inHead: boolean): void => {
    const cells = tr.children.filter((child): child is Element =>
      child.kind === "element" && (child.name === "td" || child.name === "th")
    );
    if (cells.length === 0) return;
    rows.push({
      cells,
      header: inHead || cells.every((cell) => cell.name === "th"),
    });
  };
  const walk = (element: Element, inHead: boolean): void => {
    for (const child of element.children) {
      if (child.kind === "text") {
        if (child.text.trim() !== "") stray.push(child);
        continue;
      }
      if (child.name === "tr") addRow(child, inHead);
      else if (child.name === "thead") walk(child, true);
      else if (child.name === "tbody" || child.name === "tfoot") {
        walk(child, false);
      } else if (child.name === "caption") caption = caption ?? child;
      else if (child.name === "colgroup" || child.name === "col") continue;
      else if (child.name === "td" || child.name === "th") {
        addRow(newElement("tr", {}, null, [child]), inHead);
      } else stray.push(child);
    }
  };
  walk(table, false);
  return { rows, caption, stray };
}

const RICH_IN_CELL = new Set([
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "blockquote",
  "hr",
  "article",
  "section",
  "main",
  "nav",
  "form",
]);

function isLayoutTable(table: Element, rows: Row[]): boolean {
  const role = (table.attrs.role ?? "").toLowerCase();
  if (role === "presentation" || role === "none") return true;
  const columns = rows.reduce((max, row) => Math.max(max, row.cells.length), 0);
  if (columns <= 1) return true;
  const rich = (element: Element): boolean => {
    let paragraphs = 0;
    const walk = (inner: Element): boolean => {
      for (const child of inner.children) {
        if (child.kind !== "element") continue;
        if (child.name === "table") continue;
        if (RICH_IN_CELL.has(child.name)) return true;
        if (child.name === "p" && ++paragraphs > 1) return true;
        if (walk(child)) return true;
      }
      return false;
    };
    return walk(element);
  };
  return rows.some((row) => row.cells.some(rich));
}

function cellText(cell: Element, context: RenderContext): string {
  const blocks = renderBlocks(cell.children, { ...context, cell: true });
  const joiner = context.markdown ? "<br>" : " ";
  const text = blocks.join(joiner).replace(/\n/g, joiner).replace(
    new RegExp(BREAK, "g"),
    joiner,
  );
  return context.markdown ? text.replace(/\|/g, "\\|") : text;
}

/** A table inside a table cell, as one line: rows by breaks, cells by ";". */
function flattenTable(table: Element, context: RenderContext): string {
  const { rows, caption } = tableRows(table);
  const lines = rows.map((row) =>
    row.cells.map((cell) => cellText(cell, context)).filter((text) =>
      text.trim() !== ""
    ).join("; ")
  ).filter((line) => line !== "");
  if (caption) {
    const title = collapse(textOf(caption));
    if (title) lines.unshift(title);
  }
  return lines.join(BREAK);
}

function renderTable(table: Element, context: RenderContext): string[] {
  const { rows, caption, stray } = tableRows(table);
  const before = stray.length > 0 ? renderBlocks(stray, context) : [];
  const captionBlocks = caption ? renderBlocks(caption.children, context) : [];
  if (context.cell) {
    const flat = flattenTable(table, context);
    return flat === "" ? before : [...before, flat];
  }
  if (rows.length === 0) return [...before, ...captionBlocks];
  if (isLayoutTable(table, rows)) {
    const blocks = [...before, ...captionBlocks];
    for (const row of rows) {
      for (const cell of row.cells) {
        blocks.push(...renderBlocks(cell.children, context));
      }
    }
    return blocks;
  }
  // Build the grid, honouring colspan and rowspan.
  const grid: string[][] = [];
  rows.forEach((row, r) => {
    grid[r] = grid[r] ?? [];
    let column = 0;
    for (const cell of row.cells) {
      const text = cellText(cell, context);
      const colspan = Math.min(
        Math.max(Number.parseInt(cell.attrs.colspan ?? "1", 10) || 1, 1),
        50,
      );
      const rowspan = Math.min(
        Math.max(Number.parseInt(cell.attrs.rowspan ?? "1", 10) || 1, 1),
        rows.length - r,
      );
      while (grid[r][column] !== undefined) column++;
      for (let c = 0; c < colspan; c++) {
        for (let s = 0; s < rowspan; s++) {
          grid[r + s] = grid[r + s] ?? [];
          grid[r + s][column + c] = s === 0 && c === 0 ? text : "";
        }
      }
      column += colspan;
    }
  });
  const width = grid.reduce((max, row) => Math.max(max, row.length), 0);
  const filled = grid.map((row) =>
    Array.from({ length: width }, (_, c) => (row[c] ?? "").trim())
  );
  const nonEmpty = filled.filter((row) => row.some((cell) => cell !== ""));
  if (nonEmpty.length === 0) return [...before, ...captionBlocks];
  if (!context.markdown) {
    return [
      ...before,
      ...captionBlocks,
      nonEmpty.map((row) => row.join(" | ")).join("\n"),
    ];
  }
  const line = (cells: string[]): string => `| ${cells.join(" | ")} |`;
  const hasHeader = rows[0].header && filled[0].some((cell) => cell !== "");
  const header = hasHeader ? filled[0] : new Array(width).fill("");
  const body = hasHeader ? filled.slice(1) : filled;
  const lines = [
    line(header),
    line(new Array(width).fill("---")),
    ...body.filter((row) => row.some((cell) => cell !== "")).map(line),
  ];
  return [...before, ...captionBlocks, lines.join("\n")];
}

/** Converts an HTML document to readable Markdown (or plain text). */
export function htmlToContent(
  source: string,
  pageUrl: URL,
  markdown: boolean,
): { title: string; content: string } {
  const document = parseHtml(source);
  const title = documentTitle(document);
  const base = baseUrl(document, pageUrl);
  const root = contentRoot(document);
  prune(root);
  const blocks = renderBlock(root, { markdown, base, cell: false });
  const content = blocks.join("\n\n")
    .replace(/[ \t]+$/gm, (spaces) => spaces === "  " && markdown ? spaces : "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, content };
}
