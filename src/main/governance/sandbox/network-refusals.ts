import { SandboxManager } from '@anthropic-ai/sandbox-runtime'

/**
 * Calls `listener` with the command id and line of every network refusal from now on, as the
 * library's proxy attributes it (the id the command's proxy username carries). Returns the
 * unsubscribe.
 */
export function networkRefusals(listener: (commandId: string, line: string) => void): () => void {
  const store = SandboxManager.getSandboxViolationStore()
  let seen = store.getTotalCount()
  return store.subscribe((violations) => {
    const total = store.getTotalCount()
    const fresh = violations.slice(Math.max(0, violations.length - (total - seen)))
    seen = total
    for (const v of fresh) {
      if (v.encodedCommand && v.line.startsWith('deny network-outbound ')) listener(Buffer.from(v.encodedCommand, 'base64').toString('utf8'), v.line)
    }
  })
}
