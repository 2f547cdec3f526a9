// @ts-nocheck -- bundled JavaScript; its TypeScript sources are type-checked
/**
 * The `scrape_webpage` Beeuni tool: fetches one http(s) URL and returns its
 * readable content — Markdown for HTML, plain text for text types, indented
 * JSON for JSON — with the final URL, status, title and content type.
 *
 * The fetch follows at most 10 redirects, reads at most 5 MiB of body (then
 * stops and flags the result as truncated) and gives up after 30 s. Every hop
 * is checked against the address policy before any connection is made:
 * loopback, private, link-local, shared, unspecified, multicast and cloud
 * metadata addresses are refused after DNS resolution, and the connection goes
 * to the address that was checked (no second lookup).
 *
 * With `BEEUNI_API_URL` and `BEEUNI_TOKEN` set, the call is delegated to the
 * Beeuni API instead (`POST <BEEUNI_API_URL>/v1/tools/scrape_webpage`).
 *
 * Configuration is read from `context.env` alone.
 *
 * This file is generated: `deno task build:tools` bundles it from
 * builtin_tools/src/scrape_webpage.ts, the shared modules beside it. It
 * imports only node:* modules and reads its configuration from context.env, so
 * a copy runs as it is. In the toolkit, change the sources and rebuild; a copy
 * that `beeuni tools eject` wrote is the project's own to change.
 *
 * @module
 */
// builtin_tools/src/_env.ts
function setting(env, name) {
  const value = env[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : void 0;
}
function positiveSetting(env, name, fallback) {
  const raw = setting(env, name);
  if (raw === void 0) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`invalid ${name}: expected a positive whole number, got "${raw}"; fix or unset it`);
  }
  return value;
}

// builtin_tools/src/_address_policy.ts
import { lookup as dnsLookup } from "node:dns/promises";

// builtin_tools/src/_tool.ts
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

// builtin_tools/src/_address_policy.ts
function readAddressPolicy(env) {
  return {
    allowPrivate: env.BEEUNI_SCRAPE_ALLOW_PRIVATE === "1",
    allowHosts: (env.BEEUNI_SCRAPE_ALLOW_HOSTS ?? "").split(",").map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== "").map(parseHostEntry)
  };
}
function parseHostEntry(entry) {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return {
    host: bracketed[1],
    port: bracketed[2] ?? null
  };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return {
    host: stripDot(withPort[1]),
    port: withPort[2]
  };
  return {
    host: stripDot(entry),
    port: null
  };
}
function stripDot(host) {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}
function effectivePort(url) {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}
function isAllowedHost(url, policy) {
  const host = stripDot(url.hostname.toLowerCase());
  const port = effectivePort(url);
  return policy.allowHosts.some((entry) => entry.host === host && (entry.port === null || entry.port === port));
}
function parseIPv4(text) {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}
function parseIPv6(text) {
  let source = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = source.indexOf("%");
  if (zone >= 0) source = source.slice(0, zone);
  if (!source.includes(":")) return null;
  let tail = [];
  const lastColon = source.lastIndexOf(":");
  const last = source.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (!v4) return null;
    tail = v4;
    source = source.slice(0, lastColon + 1) + "0:0";
  }
  const halves = source.split("::");
  if (halves.length > 2) return null;
  const toGroups = (part) => {
    if (part === "") return [];
    const groups2 = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      groups2.push(parseInt(group, 16));
    }
    return groups2;
  };
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  if (!head || !rest) return null;
  let groups;
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [
      ...head,
      ...new Array(missing).fill(0),
      ...rest
    ];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return null;
  const bytes = [];
  for (const group of groups) bytes.push(group >> 8, group & 255);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}
function inV4(bytes, prefix, bits) {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 255 : 255 << 8 - bits & 255;
    if ((bytes[i] & mask) !== (prefix[i] & mask)) return false;
  }
  return true;
}
var V4_RULES = [
  [
    [
      169,
      254,
      169,
      254
    ],
    32,
    "a cloud metadata address"
  ],
  [
    [
      0,
      0,
      0,
      0
    ],
    8,
    "unspecified (0.0.0.0/8)"
  ],
  [
    [
      10,
      0,
      0,
      0
    ],
    8,
    "private (10.0.0.0/8)"
  ],
  [
    [
      100,
      64,
      0,
      0
    ],
    10,
    "shared address space (100.64.0.0/10)"
  ],
  [
    [
      127,
      0,
      0,
      0
    ],
    8,
    "loopback (127.0.0.0/8)"
  ],
  [
    [
      169,
      254,
      0,
      0
    ],
    16,
    "link-local (169.254.0.0/16)"
  ],
  [
    [
      172,
      16,
      0,
      0
    ],
    12,
    "private (172.16.0.0/12)"
  ],
  [
    [
      192,
      0,
      0,
      0
    ],
    24,
    "reserved (192.0.0.0/24)"
  ],
  [
    [
      192,
      168,
      0,
      0
    ],
    16,
    "private (192.168.0.0/16)"
  ],
  [
    [
      198,
      18,
      0,
      0
    ],
    15,
    "reserved for benchmarks (198.18.0.0/15)"
  ],
  [
    [
      224,
      0,
      0,
      0
    ],
    4,
    "multicast (224.0.0.0/4)"
  ],
  [
    [
      240,
      0,
      0,
      0
    ],
    4,
    "reserved (240.0.0.0/4)"
  ]
];
function classifyIPv4(bytes) {
  for (const [prefix, bits, reason] of V4_RULES) {
    if (inV4(bytes, prefix, bits)) return reason;
  }
  return null;
}
function classifyIPv6(bytes) {
  const zeroUpTo = (n) => bytes.slice(0, n).every((b) => b === 0);
  if (bytes.every((b) => b === 0)) return "unspecified (::)";
  if (zeroUpTo(15) && bytes[15] === 1) return "loopback (::1)";
  const embedded = (reason, v4) => {
    const inner = classifyIPv4(v4);
    return inner === null ? null : `${reason} ${v4.join(".")}, ${inner}`;
  };
  if (zeroUpTo(10) && bytes[10] === 255 && bytes[11] === 255) {
    return embedded("an IPv4-mapped form of", bytes.slice(12)) ?? "IPv4-mapped (::ffff:0:0/96): use the IPv4 address itself";
  }
  if (zeroUpTo(8) && bytes[8] === 255 && bytes[9] === 255 && bytes[10] === 0 && bytes[11] === 0) return "IPv4-translated (::ffff:0:0:0/96)";
  if (zeroUpTo(12)) {
    return embedded("an IPv4-compatible form of", bytes.slice(12));
  }
  if (bytes[0] === 0 && bytes[1] === 100 && bytes[2] === 255 && bytes[3] === 155) {
    return embedded("a NAT64 form of", bytes.slice(12));
  }
  if (bytes[0] === 32 && bytes[1] === 2) {
    return embedded("a 6to4 form of", bytes.slice(2, 6));
  }
  if ((bytes[0] & 254) === 252) return "unique local (fc00::/7)";
  if (bytes[0] === 254 && (bytes[1] & 192) === 128) {
    return "link-local (fe80::/10)";
  }
  if (bytes[0] === 254 && (bytes[1] & 192) === 192) {
    return "site-local (fec0::/10)";
  }
  if (bytes[0] === 255) return "multicast (ff00::/8)";
  if (bytes[0] === 1 && zeroUpTo(8)) return "discard-only (100::/64)";
  return null;
}
function classifyAddress(address) {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  return "not a valid IP address";
}
var BLOCKED_NAMES = /* @__PURE__ */ new Set([
  "metadata",
  "metadata.goog",
  "instance-data"
]);
function blockedName(host) {
  return BLOCKED_NAMES.has(host) || host === "internal" || host.endsWith(".internal");
}
function refusal(url, detail) {
  return new Error(`refused to fetch "${url.href}": ${detail}; only public addresses are fetched (set BEEUNI_SCRAPE_ALLOW_PRIVATE=1 in the tool's environment to allow private ones)`);
}
async function vetHost(url, policy, signal) {
  const enforce = !policy.allowPrivate && !isAllowedHost(url, policy);
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : stripDot(url.hostname.toLowerCase());
  if (parseIPv4(hostname)) {
    if (enforce) {
      const reason = classifyAddress(hostname);
      if (reason) throw refusal(url, `address ${hostname} is ${reason}`);
    }
    return [
      {
        address: hostname,
        family: 4
      }
    ];
  }
  if (parseIPv6(hostname)) {
    if (enforce) {
      const reason = classifyAddress(hostname);
      if (reason) throw refusal(url, `address ${hostname} is ${reason}`);
    }
    return [
      {
        address: hostname,
        family: 6
      }
    ];
  }
  if (enforce && blockedName(hostname)) {
    throw refusal(url, `host "${hostname}" is an internal or metadata name`);
  }
  let found;
  try {
    found = await abortable(dnsLookup(hostname, {
      all: true,
      verbatim: true
    }), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(`cannot resolve host "${hostname}" of "${url.href}": ${messageOf(error)}; check the URL`);
  }
  if (found.length === 0) {
    throw new Error(`cannot resolve host "${hostname}" of "${url.href}": no addresses; check the URL`);
  }
  if (enforce) {
    for (const entry of found) {
      const reason = classifyAddress(entry.address);
      if (reason) {
        throw refusal(url, `host "${hostname}" resolves to ${entry.address}, which is ${reason}`);
      }
    }
  }
  return found.map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4
  }));
}
function abortable(promise, signal) {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, {
      once: true
    });
    promise.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    }, (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}

// builtin_tools/src/_html_content.ts
var VOID = /* @__PURE__ */ new Set([
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
  "wbr"
]);
var RAW_TEXT = /* @__PURE__ */ new Set([
  "script",
  "style",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript"
]);
var ESCAPABLE_RAW_TEXT = /* @__PURE__ */ new Set([
  "title",
  "textarea"
]);
var CLOSES_P = /* @__PURE__ */ new Set([
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
  "dt"
]);
var HEAD_CONTENT = /* @__PURE__ */ new Set([
  "title",
  "meta",
  "link",
  "style",
  "script",
  "base",
  "noscript",
  "template"
]);
var SCOPE_BARRIERS = /* @__PURE__ */ new Set([
  "#document",
  "html",
  "table",
  "td",
  "th",
  "caption",
  "template",
  "applet",
  "object",
  "marquee"
]);
var MAX_DEPTH = 256;
var TABLE_PARTS = /* @__PURE__ */ new Set([
  "tr",
  "td",
  "th",
  "tbody",
  "thead",
  "tfoot",
  "caption",
  "colgroup"
]);
function newElement(name, attrs, parent, children = []) {
  return {
    kind: "element",
    name,
    attrs,
    children,
    parent
  };
}
var TreeBuilder = class {
  root = newElement("#document", {}, null);
  stack = [
    this.root
  ];
  foreign = 0;
  get current() {
    return this.stack[this.stack.length - 1];
  }
  text(text) {
    if (text === "") return;
    if (this.headOpen() && this.current.name === "head" && /\S/.test(text)) {
      this.popTo("head");
    }
    const children = this.current.children;
    const last = children[children.length - 1];
    if (last && last.kind === "text") last.text += text;
    else children.push({
      kind: "text",
      text
    });
  }
  /** Whether `<head>` is open (it can only sit right below the root). */
  headOpen() {
    return this.stack[1]?.name === "head" || this.stack[2]?.name === "head";
  }
  /** Index of the nearest open `name` not hidden behind a barrier. */
  inScope(name, barriers) {
    for (let i = this.stack.length - 1; i > 0; i--) {
      const element = this.stack[i];
      if (element.name === name) return i;
      if (barriers.has(element.name)) return -1;
    }
    return -1;
  }
  popTo(name, barriers = SCOPE_BARRIERS) {
    const at = this.inScope(name, barriers);
    if (at < 0) return false;
    this.stack.length = at;
    return true;
  }
  start(name, attrs, selfClosing) {
    if (this.foreign === 0) this.implyEnds(name);
    const element = newElement(name, attrs, this.current);
    this.current.children.push(element);
    const isVoid = VOID.has(name) || selfClosing && this.foreign > 0 || selfClosing && (name === "svg" || name === "math") || this.stack.length >= MAX_DEPTH;
    if (!isVoid) {
      this.stack.push(element);
      if (name === "svg" || name === "math") this.foreign++;
    }
    return element;
  }
  implyEnds(name) {
    if (this.headOpen() && !HEAD_CONTENT.has(name) && name !== "head") {
      this.popTo("head");
    }
    if (CLOSES_P.has(name)) this.popTo("p");
    if (name === "li") {
      this.popTo("li", /* @__PURE__ */ new Set([
        ...SCOPE_BARRIERS,
        "ul",
        "ol",
        "menu",
        "dir"
      ]));
    } else if (name === "dt" || name === "dd") {
      const barriers = /* @__PURE__ */ new Set([
        ...SCOPE_BARRIERS,
        "dl"
      ]);
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
      this.popTo("tr", /* @__PURE__ */ new Set([
        "table",
        "#document"
      ]));
    } else if (name === "td" || name === "th") {
      this.closeCells();
      if (this.inTable() && this.current.name !== "tr") {
        this.start("tr", {}, false);
      }
    } else if (name === "tbody" || name === "thead" || name === "tfoot" || name === "caption" || name === "colgroup") {
      this.closeCells();
      const barriers = /* @__PURE__ */ new Set([
        "table",
        "#document"
      ]);
      this.popTo("tr", barriers);
      for (const part of [
        "tbody",
        "thead",
        "tfoot",
        "caption",
        "colgroup"
      ]) {
        this.popTo(part, barriers);
      }
    }
  }
  closeCells() {
    const barriers = /* @__PURE__ */ new Set([
      "table",
      "#document"
    ]);
    this.popTo("td", barriers);
    this.popTo("th", barriers);
  }
  inTable() {
    const name = this.current.name;
    return name === "table" || name === "tbody" || name === "thead" || name === "tfoot";
  }
  end(name) {
    if (name === "br") {
      this.start("br", {}, false);
      return;
    }
    if (name === "html" || name === "body") return;
    let barriers = SCOPE_BARRIERS;
    if (TABLE_PARTS.has(name)) barriers = /* @__PURE__ */ new Set([
      "table",
      "#document"
    ]);
    else if (name === "table") barriers = /* @__PURE__ */ new Set([
      "#document"
    ]);
    else if (this.foreign > 0) barriers = /* @__PURE__ */ new Set([
      "#document"
    ]);
    let at = this.inScope(name, barriers);
    if (at < 0 && /^h[1-6]$/.test(name)) {
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
};
function parseAttributes(source) {
  const attrs = {};
  let i = 0;
  const n = source.length;
  while (i < n) {
    while (i < n && /[\s/]/.test(source[i])) i++;
    if (i >= n) break;
    let start = i;
    i++;
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
function tagEnd(source, from) {
  let quote = "";
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === ">") return i;
    else if ((c === '"' || c === "'") && /[=\s]/.test(source[i - 1] ?? "")) {
      if (source[i - 1] === "=" || /=\s*$/.test(source.slice(from, i))) {
        quote = c;
      }
    }
  }
  return -1;
}
function parseHtml(source) {
  const tree = new TreeBuilder();
  const n = source.length;
  let i = 0;
  const text = (raw) => tree.text(decodeEntities(raw, false));
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
      const close2 = source.indexOf("-->", i + 4);
      const bang = source.indexOf("--!>", i + 4);
      const stop = close2 < 0 ? bang < 0 ? n : bang + 4 : bang >= 0 && bang < close2 ? bang + 4 : close2 + 3;
      i = stop;
      continue;
    }
    if (source.startsWith("<![CDATA[", i)) {
      const close2 = source.indexOf("]]>", i + 9);
      tree.text(source.slice(i + 9, close2 < 0 ? n : close2));
      i = close2 < 0 ? n : close2 + 3;
      continue;
    }
    if (next === "!" || next === "?") {
      const close2 = source.indexOf(">", i + 2);
      i = close2 < 0 ? n : close2 + 1;
      continue;
    }
    if (next === "/") {
      const match = /^<\/([a-zA-Z][^\s/>]*)/.exec(source.slice(i, i + 64));
      if (!match) {
        const close3 = source.indexOf(">", i + 2);
        i = close3 < 0 ? n : close3 + 1;
        continue;
      }
      const close2 = source.indexOf(">", i + match[0].length);
      tree.end(match[1].toLowerCase());
      i = close2 < 0 ? n : close2 + 1;
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
    if (close < 0) break;
    const inside = source.slice(afterName, close);
    const selfClosing = inside.endsWith("/");
    const element = tree.start(name, parseAttributes(inside), selfClosing);
    i = close + 1;
    if ((RAW_TEXT.has(name) || ESCAPABLE_RAW_TEXT.has(name) || name === "plaintext") && !VOID.has(name) && !selfClosing) {
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
      const content = ESCAPABLE_RAW_TEXT.has(name) ? decodeEntities(raw, false) : raw;
      if (content !== "") {
        element.children.push({
          kind: "text",
          text: content
        });
      }
      tree.end(name);
      i = resume;
    }
  }
  return tree.root;
}
var LATIN1_NAMES = "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml".split(" ");
var GREEK_UPPER = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau Upsilon Phi Chi Psi Omega".split(" ");
var GREEK_LOWER = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega".split(" ");
var OTHER_ENTITIES = "quot:34 amp:38 apos:39 lt:60 gt:62 QUOT:34 AMP:38 LT:60 GT:62 COPY:169 REG:174 OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 fnof:402 circ:710 tilde:732 thetasym:977 upsih:978 piv:982 ensp:8194 emsp:8195 thinsp:8201 hairsp:8202 zwnj:8204 zwj:8205 lrm:8206 rlm:8207 hyphen:8208 dash:8208 ndash:8211 mdash:8212 horbar:8213 lsquo:8216 rsquo:8217 rsquor:8217 sbquo:8218 ldquo:8220 rdquo:8221 rdquor:8221 bdquo:8222 dagger:8224 Dagger:8225 bull:8226 bullet:8226 nldr:8229 hellip:8230 mldr:8230 permil:8240 prime:8242 Prime:8243 lsaquo:8249 rsaquo:8250 oline:8254 frasl:8260 euro:8364 image:8465 weierp:8472 real:8476 trade:8482 TRADE:8482 alefsym:8501 larr:8592 uarr:8593 rarr:8594 darr:8595 harr:8596 crarr:8629 lArr:8656 uArr:8657 rArr:8658 dArr:8659 hArr:8660 forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 ni:8715 prod:8719 sum:8721 minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 ang:8736 and:8743 or:8744 cap:8745 cup:8746 int:8747 there4:8756 sim:8764 cong:8773 asymp:8776 ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 nsub:8836 sube:8838 supe:8839 oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 lfloor:8970 rfloor:8971 lang:10216 rang:10217 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830 Tab:9 NewLine:10 excl:33 num:35 dollar:36 percnt:37 lpar:40 rpar:41 ast:42 midast:42 plus:43 comma:44 period:46 sol:47 colon:58 semi:59 equals:61 quest:63 commat:64 lsqb:91 lbrack:91 bsol:92 rsqb:93 rbrack:93 Hat:94 lowbar:95 grave:96 lcub:123 lbrace:123 verbar:124 vert:124 VerticalLine:124 rcub:125 rbrace:125 nbsp:160 NonBreakingSpace:160 half:189 centerdot:183 check:10003 checkmark:10003 cross:10007 star:9734 starf:9733 bigstar:9733 phone:9742 female:9792 male:9794 sharp:9839 flat:9837 natural:9838 larrow:8592 rarrow:8594 leftarrow:8592 rightarrow:8594 uparrow:8593 downarrow:8595 LeftArrow:8592 RightArrow:8594 ensp:8194 numsp:8199 puncsp:8200 MediumSpace:8287 NoBreak:8288 ZeroWidthSpace:8203 copysr:8471 incare:8453 numero:8470 ohm:937 angst:197 deg:176 times:215 divide:247 pm:177 middot:183 laquo:171 raquo:187 blacksquare:9642 square:9633 squ:9633 cir:9675 dollar:36 yen:165 pound:163 cent:162 inodot:305 imath:305 Ccaron:268 ccaron:269 Zcaron:381 zcaron:382 Rcaron:344 rcaron:345 Ecaron:282 ecaron:283 Lstrok:321 lstrok:322";
var ENTITIES = /* @__PURE__ */ new Map();
var LEGACY = /* @__PURE__ */ new Set([
  "amp",
  "lt",
  "gt",
  "quot",
  "AMP",
  "LT",
  "GT",
  "QUOT",
  "COPY",
  "REG"
]);
LATIN1_NAMES.forEach((name, i) => {
  ENTITIES.set(name, String.fromCodePoint(160 + i));
  LEGACY.add(name);
});
GREEK_UPPER.forEach((name, i) => {
  if (name !== "-") ENTITIES.set(name, String.fromCodePoint(913 + i));
});
GREEK_LOWER.forEach((name, i) => ENTITIES.set(name, String.fromCodePoint(945 + i)));
for (const pair of OTHER_ENTITIES.split(" ")) {
  const [name, code] = pair.split(":");
  if (name && code) ENTITIES.set(name, String.fromCodePoint(Number(code)));
}
var C1 = "\u20AC\x81\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\x8D\u017D\x8F\x90\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\x9D\u017E\u0178";
function numericReference(code) {
  if (code === 0 || code > 1114111 || code >= 55296 && code <= 57343) {
    return "\uFFFD";
  }
  if (code >= 128 && code <= 159) return C1[code - 128];
  return String.fromCodePoint(code);
}
function decodeEntities(text, inAttribute) {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([a-zA-Z][a-zA-Z0-9]*)(;?))/g, (whole, hex, dec, name, semi, at, all) => {
    if (hex !== void 0) {
      return numericReference(parseInt(hex.slice(0, 8), 16));
    }
    if (dec !== void 0) return numericReference(Number(dec.slice(0, 9)));
    if (semi && ENTITIES.has(name)) return ENTITIES.get(name);
    for (let len = Math.min(name.length, 8); len >= 2; len--) {
      const prefix = name.slice(0, len);
      if (!LEGACY.has(prefix)) continue;
      const following = len < name.length ? name[len] : semi || all[at + whole.length] || "";
      if (inAttribute && (len < name.length || following === "=")) {
        return whole;
      }
      if (len === name.length && semi) return ENTITIES.get(prefix);
      return ENTITIES.get(prefix) + name.slice(len) + semi;
    }
    return whole;
  });
}
var ALWAYS_DROPPED = /* @__PURE__ */ new Set([
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
  "slot"
]);
var BOILERPLATE_ROLES = /* @__PURE__ */ new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menubar",
  "dialog",
  "alertdialog",
  "toolbar"
]);
var BOILERPLATE_WORDS = /(^|[\s_-])(nav|navbar|navigation|menu|menubar|sidebar|breadcrumbs?|cookies?|cookie-banner|consent|gdpr|share|sharing|social|advert|advertisement|ads|ad-slot|sponsored|promo|newsletter|subscribe|skip-link|skip-to-content|site-header|site-footer|masthead|popup|modal|related-posts|comments?|footer|topbar|pagination|pager|editsection|edit-section)($|[\s_-])/i;
function isHidden(element) {
  const attrs = element.attrs;
  if ("hidden" in attrs) return true;
  if ((attrs["aria-hidden"] ?? "").toLowerCase() === "true") return true;
  const style = (attrs.style ?? "").toLowerCase().replace(/\s+/g, "");
  return style.includes("display:none") || style.includes("visibility:hidden");
}
function textLength(node, memo) {
  if (node.kind === "text") return node.text.replace(/\s+/g, "").length;
  const known = memo.get(node);
  if (known !== void 0) return known;
  let total = 0;
  if (!ALWAYS_DROPPED.has(node.name)) {
    for (const child of node.children) total += textLength(child, memo);
  }
  memo.set(node, total);
  return total;
}
function findAll(root, test) {
  const found = [];
  const walk = (element) => {
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
function contains(outer, inner) {
  for (let at = inner; at; at = at.parent) {
    if (at === outer) return true;
  }
  return false;
}
function contentRoot(document) {
  const memo = /* @__PURE__ */ new Map();
  const body = findAll(document, (element) => element.name === "body")[0] ?? document;
  const total = textLength(body, memo);
  const substantial = (element) => textLength(element, memo) >= Math.min(50, total * 0.5);
  const mains = findAll(body, (element) => element.name === "main" || (element.attrs.role ?? "").toLowerCase() === "main").filter(substantial);
  if (mains.length > 0) return mains[0];
  const articles = findAll(body, (element) => element.name === "article").filter((article) => substantial(article));
  const outermost = articles.filter((article) => !articles.some((other) => other !== article && contains(other, article)));
  if (outermost.length === 1) return outermost[0];
  if (outermost.length > 1) return body;
  const byId = findAll(body, (element) => /^(content|main|main-content|maincontent|primary|article|post)$/i.test(element.attrs.id ?? "")).filter((element) => textLength(element, memo) >= total * 0.4);
  return byId[0] ?? body;
}
function prune(root) {
  const memo = /* @__PURE__ */ new Map();
  const rootText = textLength(root, memo);
  const keepsHeading = (element) => findAll(element, (inner) => inner.name === "h1").length > 0;
  const walk = (element, inSection) => {
    element.children = element.children.filter((child) => {
      if (child.kind === "text") return true;
      const name = child.name;
      if (ALWAYS_DROPPED.has(name) || isHidden(child)) return false;
      if (name === "dialog" && !("open" in child.attrs)) return false;
      if (name === "a" && (child.attrs.href ?? "").startsWith("#") && /^[\s¶#§🔗]*$/u.test(textOf(child)) && !child.children.some((inner) => inner.kind === "element")) return false;
      if (name === "nav" || name === "aside" || name === "footer") return false;
      const role = (child.attrs.role ?? "").toLowerCase();
      if (BOILERPLATE_ROLES.has(role)) return false;
      if (name === "header") {
        const heading = findAll(child, (inner) => /^h[1-6]$/.test(inner.name)).length > 0;
        if (!inSection || !heading) return false;
      }
      if (name === "form") {
        const wraps = findAll(child, (inner) => inner.name === "main" || inner.name === "article").length > 0;
        if (!wraps && textLength(child, memo) < 200) return false;
      }
      const words = `${child.attrs.id ?? ""} ${child.attrs.class ?? ""}`;
      if (BOILERPLATE_WORDS.test(words) && !keepsHeading(child) && textLength(child, memo) < rootText * 0.4) return false;
      return true;
    });
    for (const child of element.children) {
      if (child.kind === "element") {
        walk(child, inSection || child.name === "article" || child.name === "section" || child.name === "main");
      }
    }
  };
  walk(root, root.name === "article" || root.name === "main" || root.name === "section" || (root.attrs.role ?? "") === "main");
}
function documentTitle(document) {
  let title = "";
  let ogTitle = "";
  const walk = (element) => {
    for (const child of element.children) {
      if (child.kind !== "element" || title) continue;
      if (child.name === "svg" || child.name === "math") continue;
      if (child.name === "title") {
        title = collapse(textOf(child));
        continue;
      }
      if (child.name === "meta" && !ogTitle && (child.attrs.property ?? child.attrs.name ?? "").toLowerCase() === "og:title") ogTitle = collapse(child.attrs.content ?? "");
      walk(child);
    }
  };
  walk(document);
  if (title) return title;
  if (ogTitle) return ogTitle;
  const h1 = findAll(document, (element) => element.name === "h1")[0];
  return h1 ? collapse(textOf(h1)) : "";
}
function baseUrl(document, pageUrl) {
  const base = findAllIncludingHead(document, "base").find((element) => element.attrs.href);
  if (!base) return pageUrl;
  try {
    return new URL(base.attrs.href, pageUrl);
  } catch {
    return pageUrl;
  }
}
function findAllIncludingHead(root, name) {
  const found = [];
  const walk = (element) => {
    for (const child of element.children) {
      if (child.kind !== "element") continue;
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}
function textOf(node) {
  if (node.kind === "text") return node.text;
  if (node.name === "br") return "\n";
  return node.children.map(textOf).join("");
}
function collapse(text) {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}
var BLOCKS = /* @__PURE__ */ new Set([
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
  "#document"
]);
var BREAK = "\uE000";
function hasBlock(element) {
  return element.children.some((child) => child.kind === "element" && (BLOCKS.has(child.name) || hasBlock(child)));
}
function escapeMarkdown(text) {
  if (!/[\\*`_[]/.test(text)) return text;
  return text.replace(/\\/g, "\\\\").replace(/([*`])/g, "\\$1").replace(/(^|[\s(])_|_($|[\s).,;:!?])/g, (match) => match.replace("_", "\\_")).replace(/\[([^\]]*)\]\(/g, "\\[$1\\](");
}
function escapeLineStart(line) {
  if (!/^[#>+=\d-]/.test(line)) return line;
  return line.replace(/^(#{1,6}\s)/, "\\$1").replace(/^>/, "\\>").replace(/^([-+])(\s)/, "\\$1$2").replace(/^(\d+)([.)])(\s)/, "$1\\$2$3").replace(/^(={3,}|-{3,})\s*$/, "\\$1");
}
function paragraph(inline, context) {
  const lines = inline.replace(/[ \t\n\r\f\u00a0]+/g, " ").split(BREAK).map((line) => line.trim());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  const fixed = context.markdown ? lines.map(escapeLineStart) : lines;
  return fixed.join(context.markdown && !context.cell ? "  \n" : "\n");
}
function wrapInline(inner, marker) {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
  if (match[2] === "") return inner;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
}
function codeSpan(text) {
  const content = collapse(text);
  if (content === "") return "";
  const runs = content.match(/`+/g) ?? [];
  const longest = runs.reduce((max, run) => Math.max(max, run.length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = content.startsWith("`") || content.endsWith("`") ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}
function resolveLink(href, base) {
  if (!href) return null;
  const trimmed = href.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  let url;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (![
    "http:",
    "https:",
    "mailto:",
    "ftp:",
    "tel:"
  ].includes(url.protocol)) {
    return null;
  }
  return url.href.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/ /g, "%20");
}
function renderInline(node, context) {
  if (node.kind === "text") {
    return context.markdown ? escapeMarkdown(node.text) : node.text;
  }
  const name = node.name;
  const children = () => node.children.map((child) => renderInline(child, context)).join("");
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
      const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner);
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
function renderBlocks(nodes, context) {
  const blocks = [];
  let inline = "";
  const flush = () => {
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
      const href = node.name === "a" && context.markdown ? resolveLink(node.attrs.href, context.base) : null;
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
function renderBlock(element, context) {
  const name = element.name;
  if (/^h[1-6]$/.test(name)) {
    const text = paragraph(renderInline(element, context).replace(new RegExp(BREAK, "g"), " "), {
      ...context,
      markdown: false
    });
    if (text === "") return [];
    if (!context.markdown || context.cell) return [
      text
    ];
    return [
      `${"#".repeat(Number(name[1]))} ${text}`
    ];
  }
  switch (name) {
    case "hr":
      return context.cell ? [] : [
        "---"
      ];
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      return renderPre(element, context);
    case "blockquote": {
      const inner = renderBlocks(element.children, context).join("\n\n");
      if (inner === "") return [];
      return [
        inner.split("\n").map((line) => line === "" ? ">" : `> ${line}`).join("\n")
      ];
    }
    case "ul":
    case "ol":
    case "menu":
    case "dir":
      return renderList(element, context);
    case "li":
      return renderList(newElement("ul", {}, null, [
        element
      ]), context);
    case "dl":
      return renderBlocks(element.children, context);
    case "dt": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return context.markdown && !context.cell && blocks.length === 1 ? [
        `**${blocks[0]}**`
      ] : blocks;
    }
    case "dd": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return [
        indentItem(": ", blocks.join("\n\n"))
      ];
    }
    case "table":
      return renderTable(element, context);
    default:
      return renderBlocks(element.children, context);
  }
}
function renderPre(element, context) {
  let code = textOf(element).replace(/\r\n?/g, "\n");
  if (code.startsWith("\n")) code = code.slice(1);
  code = code.replace(/\s+$/, "");
  if (code.trim() === "") return [];
  if (context.cell) {
    return [
      context.markdown ? codeSpan(code) : collapse(code)
    ];
  }
  if (!context.markdown) return [
    code
  ];
  const classes = [
    element.attrs.class ?? "",
    ...element.children.filter((child) => child.kind === "element" && child.name === "code").map((child) => child.attrs.class ?? ""),
    element.parent?.attrs.class ?? "",
    element.parent?.parent?.attrs.class ?? ""
  ].join(" ");
  const dataLang = element.attrs["data-lang"] ?? "";
  const language = /(?:^|\s)(?:(?:language|lang|highlight)-|brush:\s*)([\w+#.-]+)/.exec(classes)?.[1] ?? (/^[\w+#.-]+$/.test(dataLang) ? dataLang : "");
  const runs = code.match(/^\s*`{3,}/gm) ?? [];
  const longest = runs.reduce((max, run) => Math.max(max, run.trim().length), 2);
  const fence = "`".repeat(longest + 1);
  return [
    `${fence}${language}
${code}
${fence}`
  ];
}
function indentItem(marker, text) {
  const pad = " ".repeat(marker.length);
  return text.split("\n").map((line, i) => i === 0 ? marker + line : line === "" ? "" : pad + line).join("\n");
}
function renderList(list, context) {
  const ordered = list.name === "ol";
  let number = Number.parseInt(list.attrs.start ?? "1", 10);
  if (!Number.isFinite(number)) number = 1;
  const items = [];
  for (const child of list.children) {
    if (child.kind === "element" && child.name === "li") {
      items.push([
        ...child.children
      ]);
    } else if (child.kind === "text" && child.text.trim() === "") {
      continue;
    } else if (items.length > 0) {
      items[items.length - 1].push(child);
    } else {
      items.push([
        child
      ]);
    }
  }
  const lines = [];
  const liValues = list.children.filter((child) => child.kind === "element" && child.name === "li");
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
  if (context.cell) return [
    lines.join(BREAK)
  ];
  return [
    lines.join("\n")
  ];
}
function tableRows(table) {
  const rows = [];
  let caption = null;
  const stray = [];
  const addRow = (tr, inHead) => {
    const cells = tr.children.filter((child) => child.kind === "element" && (child.name === "td" || child.name === "th"));
    if (cells.length === 0) return;
    rows.push({
      cells,
      header: inHead || cells.every((cell) => cell.name === "th")
    });
  };
  const walk = (element, inHead) => {
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
        addRow(newElement("tr", {}, null, [
          child
        ]), inHead);
      } else stray.push(child);
    }
  };
  walk(table, false);
  return {
    rows,
    caption,
    stray
  };
}
var RICH_IN_CELL = /* @__PURE__ */ new Set([
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
  "form"
]);
function isLayoutTable(table, rows) {
  const role = (table.attrs.role ?? "").toLowerCase();
  if (role === "presentation" || role === "none") return true;
  const columns = rows.reduce((max, row) => Math.max(max, row.cells.length), 0);
  if (columns <= 1) return true;
  const rich = (element) => {
    let paragraphs = 0;
    const walk = (inner) => {
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
function cellText(cell, context) {
  const blocks = renderBlocks(cell.children, {
    ...context,
    cell: true
  });
  const joiner = context.markdown ? "<br>" : " ";
  const text = blocks.join(joiner).replace(/\n/g, joiner).replace(new RegExp(BREAK, "g"), joiner);
  return context.markdown ? text.replace(/\|/g, "\\|") : text;
}
function flattenTable(table, context) {
  const { rows, caption } = tableRows(table);
  const lines = rows.map((row) => row.cells.map((cell) => cellText(cell, context)).filter((text) => text.trim() !== "").join("; ")).filter((line) => line !== "");
  if (caption) {
    const title = collapse(textOf(caption));
    if (title) lines.unshift(title);
  }
  return lines.join(BREAK);
}
function renderTable(table, context) {
  const { rows, caption, stray } = tableRows(table);
  const before = stray.length > 0 ? renderBlocks(stray, context) : [];
  const captionBlocks = caption ? renderBlocks(caption.children, context) : [];
  if (context.cell) {
    const flat = flattenTable(table, context);
    return flat === "" ? before : [
      ...before,
      flat
    ];
  }
  if (rows.length === 0) return [
    ...before,
    ...captionBlocks
  ];
  if (isLayoutTable(table, rows)) {
    const blocks = [
      ...before,
      ...captionBlocks
    ];
    for (const row of rows) {
      for (const cell of row.cells) {
        blocks.push(...renderBlocks(cell.children, context));
      }
    }
    return blocks;
  }
  const grid = [];
  rows.forEach((row, r) => {
    grid[r] = grid[r] ?? [];
    let column = 0;
    for (const cell of row.cells) {
      const text = cellText(cell, context);
      const colspan = Math.min(Math.max(Number.parseInt(cell.attrs.colspan ?? "1", 10) || 1, 1), 50);
      const rowspan = Math.min(Math.max(Number.parseInt(cell.attrs.rowspan ?? "1", 10) || 1, 1), rows.length - r);
      while (grid[r][column] !== void 0) column++;
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
  const filled = grid.map((row) => Array.from({
    length: width
  }, (_, c) => (row[c] ?? "").trim()));
  const nonEmpty = filled.filter((row) => row.some((cell) => cell !== ""));
  if (nonEmpty.length === 0) return [
    ...before,
    ...captionBlocks
  ];
  if (!context.markdown) {
    return [
      ...before,
      ...captionBlocks,
      nonEmpty.map((row) => row.join(" | ")).join("\n")
    ];
  }
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const hasHeader = rows[0].header && filled[0].some((cell) => cell !== "");
  const header = hasHeader ? filled[0] : new Array(width).fill("");
  const body = hasHeader ? filled.slice(1) : filled;
  const lines = [
    line(header),
    line(new Array(width).fill("---")),
    ...body.filter((row) => row.some((cell) => cell !== "")).map(line)
  ];
  return [
    ...before,
    ...captionBlocks,
    lines.join("\n")
  ];
}
function htmlToContent(source, pageUrl, markdown) {
  const document = parseHtml(source);
  const title = documentTitle(document);
  const base = baseUrl(document, pageUrl);
  const root = contentRoot(document);
  prune(root);
  const blocks = renderBlock(root, {
    markdown,
    base,
    cell: false
  });
  const content = blocks.join("\n\n").replace(/[ \t]+$/gm, (spaces) => spaces === "  " && markdown ? spaces : "").replace(/\n{3,}/g, "\n\n").trim();
  return {
    title,
    content
  };
}

// builtin_tools/src/_page_body.ts
function parseContentType(header) {
  const [type, ...params] = header.split(";");
  let charset = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param);
    if (match) charset = match[1];
  }
  return {
    type: type.trim().toLowerCase(),
    charset
  };
}
function textKind(type) {
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json") || type === "text/json") return "json";
  if (type.startsWith("text/") || type.endsWith("+xml")) return "text";
  if ([
    "application/xml",
    "application/javascript",
    "application/ecmascript",
    "application/x-javascript",
    "application/x-yaml",
    "application/yaml",
    "application/toml",
    "application/x-sh",
    "application/sql",
    "application/graphql",
    "application/x-ndjson",
    "application/csv",
    "application/rtf",
    "application/x-httpd-php"
  ].includes(type)) return "text";
  return null;
}
function binaryType(type) {
  if (textKind(type) !== null) return false;
  return type !== "application/octet-stream" && type !== "unknown/unknown";
}
function sniffKind(bytes) {
  const head = bytes.subarray(0, 1024);
  const starts = (...sig) => sig.every((byte, i) => head[i] === byte);
  if (starts(37, 80, 68, 70) || starts(137, 80, 78, 71) || starts(71, 73, 70, 56) || starts(255, 216, 255) || starts(80, 75, 3, 4) || starts(31, 139)) return "binary";
  const utf16 = starts(255, 254) || starts(254, 255);
  if (!utf16 && head.includes(0)) return "binary";
  const text = new TextDecoder("windows-1252").decode(head).trimStart().toLowerCase();
  if (/^(\ufeff|ï»¿)?\s*<(!doctype html|html|head|body|meta|title|!--)/.test(text)) return "html";
  if (/^(\ufeff|ï»¿)?\s*[{[]/.test(text)) return "json";
  return "text";
}
function decoderFor(label) {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim());
  } catch {
    return null;
  }
}
function metaCharset(bytes, kind) {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 4096));
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  if (kind !== "html") return null;
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\scharset\s*=\s*["']?([^"'\s;/>]+)/i.exec(tag);
    if (direct && !/\scontent\s*=/i.test(tag.slice(0, direct.index))) {
      return direct[1];
    }
    if (/\shttp-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const match = /charset\s*=\s*["']?([^"';\s/>]+)/i.exec(tag);
      if (match) return match[1];
    }
  }
  return null;
}
function decodeBody(bytes, headerCharset, kind) {
  if (bytes[0] === 239 && bytes[1] === 187 && bytes[2] === 191) {
    return new TextDecoder("utf-8").decode(bytes);
  }
  if (bytes[0] === 255 && bytes[1] === 254) {
    return new TextDecoder("utf-16le").decode(bytes);
  }
  if (bytes[0] === 254 && bytes[1] === 255) {
    return new TextDecoder("utf-16be").decode(bytes);
  }
  const fromHeader = decoderFor(headerCharset);
  if (fromHeader) return fromHeader.decode(bytes);
  if (kind === "json") return new TextDecoder("utf-8").decode(bytes);
  const declared = metaCharset(bytes, kind);
  let fromMeta = decoderFor(declared);
  if (fromMeta && fromMeta.encoding.startsWith("utf-16")) {
    fromMeta = new TextDecoder("utf-8");
  }
  if (fromMeta) return fromMeta.decode(bytes);
  try {
    return new TextDecoder("utf-8", {
      fatal: true
    }).decode(bytes);
  } catch {
    try {
      return new TextDecoder("utf-8", {
        fatal: true
      }).decode(bytes.subarray(0, Math.max(0, bytes.length - 3))) + new TextDecoder("utf-8").decode(bytes.subarray(bytes.length - 3));
    } catch {
      return new TextDecoder("windows-1252").decode(bytes);
    }
  }
}

// builtin_tools/src/_pinned_http.ts
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
var MAX_REDIRECTS = 10;
var USER_AGENT = "Mozilla/5.0 (compatible; beeuni-scrape_webpage/0.1)";
function checkScheme(url, prefix) {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${prefix}, not "${url.protocol.slice(0, -1)}": "${url.href}"`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new Error(`${prefix} without a user name or password; remove them from "${url.href}"`);
  }
}
function openHop(url, addresses, signal) {
  const pinned = (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) {
      callback(null, list);
    } else {
      callback(null, list[0].address, list[0].family);
    }
  };
  const module = url.protocol === "https:" ? https : http;
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const request = module.request({
      protocol: url.protocol,
      hostname,
      port: effectivePort(url),
      path: url.pathname + url.search,
      method: "GET",
      agent: false,
      lookup: pinned,
      headers: {
        "user-agent": USER_AGENT,
        "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
        "accept-language": "en;q=0.9, *;q=0.5"
      }
    }, (response) => {
      signal.removeEventListener("abort", onAbort);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        response,
        request
      });
    });
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, {
      once: true
    });
    request.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(signal.aborted ? signal.reason : error);
    });
    request.end();
  });
}
function readBody(hop, maxBytes, signal) {
  const encoding = String(hop.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  let stream = hop.response;
  let decoder = null;
  if (encoding === "gzip" || encoding === "x-gzip") {
    decoder = zlib.createGunzip();
  } else if (encoding === "deflate") decoder = zlib.createInflate();
  else if (encoding === "br") decoder = zlib.createBrotliDecompress();
  else if (encoding !== "identity" && encoding !== "") {
    hop.request.destroy();
    return Promise.reject(new Error(`unsupported content encoding "${encoding}"`));
  }
  if (decoder) stream = hop.response.pipe(decoder);
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = (error, truncated = false) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      if (error !== null) {
        hop.request.destroy();
        decoder?.destroy();
        reject(error);
        return;
      }
      const bytes = new Uint8Array(Math.min(size, maxBytes));
      let at = 0;
      for (const chunk of chunks) {
        const part = chunk.subarray(0, bytes.length - at);
        bytes.set(part, at);
        at += part.length;
        if (at >= bytes.length) break;
      }
      if (truncated) {
        hop.request.destroy();
        decoder?.destroy();
      }
      resolve({
        bytes,
        truncated
      });
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) {
      finish(signal.reason);
      return;
    }
    signal.addEventListener("abort", onAbort, {
      once: true
    });
    stream.on("data", (chunk) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) finish(null, true);
    });
    stream.on("end", () => finish(null));
    stream.on("error", (error) => finish(error));
    hop.response.on("error", (error) => finish(error));
    hop.response.on("close", () => {
      if (!hop.response.complete) {
        finish(new Error("the connection closed before the body ended"));
      }
    });
  });
}
async function fetchPage(start, limits, signal) {
  let url = start;
  const seen = /* @__PURE__ */ new Set();
  for (let hops = 0; ; hops++) {
    seen.add(url.href);
    const addresses = await vetHost(url, limits.policy, signal);
    let hop;
    try {
      hop = await openHop(url, addresses, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(`cannot fetch "${url.href}": ${messageOf(error)}`);
    }
    const location = hop.headers.location;
    if ([
      301,
      302,
      303,
      307,
      308
    ].includes(hop.status) && location) {
      hop.request.destroy();
      let next;
      try {
        next = new URL(location, url);
      } catch {
        throw new Error(`cannot follow the redirect from "${url.href}": invalid location "${location}"`);
      }
      checkScheme(next, `cannot follow the redirect from "${url.href}": the target must use http or https`);
      next.hash = "";
      if (seen.has(next.href)) {
        throw new Error(`redirect loop: "${url.href}" redirects back to "${next.href}"; check the URL`);
      }
      if (hops + 1 > MAX_REDIRECTS) {
        throw new Error(`too many redirects: "${start.href}" redirected more than ${MAX_REDIRECTS} times (last to "${next.href}")`);
      }
      url = next;
      continue;
    }
    const { type, charset } = parseContentType(String(hop.headers["content-type"] ?? ""));
    if (type !== "" && binaryType(type)) {
      hop.request.destroy();
      throw new Error(`cannot scrape "${url.href}": its content type "${type}" is not a web page, text or JSON; scrape_webpage reads HTML, text and JSON only`);
    }
    let body;
    try {
      body = await readBody(hop, limits.maxBytes, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(`cannot read "${url.href}": ${messageOf(error)}`);
    }
    return {
      url,
      status: hop.status,
      contentType: type,
      charset,
      bytes: body.bytes,
      truncated: body.truncated
    };
  }
}

// builtin_tools/src/scrape_webpage.ts
var DEFAULT_MAX_LENGTH = 2e4;
var MAX_MAX_LENGTH = 1e6;
var DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
var DEFAULT_TIMEOUT_MS = 3e4;
function readArgs(raw) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error('invalid arguments: expected an object such as {"url": "https://example.com/"}');
  }
  const args = raw;
  if (typeof args.url !== "string" || args.url.trim() === "") {
    throw new Error('invalid arguments: "url" is required and must be an http or https URL string');
  }
  let url;
  try {
    url = new URL(args.url.trim());
  } catch {
    throw new Error(`invalid arguments: "url" is not a valid URL: "${args.url}"; give an absolute http or https URL`);
  }
  checkScheme(url, `invalid arguments: "url" must use http or https`);
  url.hash = "";
  let format = "markdown";
  if (args.format !== void 0 && args.format !== null) {
    if (args.format !== "markdown" && args.format !== "text" && args.format !== "html") {
      throw new Error(`invalid arguments: "format" must be "markdown", "text" or "html", not ${JSON.stringify(args.format)}`);
    }
    format = args.format;
  }
  const maxLength = readInteger(args.max_length, "max_length", DEFAULT_MAX_LENGTH, 1, MAX_MAX_LENGTH);
  const offset = readInteger(args.offset, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  return {
    url,
    format,
    maxLength,
    offset
  };
}
function readInteger(value, name, fallback, min, max) {
  if (value === void 0 || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`invalid arguments: "${name}" must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return value;
}
function readConfig(env) {
  return {
    env,
    timeoutMs: positiveSetting(env, "BEEUNI_HTTP_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    maxBytes: positiveSetting(env, "BEEUNI_SCRAPE_MAX_BYTES", DEFAULT_MAX_BYTES),
    policy: readAddressPolicy(env)
  };
}
async function callApi(args, config, signal) {
  const endpoint = `${String(config.env.BEEUNI_API_URL).replace(/\/+$/, "")}/v1/tools/scrape_webpage`;
  let response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "authorization": `Bearer ${config.env.BEEUNI_TOKEN}`,
        "content-type": "application/json",
        "accept": "application/json"
      },
      body: JSON.stringify(args),
      signal
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(`cannot reach the Beeuni API at "${endpoint}": ${messageOf(error)}; check BEEUNI_API_URL`);
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text.trim().slice(0, 500);
    try {
      const parsed = JSON.parse(text);
      const detail = parsed?.error?.message ?? parsed?.error ?? parsed?.message;
      if (typeof detail === "string") message = detail;
    } catch {
    }
    const hint = response.status === 401 || response.status === 403 ? "; check BEEUNI_TOKEN" : "";
    throw new Error(`the Beeuni API answered ${response.status} for scrape_webpage: ${message || response.statusText}${hint}`);
  }
  let result;
  try {
    result = JSON.parse(text);
  } catch {
    throw new Error(`the Beeuni API answered scrape_webpage with a body that is not JSON: "${text.slice(0, 200)}"`);
  }
  const record = result;
  if (record === null || typeof record !== "object" || typeof record.url !== "string" || typeof record.content !== "string") {
    throw new Error('the Beeuni API answered scrape_webpage without "url" and "content" strings');
  }
  return record;
}
function window(text, offset, maxLength) {
  let start = Math.min(offset, text.length);
  if (start > 0 && /[\udc00-\udfff]/.test(text[start] ?? "")) start--;
  let end = Math.min(start + maxLength, text.length);
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1] ?? "")) end--;
  return {
    content: text.slice(start, end),
    next: end < text.length ? end : null
  };
}
async function scrape(rawArgs, context) {
  const args = readArgs(rawArgs);
  const env = context.env ?? {};
  const config = readConfig(env);
  const outer = context.signal;
  if (outer?.aborted) throw outer.reason;
  const controller = new AbortController();
  const timedOut = new Error(`timed out: "${args.url.href}" did not answer in full within ${config.timeoutMs} ms; try again later or raise BEEUNI_HTTP_TIMEOUT_MS`);
  const timer = setTimeout(() => controller.abort(timedOut), config.timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, {
    once: true
  });
  const signal = controller.signal;
  try {
    if (env.BEEUNI_API_URL && env.BEEUNI_TOKEN) {
      const body = {
        url: args.url.href
      };
      const given = rawArgs;
      for (const key of [
        "format",
        "max_length",
        "offset"
      ]) {
        if (given[key] !== void 0) body[key] = given[key];
      }
      return await callApi(body, config, signal);
    }
    const page = await fetchPage(args.url, config, signal);
    let kind = textKind(page.contentType);
    if (kind === null) {
      const sniffed = sniffKind(page.bytes);
      if (sniffed === "binary") {
        throw new Error(`cannot scrape "${page.url.href}": its content is binary (content type "${page.contentType || "none"}"); scrape_webpage reads HTML, text and JSON only`);
      }
      kind = sniffed;
    }
    const decoded = decodeBody(page.bytes, page.charset, kind);
    let title = "";
    let full;
    if (kind === "html") {
      if (args.format === "html") {
        full = decoded;
        title = documentTitle(parseHtml(decoded));
      } else {
        const converted = htmlToContent(decoded, page.url, args.format === "markdown");
        title = converted.title;
        full = converted.content;
      }
    } else if (kind === "json") {
      try {
        full = JSON.stringify(JSON.parse(decoded.replace(/^\ufeff/, "")), null, 2);
      } catch {
        full = decoded;
      }
    } else {
      full = decoded.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
    }
    const { content, next } = window(full, args.offset, args.maxLength);
    return {
      url: page.url.href,
      status: page.status,
      title,
      content_type: page.contentType,
      content,
      truncated: page.truncated || next !== null,
      next_offset: next
    };
  } catch (error) {
    if (signal.aborted && signal.reason === timedOut) throw timedOut;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}
var tool = {
  description: "Fetch one web page (http or https URL) and return its readable content: Markdown for HTML pages (navigation, scripts and boilerplate dropped), plain text for text files, indented JSON for JSON. Returns the final URL after redirects, the HTTP status, the page title and the content type. Long content is cut at max_length characters; pass next_offset back as offset to read on. Private and local network addresses are refused.",
  parameters: {
    type: "object",
    properties: {
      url: {
        type: "string",
        description: "The absolute http or https URL to fetch."
      },
      format: {
        type: "string",
        enum: [
          "markdown",
          "text",
          "html"
        ],
        description: 'How to return an HTML page: "markdown" (default), "text" (plain text, no markup) or "html" (the page source). Text and JSON answers are returned as they are.'
      },
      max_length: {
        type: "integer",
        minimum: 1,
        maximum: MAX_MAX_LENGTH,
        description: `Most characters of content to return (default ${DEFAULT_MAX_LENGTH}).`
      },
      offset: {
        type: "integer",
        minimum: 0,
        description: "Characters of content to skip, to read on from a previous call's next_offset (default 0)."
      }
    },
    required: [
      "url"
    ],
    additionalProperties: false
  },
  execute: scrape
};
var scrape_webpage_default = tool;
export {
  scrape_webpage_default as default
};
