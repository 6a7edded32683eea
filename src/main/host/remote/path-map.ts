/**
 * How a remote project's paths look on this side: `ssh://<destination>` before the remote's own
 * absolute path (`ssh://devbox/srv/app/src/x.ts`), so no remote path is ever taken for a local one.
 * Requests going there lose the prefix; answers and events coming back gain it, for every string
 * that is the remote folder or lies under it. Pure.
 */
export interface PathMap {
  /** `ssh://<destination>`. */
  readonly prefix: string
  /** Whether `text` is a path of this remote as the local side spells it. */
  owns(text: string): boolean
  /** A request's payload as the remote reads it. */
  toRemote<T>(value: T): T
  /** An answer or event as the local side reads it (paths under `folder` prefixed). */
  toLocal<T>(value: T): T
}

/** The prefix of a destination's paths. */
export function remotePrefix(destination: string): string {
  return `ssh://${destination}`
}

/** Builds the map for one remote project folder. */
export function createPathMap(destination: string, folder: string): PathMap {
  const prefix = remotePrefix(destination)
  const under = (text: string, root: string): boolean => text === root || text.startsWith(root.endsWith('/') ? root : `${root}/`)
  const owns = (text: string): boolean => text.startsWith(`${prefix}/`)
  return {
    prefix,
    owns,
    toRemote: (value) => mapStrings(value, (text) => (owns(text) ? text.slice(prefix.length) : text)),
    toLocal: (value) => mapStrings(value, (text) => (under(text, folder) ? `${prefix}${text}` : text)),
  }
}

/** Whether any string in `value` (deeply) passes `test`. */
export function someString(value: unknown, test: (text: string) => boolean, depth = 0): boolean {
  if (typeof value === 'string') return test(value)
  if (depth > 8 || !value || typeof value !== 'object') return false
  return Object.values(value as Record<string, unknown>).some((inner) => someString(inner, test, depth + 1))
}

function mapStrings<T>(value: T, map: (text: string) => string, depth = 0): T {
  if (typeof value === 'string') return map(value) as T
  if (depth > 32 || !value || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((inner) => mapStrings(inner, map, depth + 1)) as T
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) out[key] = mapStrings(inner, map, depth + 1)
  return out as T
}
