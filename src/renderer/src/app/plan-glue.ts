import { api } from '../api'
import { useFiles } from '../features/files/store'

/**
 * The shell's glue between the plan card (approvals) and the read-only viewer (files): features
 * never import each other. Reads the session's plan file through `plan.read` and shows it;
 * resolves to an error message, or null once it is on screen.
 */
export async function openPlanFile(sessionId: string): Promise<string | null> {
  const read = await api.invoke('plan.read', { sessionId })
  if (!read.ok) return `Could not open the plan file: ${read.error.message}`
  useFiles.getState().showDocument(read.value)
  return null
}
