import { api } from '../../api'

/**
 * Asks the main side to read the project's memories into its cache ahead of the browser's first
 * list (kept outside the browser's chunk: the shell calls it at idle). Failures are left to the
 * browser's own list, which reports them.
 */
export function warmMemory(projectPath: string): void {
  api.invoke('memory.warm', { projectPath }).catch(() => undefined)
}
