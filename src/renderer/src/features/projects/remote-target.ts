import type { RemoteTarget, RemoteTransport } from '../../../../shared/ipc/contract'

/** The ways in the form offers: ssh, a dev container (there or here), a command typed now, or one of the user's named commands. */
export type WayIn = 'ssh' | 'devcontainer' | 'devcontainer-local' | 'command' | `named:${string}`

/** What the form holds. */
export interface RemoteForm {
  way: WayIn
  destination: string
  folder: string
  command: string
  /** The user's named commands (preferences' `remoteTransports`). */
  named: ReadonlyArray<{ name: string; command: string }>
}

/**
 * The form as a target, or what to fix. `destination:/folder` may be pasted into the first field.
 * With a command the first field is only a name; a dev container here needs none. Pure.
 */
export function remoteTargetOf(form: RemoteForm): RemoteTarget | string {
  let host = form.destination.trim()
  let dir = form.folder.trim()
  const at = host.indexOf(':/')
  if (!dir && at > 0) {
    dir = host.slice(at + 1)
    host = host.slice(0, at)
  }
  if (form.way === 'devcontainer-local') {
    if (!dir.startsWith('/')) return 'Type the absolute path of the workspace folder (the one with .devcontainer/).'
    return { destination: 'devcontainer', folder: dir, transport: { kind: 'devcontainer', local: true } }
  }
  const named = form.way.startsWith('named:') ? form.named.find((entry) => `named:${entry.name}` === form.way) : undefined
  if (named) host ||= named.name
  if (!host) return form.way === 'command' ? 'Type a name for this remote (it is shown in the tab).' : 'Type the ssh destination (a host, user@host or an alias of ~/.ssh/config).'
  if (host.startsWith('-') || /\s/.test(host)) return 'A destination or name has no spaces and does not start with "-".'
  if (!dir.startsWith('/')) return 'Type the absolute path of the folder on that machine (it starts with /).'
  const transport: RemoteTransport | undefined = named
    ? { kind: 'command', command: named.command }
    : form.way === 'command'
      ? form.command.trim()
        ? { kind: 'command', command: form.command.trim() }
        : undefined
      : form.way === 'devcontainer'
        ? { kind: 'devcontainer' }
        : { kind: 'ssh' }
  if (!transport) return 'Type the command that reaches Sous there (e.g. kubectl exec -i mypod -- sous).'
  return { destination: host, folder: dir, ...(transport.kind !== 'ssh' && { transport }) }
}

/** How a recent remote is described in the list. Pure. */
export function describeWay(transport: RemoteTransport | undefined): string {
  if (!transport || transport.kind === 'ssh') return 'ssh'
  if (transport.kind === 'devcontainer') return transport.local ? 'dev container here' : 'dev container over ssh'
  return `command: ${transport.command}`
}

/** Reads `destination:/folder` as the user may paste it into the destination field (ssh). Pure. */
export function splitRemote(destination: string, folder: string): RemoteTarget | string {
  return remoteTargetOf({ way: 'ssh', destination, folder, command: '', named: [] })
}
