/**
 * What `beeuni cr open` knows of forges: which forge a git remote belongs
 * to, the forge CLI that opens a change request there, and the page that
 * opens one by hand.
 *
 * @module
 */

/** A forge whose own CLI `beeuni cr open` runs. */
export type ForgeKind = "github" | "gitlab";

/** A git remote as `beeuni cr open` reads it. */
export interface RemoteInfo {
  /** Its name, e.g. `origin`. */
  name: string;
  /** Its URL without any user name or password, for printing. */
  url: string;
  /** The host, lower case, e.g. `github.com`; empty for a local path. */
  host: string;
  /** The repository path on the host, without `.git`, e.g. `owner/repo`. */
  path: string;
  /** The forge the host belongs to, when known. */
  forge?: ForgeKind;
}

/** How a forge's change requests are called and opened. */
export interface ForgeCli {
  /** The CLI's program name. */
  program: string;
  /** What the CLI is called in messages. */
  label: string;
  /** What the forge calls a change request. */
  noun: string;
  /** The arguments that open a change request titled `title`, without prompting. */
  args(title: string): string[];
  /** The command that shows the current branch's change request. */
  view: string;
  /** Whether `url`, printed by the CLI, is the address of a change request. */
  isRequestUrl(url: string): boolean;
}

/** The CLI of each forge. */
export const FORGE_CLIS: Record<ForgeKind, ForgeCli> = {
  github: {
    program: "gh",
    label: "gh (the GitHub CLI)",
    noun: "pull request",
    args: (title) => ["pr", "create", "--title", title, "--body", ""],
    view: "gh pr view",
    isRequestUrl: (url) => /\/pull\/\d+\/?$/.test(url),
  },
  gitlab: {
    program: "glab",
    label: "glab (the GitLab CLI)",
    noun: "merge request",
    args: (title) => [
      "mr",
      "create",
      "--title",
      title,
      "--description",
      "",
      "--yes",
    ],
    view: "glab mr view",
    isRequestUrl: (url) => /\/-\/merge_requests\/\d+\/?$/.test(url),
  },
};

function forgeOf(host: string): ForgeKind | undefined {
  if (host === "github.com" || host.startsWith("github.")) return "github";
  if (host === "gitlab.com" || host.startsWith("gitlab.")) return "gitlab";
  return undefined;
}

/**
 * Reads a remote's URL in any form git accepts (`https://…`, `ssh://…`,
 * `git@host:owner/repo.git`, a local path).
 */
export function parseRemote(name: string, rawUrl: string): RemoteInfo {
  let host = "";
  let path = "";
  let url = rawUrl;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.*)$/.exec(rawUrl);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rawUrl)) {
    try {
      const parsed = new URL(rawUrl);
      parsed.username = "";
      parsed.password = "";
      host = parsed.hostname.toLowerCase();
      path = decodeURIComponent(parsed.pathname);
      url = parsed.href;
    } catch {
      // Not a URL after all: printed as given, no forge.
    }
  } else if (scp) {
    host = scp[1].toLowerCase();
    path = scp[2];
    url = `${scp[1]}:${scp[2]}`;
  }
  path = path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/\.git$/, "");
  return { name, url, host, path, forge: host ? forgeOf(host) : undefined };
}

/** The web page that opens a change request for `branch` titled `title` by hand, when the forge is known. */
export function manualRequestUrl(
  remote: RemoteInfo,
  branch: string,
  title: string,
): string | undefined {
  const base = `https://${remote.host}/${remote.path}`;
  if (remote.forge === "github") {
    return `${base}/compare/${encodeURIComponent(branch)}?expand=1&title=${
      encodeURIComponent(title)
    }`;
  }
  if (remote.forge === "gitlab") {
    const query = new URLSearchParams({
      "merge_request[source_branch]": branch,
      "merge_request[title]": title,
    });
    return `${base}/-/merge_requests/new?${query}`;
  }
  return undefined;
}

/** The last change-request address in a forge CLI's output, if any. */
export function requestUrlIn(
  cli: ForgeCli,
  output: string,
): string | undefined {
  const urls = output.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  return urls.reverse().find((url) => cli.isRequestUrl(url));
}
