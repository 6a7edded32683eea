import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './ask-user-question.prompt'
import type { QuestionOutcome, UserQuestion } from './question-types'

const option = z.strictObject({
  label: z.string().describe('The display text for this option that the user will see and select. Should be concise (1-5 words) and clearly describe the choice.'),
  description: z.string().describe('Explanation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications.'),
  preview: z.string().optional().describe('Optional preview content rendered when this option is focused. Use for mockups, code snippets, or visual comparisons that help users compare options.'),
})

const question = z.strictObject({
  question: z.string().describe('The complete question to ask the user. Should be clear, specific, and end with a question mark. Example: "Which library should we use for date formatting?" If multiSelect is true, phrase it accordingly, e.g. "Which features do you want to enable?"'),
  header: z.string().describe('Very short label displayed as a chip/tag (max 12 chars). Examples: "Auth method", "Library", "Approach".'),
  options: z.array(option).min(2).max(4).describe("The available choices for this question. Must have 2-4 options. Each option should be a distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other' option, that will be provided automatically."),
  multiSelect: z.boolean().describe('Set to true to allow the user to select multiple options instead of just one. Use when choices are not mutually exclusive.'),
})

// Claude Code 2.1.328's input (sdk-tools.d.ts): `answers`, `annotations` and `metadata` are filled by its permission component; accepted here and ignored.
const input = z.strictObject({
  questions: z.array(question).min(1).max(4).describe('Questions to ask the user (1-4 questions)'),
  answers: z.record(z.string(), z.string()).optional().describe('User answers collected by the permission component'),
  annotations: z.record(z.string(), z.object({ preview: z.string().optional(), notes: z.string().optional() })).optional().describe('Optional per-question annotations from the user (e.g., notes on preview selections). Keyed by question text.'),
  metadata: z.object({ source: z.string().optional() }).optional().describe('Optional metadata for tracking and analytics purposes. Not displayed to user.'),
})

/** Claude Code's refusal where nobody can answer (its `-p` does not offer the tool at all). */
export const NO_ONE_TO_ASK = '<tool_use_error>Error: No such tool available: AskUserQuestion. AskUserQuestion is disabled for this session, in subagents as well as here.</tool_use_error>'

/**
 * AskUserQuestion: puts 1–4 multiple-choice questions to the user as a card (through the session's
 * approvals, like a plan) and returns the answers in Claude Code's wording.
 */
export const askUserQuestionTool = defineTool({
  name: 'AskUserQuestion',
  label: 'Ask you',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  // The question is the ask: governance lets it through (deny rules and hooks still apply) and the tool asks.
  isBookkeeping: () => true,
  summarize: (args) => args.questions[0]?.header ?? 'Question',
  validate: async (args) => {
    const texts = args.questions.map((q) => q.question)
    if (new Set(texts).size !== texts.length) return 'Question texts must be unique (the answers are keyed by them).'
    for (const q of args.questions) {
      const labels = q.options.map((o) => o.label)
      if (new Set(labels).size !== labels.length) return `Option labels must be unique within a question ("${q.question}").`
    }
    return undefined
  },
  async execute(args, ctx) {
    if (!ctx.questions?.attended) return { content: NO_ONE_TO_ASK, isError: true }
    const outcome = await ctx.questions.ask(args.questions, ctx.toolUseId, ctx.signal)
    return { ...resultFor(args.questions, outcome), details: { questions: args.questions, ...outcome } }
  },
})

/** The tool result as Claude Code words it (its mapToolResultToToolResultBlockParam). */
export function resultFor(questions: readonly UserQuestion[], outcome: QuestionOutcome): { content: string; isError?: boolean } {
  if (outcome.outcome === 'unattended') return { content: NO_ONE_TO_ASK, isError: true }
  if (outcome.outcome === 'declined') return { content: outcome.message, isError: true }
  const parts = questions.flatMap((q) => {
    const answer = outcome.answers[q.question]
    const notes = outcome.annotations?.[q.question]?.notes
    if (!answer && !notes) return []
    return [[answer ? `"${q.question}"="${answer}"` : `"${q.question}"=(no option selected)`, ...(notes ? [`notes: ${notes}`] : [])].join(' ')]
  })
  if (parts.length === 0) return { content: 'The user did not answer the questions.' }
  const joined = parts.join(', ')
  const byOptions = questions.every((q) => {
    const answer = outcome.answers[q.question]
    if (outcome.annotations?.[q.question]?.notes) return false
    if (!answer) return true
    const labels = new Set(q.options.map((o) => o.label))
    return labels.has(answer) || (q.multiSelect && answer.split(', ').every((part) => labels.has(part)))
  })
  return {
    content: byOptions
      ? `Your questions have been answered: ${joined}. You can now continue with these answers in mind.`
      : `The user answered: ${joined}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`,
  }
}
