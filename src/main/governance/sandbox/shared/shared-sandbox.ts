import { homedir } from 'node:os'
import type { SettingsWatch } from '../../gate/gate-settings'
import type { BashSandbox } from '../bash-sandbox'
import type { BashSandboxPort, BashSandboxState } from '../../../tools/bash-sandbox'
import type { NetworkAsks } from './network-asks'
import type { LoadSettingsOptions } from '../../settings/load'

/** What the shared sandbox needs from its host (the runtime passes its options, trust resolved). */
export interface SharedSandboxOptions {
  /** `$SOUS_HOME`. */
  home: string
  /** Where the user's `~` is (tests). */
  userHome?: string
  /** `false`: the host turned the sandbox off. */
  sandbox?: boolean
  /** `--allowedTools` / `--disallowedTools`. */
  cliRules?: LoadSettingsOptions['cli']
  /** Whether a project's own settings wait for the user's trust. */
  projectTrust: 'check' | 'assume'
}

/** The library, started once for the process. */
type Library = { ok: true; sandbox: BashSandbox; stop(): Promise<void> } | { ok: false; reason: string }

/**
 * The OS sandbox for Bash, for every open project. The sandbox library holds one proxy and one
 * configuration per process; it is started once (on the first Bash call), and each command then
 * goes with its own project's configuration (`customConfig`): its folder and extra directories
 * writable, its settings' denies, the hosts its project and session allow. So two projects open in
 * one window are each confined to themselves. Each project's settings are read as they are now
 * (trusted view), so trusting a folder or editing its sandbox settings applies to the next command.
 */
export class SharedSandbox {
  private library: Promise<Library> | undefined
  private readonly watches = new Map<string, SettingsWatch>()
  private readonly projects = new Map<string, { version: number; sandbox: BashSandbox; allowed: string[] }>()
  private stopRefusals: (() => void) | undefined

  constructor(
    private readonly o: SharedSandboxOptions,
    private readonly network: NetworkAsks,
  ) {}

  /**
   * The sandbox for one session's commands in `projectRoot`; `undefined` when sandboxing is off
   * (the host's option, or `sandbox.enabled: false` in settings the user trusts). Contract: never
   * throws; a sandbox that cannot start is `{available: false, reason}`.
   */
  async acquire(projectRoot: string, sessionId: string): Promise<BashSandboxState | undefined> {
    if (this.o.sandbox === false) return undefined
    const watch = await this.watch(projectRoot)
    const settings = watch.current()
    if (settings.sandbox.enabled === false) return undefined
    const library = await (this.library ??= this.start(projectRoot))
    if (!library.ok) return { available: false, reason: library.reason }
    const project = await this.project(projectRoot, watch)
    library.sandbox.denyDomains(settings.sandbox.deniedDomains)
    return { available: true, sandbox: this.port(project.sandbox, project.allowed, sessionId) }
  }

  async dispose(): Promise<void> {
    const library = await this.library
    this.library = undefined
    this.stopRefusals?.()
    this.projects.clear()
    if (library?.ok) await library.stop()
  }

  /** One session's commands in one project: its configuration, its hosts, its asks. */
  private port(sandbox: BashSandbox, projectHosts: string[], sessionId: string): BashSandboxPort {
    const network = this.network
    const hostsFor = (granted: string[]) => [...projectHosts, ...granted]
    return {
      async wrap(script, opts) {
        network.begin(opts.commandId, { sessionId, toolUseId: opts.toolUseId, allow: (hosts) => sandbox.allowHosts(opts.commandId, hostsFor(hosts)) })
        try {
          return await sandbox.wrap(script, { ...opts, allowedDomains: hostsFor(network.grants(sessionId)) })
        } catch (error) {
          network.end(opts.commandId)
          throw error
        }
      },
      annotate: (commandId, stderr) => sandbox.annotate(commandId, stderr),
      cleanup(commandId) {
        if (commandId) {
          network.end(commandId)
          sandbox.release(commandId)
        }
        sandbox.cleanup(commandId)
      },
    }
  }

  private async start(projectRoot: string): Promise<Library> {
    const settings = (await this.watch(projectRoot)).current()
    // The sandbox library is large: load it only when a command needs the sandbox.
    const { startBashSandbox } = await import('../../gate/gate-sandbox')
    // No host is allowed process-wide: each command carries its own project's and session's hosts.
    const started = await startBashSandbox(
      { ...settings, sandbox: { ...settings.sandbox, enabled: true, allowedDomains: [] } },
      { projectRoot, sousHome: this.o.home, home: this.o.userHome, askNetwork: (host, port) => this.network.ask(host, port) },
    )
    if (!started || !started.state.available) return { ok: false, reason: started?.state.available === false ? started.state.reason : 'sandbox unavailable' }
    const sandbox = started.state.sandbox as BashSandbox
    this.stopRefusals = sandbox.onNetworkRefused((commandId, line) => this.network.refused(commandId, line))
    return { ok: true, sandbox, stop: () => started.dispose() }
  }

  /** The project's sandbox, rebuilt when its settings changed. */
  private async project(projectRoot: string, watch: SettingsWatch): Promise<{ sandbox: BashSandbox; allowed: string[] }> {
    const settings = watch.current()
    const known = this.projects.get(projectRoot)
    if (known && known.version === watch.version) return known
    const [{ BashSandbox }, { sandboxOptionsFor }] = await Promise.all([import('../bash-sandbox'), import('../../gate/gate-sandbox')])
    const options = sandboxOptionsFor(settings, { projectRoot, sousHome: this.o.home, home: this.o.userHome })
    const entry = { version: watch.version, sandbox: BashSandbox.forProject(options), allowed: options.allowedDomains ?? [] }
    this.projects.set(projectRoot, entry)
    return entry
  }

  /** The project's settings as the sandbox needs them, re-read only when a file changed. */
  private async watch(projectRoot: string): Promise<SettingsWatch> {
    let watch = this.watches.get(projectRoot)
    if (!watch) {
      const { SettingsWatch } = await import('../../gate/gate-settings')
      watch = new SettingsWatch(projectRoot, { sousHome: this.o.home, home: this.o.userHome ?? homedir(), cli: this.o.cliRules, projectTrust: this.o.projectTrust })
      this.watches.set(projectRoot, watch)
    }
    return watch
  }
}
