import { openCommandPipe } from './command-transport'
import { devcontainerUp, openDevcontainerPipe, type DevcontainerPlace } from './devcontainer'
import type { OpenedPipe } from './reconnecting'
import { openSshPipe, type RemoteTarget } from './ssh'

/** How one remote is reached: an optional step before the first connection, then one pipe per (re)connection. */
export interface Transport {
  /**
   * Runs before the first connection (a dev container's `up`) and answers the project folder as
   * the host there sees it (inside a container, its workspace folder). A failure says why, with
   * an exit code.
   */
  prepare(): Promise<{ ok: true; folder: string } | { ok: false; message: string; code: number }>
  /** A fresh pipe to `sous host --stdio` there. */
  open(): OpenedPipe
}

/** Options of {@link remoteTransport}. */
export interface TransportOptions {
  /** The local environment: `SOUS_SSH`, `SOUS_DEVCONTAINER` are read from it; the credentials never reach a transport. */
  env: NodeJS.ProcessEnv
  /** Arguments after `host --stdio` (`--unattended` …). */
  hostArgs?: readonly string[]
  onStderr?: (text: string) => void
  killAfterMs?: number
}

/**
 * The transport of `target` (ssh unless it says otherwise). The protocol is the same over each:
 * a transport only yields a stdin/stdout pair to `sous host --stdio`.
 */
export function remoteTransport(target: RemoteTarget, options: TransportOptions): Transport {
  const remoteSous = target.remoteSous?.trim() || 'sous'
  const hostArgs = options.hostArgs ?? []
  const extra = { ...(options.onStderr && { onStderr: options.onStderr }), ...(options.killAfterMs !== undefined && { killAfterMs: options.killAfterMs }) }
  const transport = target.transport ?? { kind: 'ssh' }
  switch (transport.kind) {
    case 'command':
      return { prepare: ready(target.folder), open: () => openCommandPipe({ command: transport.command, name: target.destination, hostArgs, env: options.env, ...extra }) }
    case 'devcontainer': {
      const place: DevcontainerPlace = transport.local ? { local: true } : { local: false, destination: target.destination, ...(options.env['SOUS_SSH'] && { ssh: options.env['SOUS_SSH'] }) }
      const common = { place, workspaceFolder: target.folder, env: options.env }
      return { prepare: () => devcontainerUp({ ...common, ...extra }), open: () => openDevcontainerPipe({ ...common, remoteSous, hostArgs, ...extra }) }
    }
    case 'ssh':
      return { prepare: ready(target.folder), open: () => openSshPipe({ target, ssh: options.env['SOUS_SSH'], remoteSous, hostArgs, env: options.env, ...extra }) }
  }
}

function ready(folder: string): Transport['prepare'] {
  return () => Promise.resolve({ ok: true, folder })
}
