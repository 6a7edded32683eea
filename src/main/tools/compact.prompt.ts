/** Model-facing description of Compact. */
export default `
Summarizes the conversation so far to free room in the context window. Before your next request the whole conversation is replaced by a structured summary (requests, files, errors and fixes, current work, next step); the files you read most recently, the plan, loaded skills and open tasks are put back after it. The full history stays in the session transcript.

Use it at a natural break in long work — a milestone reached, a phase finished, before starting something unrelated — when what came before matters only in outline. Do not use it in the middle of a delicate step whose details you still need word for word. Sous also compacts on its own when the context fills up, so you rarely need this.

instructions: optional guidance for the summary (what to keep in detail, what can go).
`
