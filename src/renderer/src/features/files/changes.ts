import type { FileChange } from '../../../../shared/ipc/contract'

/**
 * The project-relative paths the agent changed, plus every folder above them, so the tree can
 * mark a collapsed folder that holds a change. Changes outside the project are left out. Pure.
 */
export function changedPaths(
  changes: readonly FileChange[],
  root: string,
): { files: Set<string>; folders: Set<string> } {
  const files = new Set<string>()
  const folders = new Set<string>()
  for (const change of changes) {
    if (!change.path.startsWith(`${root}/`)) continue
    const rel = change.path.slice(root.length + 1)
    files.add(rel)
    const parts = rel.split('/')
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'))
  }
  return { files, folders }
}

/** How a unified-diff line is shown: added, removed, a hunk header, a file header, or context. Pure. */
export function diffLineKind(line: string): 'add' | 'del' | 'hunk' | 'file' | 'context' {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('===') || line.startsWith('Index:'))
    return 'file'
  if (line.startsWith('@@')) return 'hunk'
  if (line.startsWith('+')) return 'add'
  if (line.startsWith('-')) return 'del'
  return 'context'
}
