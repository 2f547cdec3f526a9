/**
 * Agent tokens: bearer tokens a daemon accepts beside its own, each acting
 * only as the agents it was made for. The project's tokens live in one JSON
 * file, `$XDG_STATE_HOME/beeuni/tokens/<sha256 of the project root>.json`
 * (`~/.local/state` when `XDG_STATE_HOME` is unset), file mode 0600,
 * always written atomically while holding the secret store's lock, so that
 * concurrent `tokens new` runs lose no update. The file holds each token's
 * SHA-256 hash, never the token.
 *
 * A token is `bt_` and 32 random bytes in base64url (46 characters), so
 * that a secret scanner can tell it.
 *
 * @module
 */

import { createHash, randomBytes } from "node:crypto";
import { type FSWatcher, readFileSync, statSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import {
  canonicalRoot,
  type Env,
  isPlainObject,
  projectKey,
  removeTempsOf,
  secretEqual,
  stateDir,
  withFileLock,
  writeFileAtomic,
} from "../common/mod.ts";
import { secretsFile } from "./secret_store.ts";

/** What every agent token starts with. */
export const AGENT_TOKEN_PREFIX = "bt_";

/** One stored agent token: everything but the token itself. */
export interface AgentTokenRecord {
  /** Its name within the project, unique. */
  label: string;
  /** The agents it acts as, first the one it acts as when a request names none. */
  agents: string[];
  /** The SHA-256 of the token, hex. */
  hash: string;
  /** When it was made, ISO 8601. */
  created: string;
  /** When it stops working, ISO 8601; `null` for never. */
  expires: string | null;
  /** When a daemon last accepted it, ISO 8601; `null` for never. */
  lastUsed: string | null;
}

interface TokensFile {
  root: string;
  tokens: AgentTokenRecord[];
}

/**
 * The agent token file of the project at `root`:
 * `<stateDir>/tokens/<projectKey(root)>.json`.
 *
 * @returns The absolute path of the file, which may not exist yet.
 */
export function agentTokensFile(root: string, env: Env): string {
  return join(stateDir(env), "tokens", `${projectKey(root)}.json`);
}

/** The SHA-256 of `token`, hex: what the file keeps of it. */
export function hashAgentToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The token file cannot be read: unreadable, not JSON, or no `tokens` list. */
export class AgentTokensError extends Error {
  /** Always `"AgentTokensError"`. */
  override name = "AgentTokensError";
}

function isRecord(value: unknown): value is AgentTokenRecord {
  if (!isPlainObject(value)) return false;
  const { label, agents, hash, created, expires, lastUsed } = value;
  return typeof label === "string" && Array.isArray(agents) &&
    agents.length > 0 && agents.every((a) => typeof a === "string") &&
    typeof hash === "string" && /^[0-9a-f]{64}$/.test(hash) &&
    typeof created === "string" &&
    (expires === null || typeof expires === "string") &&
    (lastUsed === null || typeof lastUsed === "string");
}

/** The records in the file at `path`; none when it does not exist. */
function readTokens(path: string): AgentTokenRecord[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return [];
    throw new AgentTokensError(
      `cannot read agent token file "${path}": ${code ?? "unreadable"}`,
      { cause: error },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const tokens = (data as Partial<TokensFile> | undefined)?.tokens;
  if (!Array.isArray(tokens)) {
    throw new AgentTokensError(
      `cannot read agent token file "${path}": no "tokens" list (fix or delete the file; deleting it revokes every agent token)`,
    );
  }
  return tokens.filter(isRecord);
}

/**
 * Reads the tokens, lets `change` edit them, and writes them back when it
 * returns true, all under the secret store's lock. Temporary files of the
 * token file are removed first: every writer holds the lock while its own
 * exists.
 */
function updateTokens<T>(
  root: string,
  env: Env,
  change: (tokens: AgentTokenRecord[]) => { write: boolean; result: T },
): Promise<T> {
  const path = agentTokensFile(root, env);
  return withFileLock(secretsFile(root, env), () => {
    removeTempsOf(path);
    const tokens = readTokens(path);
    const { write, result } = change(tokens);
    if (write) {
      const data: TokensFile = { root: canonicalRoot(root), tokens };
      writeFileAtomic(path, JSON.stringify(data, null, 2) + "\n");
    }
    return result;
  });
}

/** What a label must look like: letters, digits, `.`, `_` and `-`, at most 64. */
const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * What is wrong with `label` as an agent token's label.
 *
 * @returns What a label may hold, when `label` is not such, or `undefined`
 * when it is well formed.
 */
export function agentTokenLabelProblem(label: string): string | undefined {
  return LABEL_PATTERN.test(label)
    ? undefined
    : `use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)`;
}

/** Options of {@linkcode createAgentToken}. */
export interface NewAgentToken {
  /** The agents it acts as (at least one), the first by default. */
  agents: string[];
  /** Its label; default `token-<n>`, the lowest free. */
  label?: string;
  /** How long it works, in milliseconds; forever when absent. */
  expiresInMs?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/**
 * Makes a new agent token for the project at `root` and stores its hash.
 *
 * @returns The token (shown once: only its hash is kept), its record and
 * the file.
 * @throws {RangeError} When the label is malformed or taken, or no agent
 * is given.
 * @throws {AgentTokensError} When the file cannot be read.
 */
export async function createAgentToken(
  root: string,
  env: Env,
  options: NewAgentToken,
): Promise<{ token: string; record: AgentTokenRecord; path: string }> {
  if (options.agents.length === 0) {
    throw new RangeError("an agent token needs at least one agent");
  }
  const label = options.label;
  const problem = label === undefined
    ? undefined
    : agentTokenLabelProblem(label);
  if (problem !== undefined) {
    throw new RangeError(`invalid label "${label}": ${problem}`);
  }
  const token = AGENT_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const now = (options.now ?? Date.now)();
  const record = await updateTokens(root, env, (tokens) => {
    const taken = new Set(tokens.map((t) => t.label));
    if (label !== undefined && taken.has(label)) {
      throw new RangeError(
        `a token labelled "${label}" exists already: pick another --label, or remove it first with \`beeuni tokens rm ${label}\``,
      );
    }
    let n = 1;
    while (taken.has(`token-${n}`)) n++;
    const made: AgentTokenRecord = {
      label: label ?? `token-${n}`,
      agents: [...new Set(options.agents)],
      hash: hashAgentToken(token),
      created: new Date(now).toISOString(),
      expires: options.expiresInMs === undefined
        ? null
        : new Date(now + options.expiresInMs).toISOString(),
      lastUsed: null,
    };
    tokens.push(made);
    return { write: true, result: made };
  });
  return { token, record, path: agentTokensFile(root, env) };
}

/**
 * The project's agent tokens, as stored (hashes, never tokens).
 *
 * @throws {AgentTokensError} When the file cannot be read.
 */
export function listAgentTokens(root: string, env: Env): AgentTokenRecord[] {
  return readTokens(agentTokensFile(root, env));
}

/**
 * Removes the token labelled `label`; a daemon refuses it from its next
 * request on.
 *
 * @returns A promise of the labels left when none is `label` (nothing
 * removed), or `undefined` once it is removed.
 */
export function removeAgentToken(
  root: string,
  env: Env,
  label: string,
): Promise<string[] | undefined> {
  return updateTokens(root, env, (tokens) => {
    const index = tokens.findIndex((t) => t.label === label);
    if (index === -1) {
      return { write: false, result: tokens.map((t) => t.label) };
    }
    tokens.splice(index, 1);
    return { write: true, result: undefined };
  });
}

/** Units of {@linkcode parseDuration}, in milliseconds. */
const UNITS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * A duration written as a positive whole number and one unit: `s`
 * (seconds), `m` (minutes), `h` (hours), `d` (days) or `w` (weeks), e.g.
 * `30m`, `12h`, `7d`, `1w`.
 *
 * @returns Milliseconds, or `undefined` when `text` is not such a duration
 * (or is over ten years).
 */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})([smhdw])$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNITS[match[2]];
  return ms > 10 * 366 * UNITS.d ? undefined : ms;
}

/** Whom an agent token makes a request act as. */
export interface AgentTokenHolder {
  /** The token's label. */
  label: string;
  /** Its agents, the default first. */
  agents: string[];
  /** Its hash, hex: which token this is, should the label be used again. */
  hash: string;
}

/** Who waits for a token to go, and the timer of its expiry. */
interface Watcher {
  holder: AgentTokenHolder;
  gone: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

/** How long the last use of a token is kept in memory before it is written: one minute. */
const USE_WRITE_MS = 60_000;

/** Options of {@linkcode AgentTokenVerifier}. */
export interface AgentTokenVerifierOptions {
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Receives a line when the file cannot be read or a last use cannot be written (never a token). */
  log?: (line: string) => void;
}

const encoder = new TextEncoder();

/**
 * What a daemon checks agent tokens with: the project's token file, read
 * again whenever it changed (its size, modification time or inode differ
 * from when it was read), so a new token works and a removed one fails
 * from the next request on; {@linkcode watch} tells an open stream when its
 * token goes. Each token's last use is kept in memory and
 * written at most once a minute, and by {@linkcode close}.
 */
export class AgentTokenVerifier {
  /** What every agent token starts with. */
  readonly prefix: string = AGENT_TOKEN_PREFIX;
  #root: string;
  #env: Env;
  #path: string;
  #now: () => number;
  #log: (line: string) => void;
  #seen = "";
  #tokens: { record: AgentTokenRecord; hash: Uint8Array }[] = [];
  #used = new Map<string, string>();
  #written = new Map<string, number>();
  #writing: Promise<void> = Promise.resolve();
  #watchers = new Set<Watcher>();
  #folder: FSWatcher | undefined;

  /** A verifier of the tokens of the project at `root`. */
  constructor(root: string, env: Env, options: AgentTokenVerifierOptions = {}) {
    this.#root = root;
    this.#env = env;
    this.#path = agentTokensFile(root, env);
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? (() => {});
  }

  /** The tokens as the file holds them now. */
  #current(): { record: AgentTokenRecord; hash: Uint8Array }[] {
    let stamp: string;
    try {
      const info = statSync(this.#path);
      stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch {
      stamp = "missing";
    }
    if (stamp === this.#seen) return this.#tokens;
    try {
      this.#tokens = readTokens(this.#path).map((record) => ({
        record,
        hash: encoder.encode(record.hash),
      }));
    } catch (error) {
      // Refuse every agent token until the file reads again.
      this.#log(`[tokens] ${(error as Error).message}`);
      this.#tokens = [];
    }
    this.#seen = stamp;
    return this.#tokens;
  }

  /**
   * Whom `token` acts as: its holder when it is a stored agent token that
   * has not expired, else `undefined`. Compares hashes in constant time.
   */
  verify(token: string): AgentTokenHolder | undefined {
    if (!token.startsWith(AGENT_TOKEN_PREFIX)) return undefined;
    const given = encoder.encode(hashAgentToken(token));
    let found: AgentTokenRecord | undefined;
    for (const { record, hash } of this.#current()) {
      if (secretEqual(given, hash)) found = record;
    }
    if (found === undefined || this.#expired(found)) return undefined;
    this.#markUsed(found.label);
    return { label: found.label, agents: found.agents, hash: found.hash };
  }

  /** Whether the token `holder` came from is still stored and unexpired. */
  holds(holder: AgentTokenHolder): boolean {
    const record = this.#live(holder);
    if (record === undefined) return false;
    this.#markUsed(record.label);
    return true;
  }

  /** The record of `holder`'s token while it is stored and unexpired. */
  #live(holder: AgentTokenHolder): AgentTokenRecord | undefined {
    const record = this.#current().find((t) => t.record.hash === holder.hash)
      ?.record;
    return record === undefined || this.#expired(record) ? undefined : record;
  }

  /**
   * Calls `gone` once, as soon as the token `holder` came from is removed
   * (the token file's folder is watched while anyone listens) or expires
   * (a timer set for its expiry). An open stream ends with it.
   *
   * @returns What stops listening; `gone` is not called after it.
   */
  watch(holder: AgentTokenHolder, gone: () => void): () => void {
    const watcher: Watcher = { holder, gone };
    if (this.#live(holder) === undefined) {
      queueMicrotask(gone);
      return () => {};
    }
    this.#watchers.add(watcher);
    this.#watchFolder();
    this.#arm(watcher);
    return () => this.#unwatch(watcher);
  }

  /** Watches the token file's folder (the file is replaced on each write). */
  #watchFolder(): void {
    if (this.#folder !== undefined) return;
    try {
      this.#folder = watch(dirname(this.#path), { persistent: false }, () => {
        for (const watcher of this.#watchers) this.#check(watcher);
      });
      this.#folder.on("error", () => this.#checkAll());
    } catch (error) {
      // Streams still check the token before each event they send.
      this.#log(
        `[tokens] cannot watch the agent token file: ${
          (error as Error).message
        }`,
      );
    }
  }

  /** Sets a timer for `watcher`'s token's expiry (re-set past the longest timer). */
  #arm(watcher: Watcher): void {
    const expires = this.#live(watcher.holder)?.expires ?? null;
    if (expires === null) return;
    const wait = Math.max(0, Date.parse(expires) - this.#now());
    watcher.timer = setTimeout(() => {
      watcher.timer = undefined;
      if (this.#check(watcher)) this.#arm(watcher);
    }, Math.min(wait, 2 ** 31 - 1));
  }

  /** Whether `watcher`'s token is live; when not, it is told, once. */
  #check(watcher: Watcher): boolean {
    if (!this.#watchers.has(watcher)) return false;
    if (this.#live(watcher.holder) !== undefined) return true;
    this.#unwatch(watcher);
    watcher.gone();
    return false;
  }

  /** When the folder cannot be watched any longer: every watcher checks, and watching restarts. */
  #checkAll(): void {
    this.#folder?.close();
    this.#folder = undefined;
    for (const watcher of this.#watchers) this.#check(watcher);
    if (this.#watchers.size > 0) this.#watchFolder();
  }

  #unwatch(watcher: Watcher): void {
    clearTimeout(watcher.timer);
    this.#watchers.delete(watcher);
    if (this.#watchers.size === 0) {
      this.#folder?.close();
      this.#folder = undefined;
    }
  }

  #expired(record: AgentTokenRecord): boolean {
    return record.expires !== null &&
      Date.parse(record.expires) <= this.#now();
  }

  #markUsed(label: string): void {
    const now = this.#now();
    this.#used.set(label, new Date(now).toISOString());
    if (now - (this.#written.get(label) ?? -Infinity) < USE_WRITE_MS) return;
    this.#written.set(label, now);
    void this.#write();
  }

  /** Writes the last uses kept in memory; a failure is logged, never thrown. */
  #write(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (this.#used.size === 0) return;
      const used = new Map(this.#used);
      this.#used.clear();
      try {
        await updateTokens(this.#root, this.#env, (tokens) => {
          let write = false;
          for (const token of tokens) {
            const at = used.get(token.label);
            if (at !== undefined && (token.lastUsed ?? "") < at) {
              token.lastUsed = at;
              write = true;
            }
          }
          return { write, result: undefined };
        });
      } catch (error) {
        this.#log(
          `[tokens] cannot record when agent tokens were last used: ${
            (error as Error).message
          }`,
        );
      }
    });
    return this.#writing;
  }

  /** Stops watching, and writes the last uses still in memory. */
  close(): Promise<void> {
    for (const watcher of this.#watchers) this.#unwatch(watcher);
    return this.#write();
  }
}
