import { pathFromFileUri, type DropData } from '../../lib/drop'

/** Every path a drop carries: located files first (desktop), then `file://` URIs. */
export function droppedPaths(data: DropData, pathForFile: (file: File) => string | undefined): string[] {
  const paths: string[] = []
  for (let index = 0; index < data.files.length; index++) {
    const file = data.files[index]
    const path = file ? pathForFile(file) : undefined
    if (path) paths.push(path)
  }
  let uris = ''
  try {
    uris = data.getData('text/uri-list') ?? ''
  } catch {
    uris = ''
  }
  for (const line of uris.split(/\r?\n/)) {
    const entry = line.trim()
    if (!entry || entry.startsWith('#')) continue
    const path = pathFromFileUri(entry)
    if (path && !paths.includes(path)) paths.push(path)
  }
  return paths
}

/**
 * `@path` mentions for dropped files and folders: relative to the project when inside it,
 * absolute otherwise; a path with spaces is quoted. Joined with spaces.
 */
export function mentionsFor(paths: readonly string[], projectPath: string): string {
  const root = projectPath.replace(/[\\/]+$/, '')
  return paths
    .map((path) => {
      const inside = path === root ? '.' : path.startsWith(`${root}/`) || path.startsWith(`${root}\\`) ? path.slice(root.length + 1) : path
      return /\s/.test(inside) ? `@"${inside}"` : `@${inside}`
    })
    .join(' ')
}
