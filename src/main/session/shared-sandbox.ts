import { homedir } from 'node:os'
import { loadSettings } from '../governance/settings/load'
import type { BashSandboxState } from '../tools/bash-sandbox'
import type { SessionRuntimeOptions } from './runtime-options'

/**
 * The OS sandbox for Bash. The sandbox library holds one configuration per process, so it serves
 * the first project that asks; sessions of another project get "unavailable" with the reason,
 * and governance then asks before their commands (fail closed).
 */
export class SharedSandbox {
  private started: Promise<{ projectRoot: string; state: BashSandboxState; dispose(): Promise<void> } | undefined> | undefined

  constructor(
    private readonly o: SessionRuntimeOptions,
    /** Asked when a sandboxed command reaches for a host outside the allowed domains. */
    private readonly askNetwork: (host: string, port: number | undefined) => Promise<boolean>,
  ) {}

  async acquire(projectRoot: string): Promise<BashSandboxState | undefined> {
    if (this.o.sandbox === false) return undefined
    this.started ??= this.start(projectRoot)
    const running = await this.started
    if (!running) return undefined
    if (running.projectRoot !== projectRoot) {
      return { available: false, reason: `the sandbox is serving another open project (${running.projectRoot})` }
    }
    return running.state
  }

  async dispose(): Promise<void> {
    const running = await this.started
    this.started = undefined
    await running?.dispose()
  }

  private async start(projectRoot: string) {
    const settings = loadSettings(projectRoot, { sousHome: this.o.home, home: this.o.userHome ?? homedir(), cli: this.o.cliRules }).settings
    // The sandbox library is large: load it only when a command needs the sandbox.
    const { startBashSandbox } = await import('../governance/gate/gate-sandbox')
    const started = await startBashSandbox(settings, { projectRoot, sousHome: this.o.home, home: this.o.userHome, askNetwork: this.askNetwork })
    return started ? { projectRoot, ...started } : undefined
  }
}
