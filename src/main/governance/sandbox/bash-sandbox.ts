import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { ripgrepCommand } from '../../base/ripgrep'

/** Files and folders a sandboxed command may never read (credentials). */
export function defaultDenyRead(home: string): string[] {
  return ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.netrc', '.azure', '.config/gh', '.password-store'].map((p) => join(home, p))
}

/**
 * Files and folders inside the project a sandboxed command may not write: Claude Code's mandatory
 * denies (shell start-up files, git hooks and config, editor folders, agent definitions) and the
 * project's settings files.
 */
export function projectDenies(root: string): string[] {
  const files = ['.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.gitconfig', '.gitmodules', '.ripgreprc', '.mcp.json']
  const dirs = ['.vscode', '.idea', '.claude/commands', '.claude/agents', '.git/hooks', '.git/config']
  const settings = ['.claude/settings.json', '.claude/settings.local.json']
  return [...files, ...dirs, ...settings].map((p) => join(root, p))
}

/** Options of {@link BashSandbox.start}. */
export interface BashSandboxOptions {
  projectRoot: string
  home?: string
  /** Extra writable folders (temp dirs are always writable). */
  allowWrite?: string[]
  denyWrite?: string[]
  denyRead?: string[]
  allowedDomains?: string[]
  deniedDomains?: string[]
  /** Asked for hosts in neither list; resolve true to allow. Without it, new hosts are refused. */
  askNetwork?: (host: string, port: number | undefined) => Promise<boolean>
  /**
   * Settings files a sandboxed command must never write (a program could otherwise grant itself
   * permissions): the project's `.claude/settings*.json` are always added; pass the user file here.
   */
  protectFiles?: string[]
  /** Report refused file operations on Linux too (seccomp observer); default true. */
  monitorViolations?: boolean
  /** The ripgrep the library scans for protected paths with (default: the bundled one). */
  ripgrep?: string
}

/**
 * Devices bubblewrap's `--dev /dev` makes writable in every sandbox. The library's Linux monitor
 * reports every write *attempt* outside the writable set it knows, and it does not know these: bash
 * opens its terminal read-write at start-up (`check_dev_tty`), which under a PTY is the
 * `/dev/console` bwrap binds the terminal to, so every command "violated" the sandbox although
 * nothing was refused. The leading space anchors each pattern to the start of the reported path
 * (the library matches substrings of `deny <syscall> <path>`).
 */
export const PERMITTED_DEVICE_WRITES = [' /dev/console', ' /dev/pts/', ' /dev/ptmx', ' /dev/tty', ' /dev/null', ' /dev/zero', ' /dev/full', ' /dev/random', ' /dev/urandom', ' /dev/shm/', ' /dev/fd/', ' /dev/std']

export type SandboxStart = { ok: true; sandbox: BashSandbox } | { ok: false; reason: string }

/**
 * Runs Bash commands inside @anthropic-ai/sandbox-runtime (bubblewrap on Linux, Seatbelt on macOS):
 * writes only to the project and temp dirs, credential folders hidden, network only through the
 * library's proxy to allowed domains. The library keeps one global configuration per process, so
 * only one BashSandbox may be started at a time.
 */
export class BashSandbox {
  private constructor(readonly config: SandboxRuntimeConfig) {}

  /** Builds the runtime configuration (exported for inspection and tests). */
  static configFor(o: BashSandboxOptions): SandboxRuntimeConfig {
    const home = o.home ?? homedir()
    const root = resolve(o.projectRoot)
    // A folder that is not yet a repository gets .git write-protected: a sandboxed `git init` plus
    // a hook would otherwise run unsandboxed the next time the user runs git (REFERENCE 3.3 item 6).
    const gitGuard = existsSync(join(root, '.git')) ? [] : [join(root, '.git')]
    return {
      network: { allowedDomains: o.allowedDomains ?? [], deniedDomains: o.deniedDomains ?? [] },
      filesystem: {
        denyRead: [...defaultDenyRead(home), ...(o.denyRead ?? [])],
        allowWrite: [root, tmpdir(), '/tmp', ...(o.allowWrite ?? [])],
        // The library's own mandatory denies are relative to process.cwd(), not the project.
        denyWrite: [...gitGuard, ...projectDenies(root), ...(o.protectFiles ?? []), ...(o.denyWrite ?? [])],
      },
      ignoreViolations: { '*': PERMITTED_DEVICE_WRITES },
      ...(o.ripgrep ? { ripgrep: { command: o.ripgrep } } : {}),
    } as SandboxRuntimeConfig
  }

  /**
   * Initializes the library and probes it by actually running a wrapped `true` (its dependency
   * check misses absent user namespaces). Contract: never throws; an unusable sandbox comes back
   * as `{ok:false, reason}` ("sandbox unavailable: …").
   */
  static async start(o: BashSandboxOptions): Promise<SandboxStart> {
    if (!SandboxManager.isSupportedPlatform()) return { ok: false, reason: `sandbox unavailable: platform ${process.platform} is not supported` }
    const ripgrep = o.ripgrep ?? (await ripgrepCommand())
    const deps = SandboxManager.checkDependencies({ command: ripgrep })
    if (deps.errors.length > 0) return { ok: false, reason: `sandbox unavailable: ${deps.errors.join('; ')}` }
    const config = BashSandbox.configFor({ ...o, ripgrep })
    try {
      await SandboxManager.initialize(
        config,
        async ({ host, port }) => {
          if (!o.askNetwork) return { allow: false, reason: 'not in the allowed domains' }
          return (await o.askNetwork(host, port)) ? true : { allow: false, reason: 'user denied' }
        },
        o.monitorViolations ?? true,
      )
    } catch (e) {
      return { ok: false, reason: `sandbox unavailable: ${(e as Error).message}` }
    }
    const sandbox = new BashSandbox(config)
    const probe = await sandbox.run('true', { cwd: o.projectRoot, timeoutMs: 30_000 })
    if (probe.exitCode !== 0) {
      await SandboxManager.reset().catch(() => undefined)
      return { ok: false, reason: `sandbox unavailable: probe failed (exit ${probe.exitCode}): ${probe.stderr.trim().split('\n').slice(-2).join(' ')}` }
    }
    return { ok: true, sandbox }
  }

  /**
   * The shell string that runs `command` inside the sandbox (run it with `/bin/bash -c`).
   * `commandText` is what violations are attributed to (the user's command when `command` is a wrapper script).
   */
  wrap(command: string, opts: { commandId?: string; commandText?: string; signal?: AbortSignal } = {}): Promise<string> {
    return SandboxManager.wrapWithSandbox(command, undefined, undefined, opts.signal, { commandId: opts.commandId ?? command, commandText: opts.commandText ?? command })
  }

  /** Releases per-command mount points; call once after each wrapped command ended. */
  cleanup(): void {
    SandboxManager.cleanupAfterCommand()
  }

  /** Appends a `<sandbox_violations>` block to stderr when the command hit the sandbox. */
  annotate(commandId: string, stderr: string): string {
    return SandboxManager.annotateStderrWithSandboxFailures(commandId, stderr)
  }

  /**
   * Convenience runner (tests, probes): wraps, runs with bash, collects output, annotates stderr.
   * The Bash tool runs the wrapped string in its own PTY instead.
   */
  async run(command: string, o: { cwd: string; timeoutMs?: number; commandId?: string }): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
    const commandId = o.commandId ?? `${command}#${Math.random().toString(36).slice(2)}`
    let wrapped: string
    try {
      wrapped = await this.wrap(command, { commandId })
    } catch (e) {
      return { exitCode: null, stdout: '', stderr: `sandbox could not wrap the command: ${(e as Error).message}` }
    }
    const result = await new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn('/bin/bash', ['-c', wrapped], { cwd: o.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL')
        } catch {
          // gone
        }
      }, o.timeoutMs ?? 120_000)
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      child.on('error', (e) => {
        clearTimeout(timer)
        done({ exitCode: null, stdout, stderr: `${stderr}${e.message}` })
      })
      child.on('close', (code) => {
        clearTimeout(timer)
        done({ exitCode: code, stdout, stderr })
      })
    })
    this.cleanup()
    return { ...result, stderr: this.annotate(commandId, result.stderr) }
  }

  /** Stops the proxies and forgets the configuration. */
  async dispose(): Promise<void> {
    await SandboxManager.reset()
  }
}
