/**
 * Plain data shared by the manifest parser, the validator, the resolver, the
 * agent rules and the tool host.
 *
 * @module
 */

/** A place in a manifest file. `file` is repo-relative with `/`; line and col are 1-based. */
export interface SourcePos {
  /** Repo-relative path of the file, with `/` separators. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
}

/** How bad a diagnostic is: errors fail `beeuni validate`, warnings do not. */
export type Severity = "error" | "warning";

/** One finding of the parser or the validator. */
export interface Diagnostic extends SourcePos {
  /** `error` or `warning`. */
  severity: Severity;
  /** The rule's id, as `beeuni validate --json` prints it (`V3`, `M2`, …). */
  rule: string;
  /** The message, without position or severity. */
  message: string;
}

/** A name written in the manifest, with where it was written. */
export interface NameRef {
  /** The name as written. */
  name: string;
  /** Where it was written. */
  pos: SourcePos;
}

/** One `<name>: <value>` line under `tools:`. */
export interface ToolEntry {
  /** The key. */
  name: string;
  /** The value as parsed: a string when well formed, anything else otherwise. */
  value: unknown;
  /** Where the key is. */
  namePos: SourcePos;
  /** Where the value is (the key's position when the value is empty). */
  valuePos: SourcePos;
}

/** An entry of `imports:`. */
export interface ImportEntry {
  /** The repo-relative path as written. */
  path: string;
  /** Where it was written. */
  pos: SourcePos;
}

/** What `agents.<name>.tools` says, in one of its five forms (section 5). */
export type AgentToolsSpec =
  | { kind: "all"; pos?: SourcePos }
  | { kind: "none"; pos?: SourcePos }
  | { kind: "list"; names: NameRef[]; pos?: SourcePos }
  | { kind: "exclude"; names: NameRef[]; pos?: SourcePos }
  | {
    kind: "map";
    entries: { name: string; enabled: boolean; pos: SourcePos }[];
    pos?: SourcePos;
  };

/** One `agents.<name>` entry. */
export interface AgentEntry {
  /** The agent's name. */
  name: string;
  /** Where the agent's key is. */
  pos: SourcePos;
  /** Its tools; `{ kind: "all" }` when omitted. */
  tools: AgentToolsSpec;
  /** Its secrets: `"all"` or a list of names; `[]` when omitted. */
  secrets: "all" | NameRef[];
  /** The agent's whole mapping as parsed, other keys included. */
  raw: Record<string, unknown>;
}

/** One parsed manifest file: the root `beeuni.yaml` or an imported file. */
export interface ManifestFile {
  /** Repo-relative path with `/`. */
  path: string;
  /** Where this file was imported from; absent for the root. */
  importedFrom?: SourcePos;
  /** Whether the file has a `tools:` key, even an empty or null one. */
  hasToolsKey: boolean;
  /** Where the `tools:` key is, when present. */
  toolsKeyPos?: SourcePos;
  /** The `tools:` entries in file order. */
  tools: ToolEntry[];
  /** The `agents:` entries in file order. */
  agents: AgentEntry[];
  /** The `imports:` entries in file order. */
  imports: ImportEntry[];
  /** The `record:` settings, when the file has that key (the root manifest's are the ones read). */
  record?: RecordSettings;
}

/**
 * What the call record holds besides each call's facts (`record:` in the
 * root manifest): never arguments or outputs unless set here.
 */
export interface RecordSettings {
  /** Record each call's arguments; default false. */
  arguments?: boolean;
  /** Record each call's output, or its error message; default false. */
  outputs?: boolean;
  /** Where the `record:` key is. */
  pos?: SourcePos;
}

/** A manifest and every file it imports, parsed with positions. */
export interface Manifest {
  /** Absolute path of the repository root (the folder holding the root manifest). */
  root: string;
  /** Repo-relative path of the root manifest (usually `beeuni.yaml`). */
  manifestPath: string;
  /** The root file first, then imports in the order they were first reached. */
  files: ManifestFile[];
  /** Problems found while reading and parsing (V12). */
  diagnostics: Diagnostic[];
}

/** The kind of a tool a session gets, as `beeuni tools ls` prints it. */
export type ToolKind = "beeuni" | "beeuni (overridden)" | "project";

/** One tool of the session's tool set. */
export interface ResolvedTool {
  /** The tool's name. */
  name: string;
  /** `beeuni`, `beeuni (overridden)` or `project`. */
  kind: ToolKind;
  /** `beeuni:<name>` for a hosted Beeuni tool, the repo-relative module path otherwise. */
  source: string;
  /** Where it was declared; absent for Beeuni tools selected by having no `tools:` key. */
  declaredAt?: SourcePos;
}

/** The tools a session gets (`beeuni tools ls --json`). */
export interface ToolSet {
  /** Repo-relative path of the root manifest. */
  manifest: string;
  /** Whether any manifest file has a `tools:` key. */
  tools_key: boolean;
  /** The tools, Beeuni tools first in their canonical order, then project tools in declaration order. */
  tools: ResolvedTool[];
  /** The Beeuni tools the session does not get. */
  removed: string[];
}

/** The two harnesses. */
export type Harness = "standard" | "experimental";
