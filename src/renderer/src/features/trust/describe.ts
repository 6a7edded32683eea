import type { TrustStatus } from '../../../../shared/ipc/contract'

/** Plain names of the parts of a project's configuration that changed since it was trusted. */
export function describeChanged(changed: TrustStatus['changed']): string {
  const names = {
    settings: 'its settings',
    mcp: 'its MCP servers (.mcp.json)',
    extensions: 'its agents, skills or commands',
  } as const
  const parts = changed.map((part) => names[part])
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

/** The folder's last path segment, for the dialog's title. */
export function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path
}
