/**
 * What a fetched body is and how to read it: its media type, whether it is
 * HTML, JSON, text or binary (sniffed when unlabelled), and its character
 * set, decoded as browsers do.
 *
 * @module
 */

/** The media type and charset of a `Content-Type` header. */
export function parseContentType(
  header: string,
): { type: string; charset: string | null } {
  const [type, ...params] = header.split(";");
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param);
    if (match) charset = match[1];
  }
  return { type: type.trim().toLowerCase(), charset };
}

/** How a body is returned: as HTML, JSON or text. */
export type Kind = "html" | "json" | "text";

/** The kind of a media type, or null when it is none of the three. */
export function textKind(type: string): Kind | null {
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (
    type === "application/json" || type.endsWith("+json") ||
    type === "text/json"
  ) return "json";
  if (type.startsWith("text/") || type.endsWith("+xml")) return "text";
  if (
    [
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
      "application/x-httpd-php",
    ].includes(type)
  ) return "text";
  return null;
}

/** Whether a media type is refused before its body is read. */
export function binaryType(type: string): boolean {
  if (textKind(type) !== null) return false;
  // Unlabelled or generic bodies are sniffed after reading.
  return type !== "application/octet-stream" && type !== "unknown/unknown";
}

/** The kind of an unlabelled body, from its first bytes. */
export function sniffKind(bytes: Uint8Array): Kind | "binary" {
  const head = bytes.subarray(0, 1024);
  const starts = (...sig: number[]): boolean =>
    sig.every((byte, i) => head[i] === byte);
  if (
    starts(0x25, 0x50, 0x44, 0x46) || starts(0x89, 0x50, 0x4e, 0x47) ||
    starts(0x47, 0x49, 0x46, 0x38) || starts(0xff, 0xd8, 0xff) ||
    starts(0x50, 0x4b, 0x03, 0x04) || starts(0x1f, 0x8b)
  ) return "binary";
  const utf16 = starts(0xff, 0xfe) || starts(0xfe, 0xff);
  if (!utf16 && head.includes(0)) return "binary";
  const text = new TextDecoder("windows-1252").decode(head).trimStart()
    .toLowerCase();
  if (
    /^(\ufeff|ï»¿)?\s*<(!doctype html|html|head|body|meta|title|!--)/.test(
      text,
    )
  ) return "html";
  if (/^(\ufeff|ï»¿)?\s*[{[]/.test(text)) return "json";
  return "text";
}

// ---------------------------------------------------------------------------
// Character sets

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim());
  } catch {
    return null;
  }
}

function metaCharset(bytes: Uint8Array, kind: Kind): string | null {
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

/** The body as text, in the character set it declares or shows. */
export function decodeBody(
  bytes: Uint8Array,
  headerCharset: string | null,
  kind: Kind,
): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder("utf-8").decode(bytes);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder("utf-16le").decode(bytes);
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder("utf-16be").decode(bytes);
  }
  const fromHeader = decoderFor(headerCharset);
  if (fromHeader) return fromHeader.decode(bytes);
  if (kind === "json") return new TextDecoder("utf-8").decode(bytes);
  const declared = metaCharset(bytes, kind);
  let fromMeta = decoderFor(declared);
  // A page cannot declare a UTF-16 charset from inside itself.
  if (fromMeta && fromMeta.encoding.startsWith("utf-16")) {
    fromMeta = new TextDecoder("utf-8");
  }
  if (fromMeta) return fromMeta.decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // A cut at the size cap may split the last character.
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(
        bytes.subarray(0, Math.max(0, bytes.length - 3)),
      ) + new TextDecoder("utf-8").decode(bytes.subarray(bytes.length - 3));
    } catch {
      return new TextDecoder("windows-1252").decode(bytes);
    }
  }
}
