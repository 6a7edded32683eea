import type { SessionLifecycle } from './session-types'

/**
 * The hooks before a prompt reaches the model: SessionStart (`start` says which, on a session's
 * first turn only) and UserPromptSubmit. Their context is collected; a block (or `continue: false`)
 * drops the prompt with its reason. A hook that fails never stops a turn.
 */
export async function promptHookContext(lifecycle: SessionLifecycle | undefined, text: string, start: 'startup' | 'resume' | undefined): Promise<{ additional: string[] } | { blocked: string }> {
  const additional: string[] = []
  if (start) {
    const started = await lifecycle?.sessionStart?.(start).catch(() => undefined)
    if (started?.additionalContext) additional.push(started.additionalContext)
  }
  const submit = await lifecycle?.promptSubmit?.(text).catch(() => undefined)
  if (submit?.blocked) return { blocked: submit.blocked }
  // `continue: false` stops before the model is asked, like a block.
  if (submit?.stopReason !== undefined) return { blocked: submit.stopReason }
  if (submit?.additionalContext) additional.push(submit.additionalContext)
  return { additional }
}
