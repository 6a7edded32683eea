import { join } from 'node:path'
import type { BashSandboxState } from '../../tools/bash-sandbox'
import { BashSandbox } from '../sandbox/bash-sandbox'
import type { MergedSettings } from '../settings/types'

/** Options of {@link startBashSandbox}. */
export interface StartSandboxOptions {
  projectRoot: string
  sousHome: string
  home?: string
  /** Asked about hosts outside the allowed domains; without it they are refused. */
  askNetwork?: (host: string, port: number | undefined) => Promise<boolean>
}

/**
 * Starts the Bash sandbox the settings ask for and proves it works (a wrapped `true` must run).
 * Returns `undefined` when the settings turn it off (`sandbox.enabled: false`), so governance does
 * not treat its absence as a failure. Contract: never throws; a broken sandbox is
 * `{available:false, reason}` and the caller shows the reason once.
 */
export async function startBashSandbox(settings: MergedSettings, o: StartSandboxOptions): Promise<{ state: BashSandboxState; dispose(): Promise<void> } | undefined> {
  if (settings.sandbox.enabled === false) return undefined
  const sb = settings.sandbox
  const started = await BashSandbox.start({
    projectRoot: o.projectRoot,
    home: o.home,
    allowedDomains: sb.allowedDomains,
    deniedDomains: sb.deniedDomains,
    denyRead: sb.denyRead,
    allowWrite: [...sb.allowWrite, ...settings.additionalDirectories],
    denyWrite: sb.denyWrite,
    // Every settings file, so a sandboxed program cannot grant itself permissions.
    protectFiles: [...settings.settingsFiles, join(o.sousHome, 'settings.json')],
    askNetwork: o.askNetwork,
  })
  if (!started.ok) return { state: { available: false, reason: started.reason }, dispose: async () => {} }
  const { sandbox } = started
  return { state: { available: true, sandbox }, dispose: () => sandbox.dispose() }
}
