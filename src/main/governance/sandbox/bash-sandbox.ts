import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { ripgrepCommand } from '../../base/ripgrep'
import { initializeLibrary, resetLibrary } from './bridge-watch'
import { gitWriteDenies } from './git-denies'
import { GitControlGuard } from './git-guard'
import { defaultDenyRead } from './credential-reads'
import { PERMITTED_DEVICE_WRITES } from './device-writes'
import { networkRefusals } from './network-refusals'
import { libraryCwdDenies, libraryDenies, LIBRARY_SCAN_DEPTH } from './library-denies'
import { PlaceholderScope, projectProtection, protect } from './project-protection'
import { journalPlaceholdersIn } from './placeholders'
import { runCollected, type CollectedRun } from './run-collected'
import { sandboxToolPaths } from './tool-paths'
import { WrapCache } from './wrap-cache'
import { linkedWorktreeGitDirs } from './worktree-git-dirs'
import type { BashSandboxOptions, WrapOptions } from './sandbox-options'

export type { BashSandboxOptions, WrapOptions } from './sandbox-options'

/** What {@link BashSandbox.start} gives: a working sandbox, or why there is none. */
export type SandboxStart = { ok: true; sandbox: BashSandbox } | { ok: false; reason: string }

/**
 * Runs Bash commands inside @anthropic-ai/sandbox-runtime (bubblewrap on Linux, Seatbelt on macOS):
 * writes only to the project and temp dirs, credential folders hidden, network only through the
 * library's proxy to allowed domains. The library keeps one configuration and one proxy per
 * process; {@link start} sets it up once, and every project gets its own instance
 * ({@link forProject}) whose configuration goes with each of its commands (`customConfig`), so
 * each project's commands are confined to that project.
 */
export class BashSandbox {
  private readonly guard: GitControlGuard
  /** Each wrapped command's placeholder folders, released when it ends. */
  private readonly placeholders = new Map<string, PlaceholderScope>()
  private readonly wraps: WrapCache

  private constructor(
    readonly config: SandboxRuntimeConfig,
    private readonly projectRoot: string,
    private readonly protection: Pick<BashSandboxOptions, 'home' | 'protectFiles' | 'hookScripts' | 'denyWrite' | 'reuseWraps'> = {},
  ) {
    this.guard = new GitControlGuard(projectRoot)
    this.wraps = new WrapCache(protection.reuseWraps ?? true)
  }

  /**
   * Another project's sandbox over the library {@link start} set up (no second proxy, no second
   * probe). Its own allowed domains are not global: pass them per command (`allowedDomains`).
   */
  static forProject(o: BashSandboxOptions): BashSandbox {
    return new BashSandbox(BashSandbox.configFor(o), resolve(o.projectRoot), o)
  }

  /**
   * Builds the runtime configuration (exported for inspection and tests). What depends on which
   * files exist (git's own files, the project's configuration, placeholders for absent ones) is
   * not in it: {@link commandConfig} adds it when each command is wrapped.
   */
  static configFor(o: BashSandboxOptions): SandboxRuntimeConfig {
    const home = o.home ?? homedir()
    const root = resolve(o.projectRoot)
    return {
      network: { allowedDomains: o.allowedDomains ?? [], deniedDomains: o.deniedDomains ?? [] },
      filesystem: {
        denyRead: [...defaultDenyRead(home, o.sousHome), ...(o.denyRead ?? [])],
        allowRead: o.allowRead ?? [],
        // Once each: tmpdir() is mostly /tmp, and the library binds every entry. A linked worktree's git folders, so git works there.
        allowWrite: [...new Set([root, tmpdir(), '/tmp', ...linkedWorktreeGitDirs(root), ...(o.allowWrite ?? [])])],
        // What exists now (the violation monitor's view); each command gets its own set (commandConfig).
        denyWrite: [...(o.protectFiles ?? []).flatMap((file) => protect(file, false)), ...(o.denyWrite ?? [])],
      },
      ignoreViolations: { '*': PERMITTED_DEVICE_WRITES },
      // Its scan of the process's working directory (often `/` or a home folder) at its least: the project's share of it is Sous's own.
      mandatoryDenySearchDepth: LIBRARY_SCAN_DEPTH,
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
    const config = { ...BashSandbox.configFor({ ...o, ripgrep }), ...sandboxToolPaths() }
    try {
      await initializeLibrary(
        config,
        async ({ host, port }) => {
          if (!o.askNetwork) return { allow: false, reason: 'not in the allowed domains' }
          const answer = await o.askNetwork(host, port)
          return answer === true ? true : answer === false ? { allow: false, reason: 'user denied' } : answer
        },
        o.monitorViolations ?? true,
      )
    } catch (e) {
      return { ok: false, reason: `sandbox unavailable: ${(e as Error).message}` }
    }
    // Placeholders a crashed Sous left in projects go now; this process's are kept in the journal.
    if (o.sousHome) journalPlaceholdersIn(join(o.sousHome, 'sandbox'))
    const sandbox = new BashSandbox(config, resolve(o.projectRoot), o)
    const probe = await sandbox.run('true', { cwd: o.projectRoot, timeoutMs: 30_000 })
    if (probe.exitCode !== 0) {
      await resetLibrary().catch(() => undefined)
      return { ok: false, reason: `sandbox unavailable: probe failed (exit ${probe.exitCode}): ${probe.stderr.trim().split('\n').slice(-2).join(' ')}` }
    }
    return { ok: true, sandbox }
  }

  /**
   * The shell string that runs `command` inside the sandbox (run it with `/bin/bash -c`), with this
   * project's configuration. `commandText` is what violations are attributed to (the user's
   * command when `command` is a wrapper script). The last command's wrap serves when nothing it
   * follows from changed (`wrap-cache.ts`).
   */
  async wrap(command: string, opts: WrapOptions = {}): Promise<string> {
    const commandId = opts.commandId ?? command
    if (opts.allowedDomains) SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: opts.allowedDomains })
    let wrapped: string
    const scope = this.scopeFor(commandId)
    try {
      wrapped = await this.wraps.wrap(command, this.commandConfig(scope), { commandId, commandText: opts.commandText ?? command, signal: opts.signal })
    } catch (error) {
      SandboxManager.unregisterCommandNetworkLists(commandId)
      this.releasePlaceholders(commandId)
      throw error
    }
    this.guard.begin()
    return wrapped
  }

  /**
   * The configuration one command goes with: this project's filesystem policy plus, as the files
   * are now, git's own files, the files trusted configuration runs or loads, and the settings
   * files (see `project-protection.ts` for why no placeholder is a file); and a network section
   * with no allowance of its own (the proxy is used; hosts come from the per-command list).
   * `placeholders` holds the folders that stand in for absent protected paths (see
   * `project-protection.ts`); without it (inspection) nothing is made on disk.
   */
  commandConfig(placeholders?: PlaceholderScope): SandboxRuntimeConfig {
    const filesystem = this.config.filesystem
    const writable = this.writableRoots()
    const home = this.protection.home ?? homedir()
    const denies = [
      // The library's own mandatory denies are relative to process.cwd(), not the project: Sous computes them for the project root
      // (`library-denies.ts`), and names the working directory's first when that is in this project, so an absent one gets no file
      // placeholder. Not elsewhere: a folder made there (a shared temp dir) would be seen, bound and then removed under another
      // Sous process's command.
      ...libraryDenies(this.projectRoot, placeholders),
      ...libraryCwdDenies([this.projectRoot], placeholders),
      ...projectProtection(this.projectRoot, { home, writableRoots: writable, hookScripts: this.protection.hookScripts, placeholders }),
      // A settings file that is not there yet cannot be created either (headless, the project's own is obeyed without a trust check);
      // the settings loader reads the empty folder standing in for it as no file.
      ...(this.protection.protectFiles ?? []).flatMap((file) => protect(file, true, placeholders, true)),
      ...(this.protection.denyWrite ?? []),
      ...gitWriteDenies(this.projectRoot, placeholders, home),
    ]
    placeholders?.keep(denies)
    return {
      ...this.config,
      network: { ...this.config.network, allowedDomains: [] },
      filesystem: { ...filesystem, denyWrite: [...new Set(denies)] },
    }
  }

  private writableRoots(): string[] {
    return this.config.filesystem.allowWrite.map((entry) => (typeof entry === 'string' ? entry : entry.path))
  }

  private scopeFor(commandId: string): PlaceholderScope {
    this.releasePlaceholders(commandId)
    const scope = new PlaceholderScope(this.writableRoots(), this.projectRoot)
    this.placeholders.set(commandId, scope)
    return scope
  }

  private releasePlaceholders(commandId: string): void {
    this.placeholders.get(commandId)?.release()
    this.placeholders.delete(commandId)
  }

  /** Replaces the per-command allowed hosts of a command still running (a host allowed meanwhile). */
  allowHosts(commandId: string, allowedDomains: string[]): void {
    SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains })
  }

  /** Forgets a command's allowed hosts and gives back its placeholder folders; call when it ended (or never started). */
  release(commandId: string): void {
    SandboxManager.unregisterCommandNetworkLists(commandId)
    this.releasePlaceholders(commandId)
    this.wraps.left(commandId)
  }

  /** Releases per-command mount points (and, given its id, the command's placeholder folders); call once after each wrapped command ended. */
  cleanup(commandId?: string): void {
    if (commandId) this.releasePlaceholders(commandId)
    // A reused wrap was never counted by the library: its cleanup would end another command's count.
    if (commandId === undefined || this.wraps.ended(commandId)) SandboxManager.cleanupAfterCommand()
    this.guard.end()
  }

  /**
   * Domains refused to every command from now on (the library's deny list is process-wide, and a
   * per-command allowance never overrides it). Growing only: one project's denied domain is denied
   * to all, which can only restrict.
   */
  denyDomains(domains: readonly string[]): void {
    const current = SandboxManager.getConfig()
    if (!current) return
    const denied = current.network.deniedDomains
    const added = domains.filter((domain) => !denied.includes(domain))
    if (added.length === 0) return
    SandboxManager.updateConfig({ ...current, network: { ...current.network, deniedDomains: [...denied, ...added] } })
  }

  /** Calls `listener` with the command id and line of every network refusal from now on (see {@link networkRefusals}). Returns the unsubscribe. */
  onNetworkRefused(listener: (commandId: string, line: string) => void): () => void {
    return networkRefusals(listener)
  }

  /** Appends a `<sandbox_violations>` block to stderr when the command hit the sandbox (or the git guard removed what it wrote). */
  annotate(commandId: string, stderr: string): string {
    const annotated = SandboxManager.annotateStderrWithSandboxFailures(commandId, stderr)
    const guarded = this.guard.takeReports()
    if (guarded.length === 0) return annotated
    const lines = guarded.join('\n')
    return annotated.includes('</sandbox_violations>') ? annotated.replace('</sandbox_violations>', `${lines}\n</sandbox_violations>`) : `${annotated}\n<sandbox_violations>\n${lines}\n</sandbox_violations>`
  }

  /**
   * Convenience runner (tests, probes): wraps, runs with bash, collects output, annotates stderr.
   * The Bash tool runs the wrapped string in its own PTY instead.
   */
  async run(command: string, o: { cwd: string; timeoutMs?: number; commandId?: string }): Promise<CollectedRun> {
    const commandId = o.commandId ?? `${command}#${Math.random().toString(36).slice(2)}`
    let wrapped: string
    try {
      wrapped = await this.wrap(command, { commandId })
    } catch (e) {
      return { exitCode: null, stdout: '', stderr: `sandbox could not wrap the command: ${(e as Error).message}` }
    }
    const result = await runCollected(wrapped, o.cwd, o.timeoutMs ?? 120_000)
    this.cleanup(commandId)
    return { ...result, stderr: this.annotate(commandId, result.stderr) }
  }

  /** Stops the proxies and forgets the configuration. */
  async dispose(): Promise<void> {
    await resetLibrary()
  }
}
