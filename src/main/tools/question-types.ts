/** AskUserQuestion's shapes, shared by the tool, the tool context and the runtime that asks. */

/** One AskUserQuestion question, in Claude Code's shape. */
export interface UserQuestion {
  question: string
  header: string
  options: Array<{ label: string; description: string; preview?: string }>
  multiSelect: boolean
}

/** How a set of questions ended: answers keyed by question text (multi-select answers comma-separated). */
export type QuestionOutcome =
  | { outcome: 'answered'; answers: Record<string, string>; annotations?: Record<string, { notes?: string }> }
  | { outcome: 'declined'; message: string }
  /** Nobody can answer here (`sous -p`). */
  | { outcome: 'unattended' }

/** Asking the user questions through the session's approvals (see runtime/questions.ts). */
export interface UserQuestions {
  /** False where nobody answers (`sous -p`): the tool is not offered there. */
  readonly attended: boolean
  ask(questions: UserQuestion[], toolUseId: string, signal: AbortSignal): Promise<QuestionOutcome>
}

/** What a web search side request found (WebSearch's capability; services/model/web-search.ts). */
export interface WebSearchResults {
  results: Array<string | { tool_use_id: string; content: Array<{ title: string; url: string }> }>
  searches: number
}

/** Tool context capabilities of this file's tools (ToolContext extends it). */
export interface UserChannels {
  /** AskUserQuestion's line to the user (runtime/questions.ts). */
  questions?: UserQuestions
  /** WebSearch's side request (services/model/web-search.ts). */
  webSearch?(query: { query: string; allowedDomains?: string[]; blockedDomains?: string[]; signal: AbortSignal }): Promise<WebSearchResults>
}
