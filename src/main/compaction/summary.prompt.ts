/**
 * The summary request's instructions, modelled on the structure Claude Code asks for: a private
 * `<analysis>` first, then a `<summary>` in fixed sections, so what matters to continue the work
 * (requests, files, errors, the exact current step) survives compaction.
 */
export const SUMMARY_PROMPT = `Your task now is to write a detailed summary of this conversation so far, so that the work can continue from the summary alone. Reply with text only: do not call any tool (tool calls are refused in this request).

First think it through inside <analysis> tags: go through the conversation in order and note, for each part, what the user asked for and meant, what you did about it, the decisions and technical details (file paths, function signatures, code you wrote or changed, commands), the errors you hit and how you fixed them, and any feedback or correction from the user, especially where they asked you to do something differently. Note every instruction about what must not be touched or done (secrets, files, operations); those must survive word for word.

Then write the summary inside <summary> tags, with these sections:

1. Primary request and intent: everything the user asked for, in detail.
2. Key technical concepts: technologies, frameworks and conventions that matter here.
3. Files and code: each file read, changed or created, why it matters, and the important code (full snippets where they are needed to continue).
4. Errors and fixes: each error, how it was fixed, and what the user said about it.
5. Problem solving: what was solved and what is still being worked out.
6. All user messages: every message the user wrote (not tool results), in order.
7. Pending tasks: what was asked and is not done yet.
8. Current work: exactly what was being done right before this summary, with file names and code.
9. Next step: the next step, only if it follows directly from the user's latest request, quoting the latest messages so the task does not drift. If the last task was finished, say so and do not invent a new one.`

/** Appended when the user (or the model) gave instructions for this compaction. */
export function withInstructions(prompt: string, instructions: string | undefined): string {
  const focus = instructions?.trim()
  return focus ? `${prompt}\n\nAdditional instructions for this summary:\n${focus}` : prompt
}

/** The text that replaces the summarized conversation (the model reads it as the first message). */
export function summaryMessageText(summary: string, transcriptPath: string | undefined): string {
  const where = transcriptPath ? ` If you need exact details from before (code, error messages, what you wrote), the full transcript is at ${transcriptPath}.` : ''
  return `This session continues a conversation that ran out of context. The summary below covers the earlier part of it.${where}\n\n<summary>\n${summary}\n</summary>`
}

/** After an automatic compaction in the middle of a turn: the model goes on without asking. */
export const CONTINUE_NOTE = 'Continue the work from where it stopped, without asking the user anything further and without repeating finished steps.'
