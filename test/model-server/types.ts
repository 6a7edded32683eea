/**
 * Scenario types for the scripted model server. A scenario is a list of steps; each incoming
 * `POST /v1/messages` consumes the next step. Everything except function steps and the
 * `match`/`expect` predicates is plain JSON, so scenarios can live in files for the CLI.
 */

/** A content block the scripted model replies with (wire shape, ids optional). */
export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** A server tool's call (the API's web search), streamed like a tool_use; the API, not the client, runs it. */
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  /** A server tool's result, sent whole in content_block_start (no deltas), as the API does. */
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown }

/** Usage counters a step may force; anything omitted is simulated (chars/4, prompt caching). */
export interface UsageSpec {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number
  cache_read_input_tokens?: number
}

export interface ReplySpec {
  content: ReplyBlock[]
  /** Defaults to 'tool_use' when the content has a tool_use block, else 'end_turn'. */
  stopReason?: string
  stopSequence?: string | null
  usage?: UsageSpec
  /** Model id echoed back; defaults to the request's model. */
  model?: string
  id?: string
}

export interface ErrorSpec {
  status: number
  /** Error type in the body; derived from the status when omitted. */
  type?: string
  message?: string
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number
  /** Milliseconds, sent as the `retry-after-ms` header. */
  retryAfterMs?: number
  /** Sent as `error.details.error_code` (e.g. 'enforced_spend_limit_reached'). */
  errorCode?: string
  /** Extra response headers. */
  headers?: Record<string, string>
}

/** Options any step may carry. */
export interface StepOptions {
  /** Characters per text/thinking delta (default 12). */
  chunkSize?: number
  /** Number of input_json_delta chunks per tool_use block (default 3). */
  jsonChunks?: number
  /** Milliseconds to wait between deltas, to simulate tokens per second (default 0). */
  delayMs?: number
  /** Send a `ping` event after every N deltas (default 0: only the one after message_start). */
  pingEvery?: number
  /** Free text shown in failure messages. */
  label?: string
  /**
   * Only a request for this model takes the step, and requests for other models pass over it:
   * a lane of the script for requests that run in parallel with the turn (memory recall).
   */
  forModel?: string
  /** The request must satisfy this, or the server answers 500 and records a failure. */
  match?: (request: RecordedRequest) => boolean
  /** Assertions on the request; a throw is answered with 500 and recorded as a failure. */
  expect?: (request: RecordedRequest) => void
}

export type StepAction =
  | { reply: ReplySpec }
  | { error: ErrorSpec }
  /** Streams part of `reply` (default: a short text), then an `event: error` and ends the response. */
  | { midStreamError: { type?: string; message?: string }; afterDeltas?: number; reply?: ReplySpec }
  /** `before-headers` destroys the socket at once; `mid-stream` after `afterDeltas` deltas. */
  | { drop: 'before-headers' | 'mid-stream'; afterDeltas?: number; reply?: ReplySpec }

/** A step in plain JSON form (what a scenario file holds). */
export type JsonStep = StepAction & Omit<StepOptions, 'match' | 'expect'>

/** A step: data, or a function of the request (to echo, or to compute usage). */
export type Step =
  | (StepAction & StepOptions)
  | ((request: RecordedRequest) => (StepAction & StepOptions) | Promise<StepAction & StepOptions>)

/** Simulated prompt-cache accounting for a request. */
export interface SimulatedUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

/** One request as the server saw it. */
export interface RecordedRequest {
  /** 0-based position among `POST /v1/messages` requests. */
  index: number
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON body (the Messages API params). */
  body: Record<string, unknown>
  stream: boolean
  model: string
  /** What the prompt-cache simulation computed for this request. */
  simulatedUsage: SimulatedUsage
}

/** A loud record of a scenario mismatch, an expect() throw, or an exhausted script. */
export interface ScenarioFailure {
  requestIndex: number
  message: string
}

export interface ModelServerOptions {
  scenario?: Step[]
  /** Restart the scenario from the top when it runs out (benchmarks); default false. */
  loop?: boolean
  /** Port to listen on (default 0: any free port). */
  port?: number
  /** Minimum prefix, in simulated tokens, that the cache simulation will store (default 0). */
  minCacheTokens?: number
  /**
   * The model's context window, in simulated tokens: a request whose prompt is longer is refused
   * with the API's 400 "prompt is too long" before any step is taken (counted in `overflows`).
   */
  contextWindow?: number
}
