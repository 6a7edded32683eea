/**
 * Short summaries of long-running tool calls, by the small model, for the tool card while the call
 * runs. Off the critical path: nothing waits for a summary, and the call's result never depends on
 * one. Contract: never throws; at most one request per call; a request still out when the call ends
 * is aborted and its answer dropped; a failing or missing small model changes nothing.
 */

/**
 * How long a call runs before a summary is asked for. Most calls end within a few seconds, where a
 * summary would arrive after the result and only cost money; past about seven seconds the card has
 * shown "Running" long enough that a line on what the call is doing helps.
 */
export const TOOL_SUMMARY_AFTER_MS = 7_000

/** The longest summary the card shows (the small model is asked for a few words; a longer answer is cut). */
export const TOOL_SUMMARY_MAX_CHARS = 120

/** What the small model is told about the running call. */
export interface CallSummaryRequest {
  toolName: string
  /** The tool's own one-line summary of its input ("npm test"). */
  summary: string
  input: unknown
  /** The tail of the call's progress output so far (may be empty). */
  progress: string
  elapsedMs: number
}

/** Asks the small model for one short line about a running call (rejects when it cannot). */
export type SummarizeCall = (request: CallSummaryRequest, signal: AbortSignal) => Promise<string>

/** Options of {@link watchLongCall}. */
export interface LongCallWatch {
  summarize: SummarizeCall
  afterMs: number
  /** The call as it stands when the timer fires. */
  request(elapsedMs: number): CallSummaryRequest
  /** A summary arrived while the call still runs. */
  emit(summary: string): void
}

/**
 * Starts the one timer of a call; the function it returns stops it (call it when the call ends):
 * no summary is emitted after that.
 */
export function watchLongCall(o: LongCallWatch): () => void {
  const started = Date.now()
  const controller = new AbortController()
  let ended = false
  const timer = setTimeout(() => {
    void o
      .summarize(o.request(Date.now() - started), controller.signal)
      .then((text) => {
        const line = oneLine(text)
        if (!ended && line) o.emit(line)
      })
      // Silently: a summary is a nicety, and the call's card already says it runs.
      .catch(() => undefined)
  }, o.afterMs)
  // The timer alone never keeps a process alive.
  timer.unref?.()
  return () => {
    ended = true
    clearTimeout(timer)
    controller.abort()
  }
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  return line.length > TOOL_SUMMARY_MAX_CHARS ? `${line.slice(0, TOOL_SUMMARY_MAX_CHARS - 1)}…` : line
}
