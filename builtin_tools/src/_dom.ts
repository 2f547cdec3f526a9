/**
 * An HTML page as a DOM: parse5 parses it as browsers do (the WHATWG tree
 * construction: implied and misnested tags, every named character
 * reference), building linkedom nodes, the DOM that Readability and
 * turndown then work on.
 *
 * @module
 */

import { parseHTML } from "linkedom/worker";
import {
  parse,
  type Token,
  type TreeAdapter,
  type TreeAdapterTypeMap,
} from "parse5";

/** The DOM node members the scraper uses; linkedom implements them. */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode> & Iterable<DomNode>;
  firstChild: DomNode | null;
  lastChild: DomNode | null;
  previousSibling: DomNode | null;
  nextSibling: DomNode | null;
  textContent: string | null;
  /** The text of a text or comment node. */
  data: string;
  appendChild(node: DomNode): DomNode;
  insertBefore(node: DomNode, before: DomNode | null): DomNode;
  removeChild(node: DomNode): DomNode;
}

/** The element members the scraper uses. */
export interface DomElement extends DomNode {
  localName: string;
  namespaceURI: string | null;
  attributes: ArrayLike<{ name: string; value: string }>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  hasAttribute(name: string): boolean;
  removeAttribute(name: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
  remove(): void;
  replaceWith(...nodes: DomNode[]): void;
}

/** The document members the scraper uses. */
export interface DomDocument extends DomNode {
  documentElement: DomElement | null;
  body: DomElement | null;
  createElement(name: string): DomElement;
  createElementNS(namespace: string, name: string): DomElement;
  createTextNode(text: string): DomNode;
  createComment(text: string): DomNode;
  createDocumentFragment(): DomNode;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
}

/** The node kinds parse5 builds, all linkedom nodes. */
type Types = TreeAdapterTypeMap<
  DomNode,
  DomNode,
  DomNode,
  DomDocument,
  DomNode,
  DomElement,
  DomNode,
  DomNode,
  DomElement,
  DomNode
>;

const HTML_NS = "http://www.w3.org/1999/xhtml";
/** Elements nested deeper than this become siblings at this depth. */
const MAX_DEPTH = 256;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;

/** An empty linkedom document to build into. */
function emptyDocument(): DomDocument {
  const window = parseHTML("<!doctype html><html></html>") as unknown as {
    document: DomDocument;
  };
  const document = window.document;
  const root = document.documentElement;
  if (root) document.removeChild(root);
  return document;
}

function setAttributes(element: DomElement, attrs: Token.Attribute[]): void {
  for (const attr of attrs) {
    const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
    if (element.hasAttribute(name)) continue;
    try {
      element.setAttribute(name, attr.value);
    } catch {
      // A name no DOM accepts (`"x"`, `a<b`): browsers keep it, the
      // readable content never needs it.
    }
  }
}

/** A parse5 tree adapter that builds the nodes of `document`. */
function linkedomAdapter(document: DomDocument): TreeAdapter<Types> {
  const templates = new WeakMap<DomElement, DomNode>();
  type Mode = ReturnType<TreeAdapter<Types>["getDocumentMode"]>;
  let mode = "no-quirks" as Mode;
  const location = (): undefined => undefined;
  // Depth below the document, so that a page nested thousands deep (which
  // would overflow the stack of the recursive steps after parsing) is
  // flattened at MAX_DEPTH.
  const depths = new WeakMap<DomNode, number>();
  const append = (parent: DomNode, node: DomNode): void => {
    const depth = (depths.get(parent) ?? 0) + 1;
    if (depth > MAX_DEPTH && parent.parentNode) {
      parent.parentNode.appendChild(node);
      depths.set(node, MAX_DEPTH);
    } else {
      parent.appendChild(node);
      depths.set(node, depth);
    }
  };
  return {
    createDocument: () => document,
    createDocumentFragment: () => document.createDocumentFragment(),
    createElement(tagName, namespaceURI, attrs) {
      const element = namespaceURI === HTML_NS
        ? document.createElement(tagName)
        : document.createElementNS(namespaceURI, tagName);
      setAttributes(element, attrs);
      return element;
    },
    createCommentNode: (data) => document.createComment(data),
    createTextNode: (value) => document.createTextNode(value),
    appendChild: append,
    insertBefore: (parent, node, before) =>
      void parent.insertBefore(node, before),
    setTemplateContent: (template, content) =>
      void templates.set(template, content),
    getTemplateContent(template) {
      let content = templates.get(template);
      if (!content) {
        content = document.createDocumentFragment();
        templates.set(template, content);
      }
      return content;
    },
    setDocumentType() {},
    setDocumentMode: (_document, value) => void (mode = value),
    getDocumentMode: () => mode,
    detachNode: (node) => void node.parentNode?.removeChild(node),
    insertText(parent, text) {
      const last = parent.lastChild;
      if (last?.nodeType === TEXT_NODE) last.data += text;
      else append(parent, document.createTextNode(text));
    },
    insertTextBefore(parent, text, before) {
      const previous = before.previousSibling;
      if (previous?.nodeType === TEXT_NODE) previous.data += text;
      else parent.insertBefore(document.createTextNode(text), before);
    },
    adoptAttributes: setAttributes,
    getFirstChild: (node) => node.firstChild,
    getChildNodes: (node) => Array.from(node.childNodes),
    getParentNode: (node) => node.parentNode,
    getAttrList: (element) =>
      Array.from(element.attributes, ({ name, value }) => ({ name, value })),
    getTagName: (element) => element.localName,
    getNamespaceURI: (element) =>
      (element.namespaceURI ?? HTML_NS) as ReturnType<
        TreeAdapter<Types>["getNamespaceURI"]
      >,
    getTextNodeContent: (node) => node.data,
    getCommentNodeContent: (node) => node.data,
    getDocumentTypeNodeName: () => "html",
    getDocumentTypeNodePublicId: () => "",
    getDocumentTypeNodeSystemId: () => "",
    isTextNode: (node): node is DomNode => node.nodeType === TEXT_NODE,
    isCommentNode: (node): node is DomNode => node.nodeType === COMMENT_NODE,
    isDocumentTypeNode: (node): node is DomNode => node.nodeType === 10,
    isElementNode: (node): node is DomElement => node.nodeType === 1,
    setNodeSourceCodeLocation: location,
    getNodeSourceCodeLocation: location,
    updateNodeSourceCodeLocation: location,
  };
}

/** Parses an HTML page as browsers do, into a linkedom document. */
export function parseDocument(html: string): DomDocument {
  const document = emptyDocument();
  return parse(html, { treeAdapter: linkedomAdapter(document) });
}

/** The elements below `root` that match `selectors`, as an array. */
export function all(
  root: DomDocument | DomElement,
  selectors: string,
): DomElement[] {
  return Array.from(root.querySelectorAll(selectors));
}
