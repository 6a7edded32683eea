/** The opening tag a fork's directive message starts with (the recursion guard also looks for it). */
export const FORK_TAG = '<fork-directive>'

/**
 * The user message text a fork gets after its copy of the parent's conversation. Everything before
 * it is the parent's request, byte for byte, so the fork reads that prefix from the prompt cache.
 */
export function forkDirective(directive: string): string {
  return `${FORK_TAG}
You are a fork: a copy of the agent whose conversation is above, started to do one piece of work while it goes on with the rest. The Agent call just above is the one that started you.
- Do only the directive below, with your tools. Do not start agents: a fork cannot.
- Do not redo or second-guess what the conversation already settled.
- Files may have changed since the split: the agent that forked you goes on working, and other agents may too. Read a file again before you edit it, and do not trust what the conversation above quoted of it.
- Your final message goes back to the agent that forked you (not to the user): report what you did or found, with paths as path/to/file.ts:42, and anything left undone. Be concise.

Directive:
${directive}
</fork-directive>`
}

/** What each tool call of the parent's last reply shows in a fork's copy (the calls run in the parent, not here). */
export const FORK_PLACEHOLDER = 'Started: it runs in the parent agent; this fork does not wait for it.'
