/**
 * What the Bash tool needs from a sandbox, without importing governance (which sits above tools).
 * Governance's `BashSandbox` satisfies {@link BashSandboxPort} as is; the host probes it at start-up
 * and hands the tool a {@link BashSandboxState}.
 */

/** Wraps a script so it runs inside the sandbox, and reports what the sandbox refused. */
export interface BashSandboxPort {
  /**
   * A shell string that runs `script` inside the sandbox (run it with `/bin/bash -c`). `commandId`
   * must be unguessable (the proxy binds network allowances to it); `toolUseId` says which call a
   * network ask belongs to.
   */
  wrap(script: string, opts: { commandId: string; commandText: string; signal?: AbortSignal; toolUseId?: string }): Promise<string>
  /** Appends a `<sandbox_violations>` block to `stderr` when the command hit the sandbox. */
  annotate(commandId: string, stderr: string): string
  /** Releases per-command resources (mount points, network allowances) after a wrapped command ended. */
  cleanup?(commandId?: string): void
}

/** The sandbox as the start-up probe found it. */
export type BashSandboxState = { available: true; sandbox: BashSandboxPort } | { available: false; reason: string }

/**
 * The sandbox, or how to get it: starting the OS sandbox costs a few hundred milliseconds, so hosts
 * pass a function and it starts on the first Bash call. `undefined` means none is configured.
 */
export type BashSandboxSource = BashSandboxState | (() => Promise<BashSandboxState | undefined>)

/** Resolves a {@link BashSandboxSource} (starting the sandbox when it is lazy). */
export async function resolveSandbox(source: BashSandboxSource | undefined): Promise<BashSandboxState | undefined> {
  return typeof source === 'function' ? source() : source
}

/** What the Bash tool reports about the sandbox in a result's details. */
export interface BashSandboxDetails {
  sandboxed: boolean
  /** Why the command ran outside the sandbox (unavailable, or dangerouslyDisableSandbox). */
  reason?: string
  /** Lines of the sandbox's `<sandbox_violations>` block, when it refused something. */
  violations?: string[]
}

/** Parses the lines of the `<sandbox_violations>` block the library appends; empty when none. */
export function violationLines(annotated: string): string[] {
  const m = /<sandbox_violations>\n?([\s\S]*?)<\/sandbox_violations>/.exec(annotated)
  if (!m) return []
  return (m[1] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
}

/**
 * What a refusal by the sandbox looks like in a command's output: a write the mount table refused
 * (EROFS, EACCES, EPERM) or a host the proxy refused or could not reach.
 */
const REFUSAL_OUTPUT = /Read-only file system|Permission denied|Operation not permitted|CONNECT tunnel failed|\b403\b|Could not resolve host|Temporary failure in name resolution|Network is unreachable/i

/**
 * Whether a failed command failed because of the sandbox: the sandbox reported refusals for it
 * and its output shows one. Either alone is not enough — the Linux monitor reports attempts
 * (including ones that changed nothing), and "Permission denied" happens outside sandboxes too.
 */
export function refusedBySandbox(output: string, violations: string[]): boolean {
  return violations.length > 0 && REFUSAL_OUTPUT.test(output)
}

/** The sandbox's report on one command, as the model reads it. */
export interface ViolationReport {
  lines: string[]
  /** The command failed because of the sandbox: retrying outside it (with approval) may be the way. */
  refusal: boolean
}

/**
 * Lines that are always news: a host the network proxy refused (the user or the allowed domains
 * said no), and a file of git's the git guard removed after the command wrote it (the command
 * "worked", but what it wrote is gone).
 */
const ALWAYS_NEWS = /\bnetwork-|\((?:removed|could not be removed):/

/**
 * Which of a command's violations the model is told about: the {@link ALWAYS_NEWS} lines, and
 * refused writes only when the command failed and its output shows the refusal — the Linux monitor
 * reports every write attempt, and most are probes a program survives.
 */
export function reportViolations(lines: string[], o: { failed: boolean; output: string }): ViolationReport {
  const news = lines.filter((line) => ALWAYS_NEWS.test(line))
  const files = lines.filter((line) => !ALWAYS_NEWS.test(line))
  const refusedFiles = o.failed && refusedBySandbox(o.output, files) ? files : []
  return { lines: [...news, ...refusedFiles], refusal: refusedFiles.length > 0 }
}
