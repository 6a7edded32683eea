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
