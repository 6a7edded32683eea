/** Options of `BashSandbox.start`. */
export interface BashSandboxOptions {
  projectRoot: string
  home?: string
  /** The Sous home: its credentials and every project's data are not readable (see `defaultDenyRead` in `credential-reads.ts`). */
  sousHome?: string
  /**
   * Folders a sandboxed command may read although a deny covers them (`sandbox.filesystem.allowRead`,
   * and the project's own tool-results folder, which the session may read anyway).
   */
  allowRead?: string[]
  /** Extra writable folders (temp dirs are always writable). */
  allowWrite?: string[]
  denyWrite?: string[]
  denyRead?: string[]
  allowedDomains?: string[]
  deniedDomains?: string[]
  /**
   * Asked for hosts in neither list; resolve true to allow, or a reason to refuse (it reaches the
   * command and its violation line). Without it, new hosts are refused.
   */
  askNetwork?: (host: string, port: number | undefined) => Promise<boolean | { allow: false; reason: string }>
  /**
   * Settings files a sandboxed command must never write (a program could otherwise grant itself
   * permissions): the project's `.claude/settings*.json` are always added; pass the user file here.
   */
  protectFiles?: string[]
  /**
   * Scripts inside the project that the obeyed hooks run (`hookScriptPaths`): read-only in the
   * sandbox, so a command cannot rewrite what a hook later runs outside it.
   */
  hookScripts?: string[]
  /** Report refused file operations on Linux too (seccomp observer); default true. */
  monitorViolations?: boolean
  /** The ripgrep the library scans for protected paths with (default: the bundled one). */
  ripgrep?: string
  /** Reuse the last command's wrap when nothing it follows from changed (`wrap-cache.ts`; default true). */
  reuseWraps?: boolean
}

/** What one wrapped command may reach beyond what its configuration says. */
export interface WrapOptions {
  commandId?: string
  commandText?: string
  signal?: AbortSignal
  /**
   * Hosts this command may connect to, registered under its `commandId` with the library's proxy
   * (`registerCommandNetworkLists`): one project's and one session's allowances never reach another's
   * commands. The id must then be unguessable (128 random bits). Release them with `BashSandbox.release`.
   */
  allowedDomains?: string[]
}
