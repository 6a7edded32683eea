import type { RemoteTarget } from '../../../../shared/ipc/contract'

/** Reads `destination:/folder` as the user may paste it into the destination field. Pure. */
export function splitRemote(destination: string, folder: string): RemoteTarget | string {
  let host = destination.trim()
  let dir = folder.trim()
  const at = host.indexOf(':/')
  if (!dir && at > 0) {
    dir = host.slice(at + 1)
    host = host.slice(0, at)
  }
  if (!host) return 'Type the ssh destination (a host, user@host or an alias of ~/.ssh/config).'
  if (host.startsWith('-') || /\s/.test(host)) return 'An ssh destination has no spaces and does not start with "-".'
  if (!dir.startsWith('/')) return 'Type the absolute path of the folder on that machine (it starts with /).'
  return { destination: host, folder: dir }
}
