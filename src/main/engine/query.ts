import type { AgentEvent, Usage } from '../../shared/protocol/agent-event'
import { toolResultsDir } from '../base/paths'
import { abortableSleep } from '../base/sleep'
import { withCacheTtl, withMessageBreakpoints } from '../context/cache-breakpoints'
import type { RequestShape } from '../compaction/types'
import { ReminderQueue, withReminders } from '../context/reminders'
import type { Message, ModelRequest, ToolSchema } from '../services/model/types'
import type { AnyTool } from '../tools/types'
import { callOrigin } from './call-origin'
import { assistantMessage, lastText, stamp } from './events'
import { budgetResults } from './result-budget'
import { streamReply, type ReplyOutcome } from './stream-reply'
import { ToolView, toolSchemas } from './tool-view'
import { requestReasoning } from '../services/model/capabilities'
import type { GuardVerdict } from './guard'
import { maxTokensStep } from './transitions/max-tokens'
import { compactAfterOverflow, tooLong } from './transitions/prompt-too-long'
import { stopHookRound } from './transitions/stop-hook'
import { streamRetryDelay } from './transitions/stream-retry'
import { budgetContinuation } from './transitions/token-budget'
import { aborted, finish, isReissue, proceed, type Transition } from './transitions/transition'
import { addUsage, zeroUsage } from './usage'
import type { EventBody, QueryParams, QueryResult } from './types'

/**
 * The agent loop: stream a reply → run its tool calls → append → repeat, until the model stops
 * asking for tools or a terminal reason ends the run. Every step returns a {@link Transition}: why
 * the loop goes on (`next_turn`, `stream_retry`, `max_tokens_recovery`…) or why it ends. Recovery
 * paths live in `transitions/`.
 *
 * Contract: yields AgentEvents and returns how the run ended; never throws for model or tool
 * failures. Every tool_use it appends is followed by exactly one tool_result. It does not close
 * the turn: whoever runs it emits the `turn_end` ({@link turnEnd} in run.ts) — the session's
 * `turn()` for the main agent, `runSubagent` for a subagent.
 */
export async function* query(params: QueryParams): AsyncGenerator<AgentEvent, QueryResult> {
  const loop = new LoopState(params)
  const tools = new ToolView(params, loop.reminders, (model) => {
    loop.modelName = model
  })
  // Before the first request there is no transition yet: it counts as a turn like `next_turn`.
  let transition: Transition | undefined
  for (;;) {
    const end = yield* beforeRequest(loop, params, transition)
    if (end) {
      transition = end
      break
    }
    loop.tools = tools.refresh(loop.messages)
    loop.schemas = tools.schemas
    const request = yield* stamped(prepareRequest(loop, params, tools.schemas), params)
    const verdict = await askGuard(params, request)
    if (verdict.kind === 'stop') {
      transition = { kind: 'end', reason: verdict.reason, message: verdict.message }
      break
    }
    if (verdict.kind === 'again') {
      transition = proceed('guard_retry')
      continue
    }
    const outcome = yield* stamped(streamReply(params.model, request, tools.deps, callOrigin(request, loop.lastSent?.messages ?? loop.messages)), params)
    transition = outcome.kind === 'error' ? yield* onError(loop, params, outcome) : yield* onMessage(loop, params, outcome)
    if (transition.kind === 'end') break
  }
  return loop.result(transition)
}

/** The guard's verdict on a request about to go out; a guard that throws lets it go. */
async function askGuard(params: QueryParams, request: ModelRequest): Promise<GuardVerdict> {
  if (!params.guard) return { kind: 'go' }
  const verdict = await params.guard.beforeRequest(request).catch((): GuardVerdict => ({ kind: 'go' }))
  if (params.signal.aborted) return { kind: 'go' } // the stream sees the abort and ends the run as aborted
  return verdict
}

/** How a run ended. */
type End = Extract<Transition, { kind: 'end' }>

/** Mutable bookkeeping of one run. */
class LoopState {
  messages: Message[]
  /** The tools the current request offered (for the result budget's per-tool limits). */
  tools: AnyTool[]
  schemas: ToolSchema[] = [] // as the current request sent them (deferred ones marked), for compaction's request
  turns = 0
  /** Requests allowed before asking (or stopping); grows by `maxTurns` each time the user says go on. */
  turnLimit: number
  /** The model to ask; an inline skill's `model` or the fallback model (once the service switched) for the rest of the run. */
  modelName: string
  continuations = 0
  streamRetries = 0
  compactTried = false
  /** What the next request sends, when an overflow already decided it (the reactive retry). */
  pendingSend: Message[] | undefined
  /** What the last request sent: its length in the conversation and the messages themselves. */
  lastSent: { length: number; messages: Message[] } | undefined
  stopHookForced = false
  /** Output tokens spent when the token budget last kept the turn going. */
  budgetNudgedAt: number | undefined
  usage: Usage = zeroUsage()
  costUsd = 0
  readonly reminders: ReminderQueue

  constructor(private readonly params: QueryParams) {
    this.reminders = params.reminders ?? new ReminderQueue()
    this.turnLimit = params.maxTurns
    this.messages = [...params.messages]
    this.tools = params.tools
    this.modelName = params.modelName
  }

  /**
   * Appends a message and persists it. A user message is the one the next request sends, so the
   * session's queued reminders are drained into it here (see context/reminders.ts).
   */
  append(message: Message): void {
    const sent = message.role === 'user' ? withReminders(message, this.reminders.drain()) : message
    this.messages.push(sent)
    this.params.onMessage?.(sent)
  }

  result(end: End): QueryResult {
    return { reason: end.reason, message: end.message, messages: this.messages, turns: this.turns, usage: this.usage, costUsd: this.costUsd, resultText: lastText(this.messages) }
  }
}

/**
 * Ends the run before a request when it was aborted or, for a new turn, when the turns ran out. At
 * the limit an `onTurnLimit` guard (the desktop's question, after a `turn_limit` event) may allow
 * another `maxTurns` requests; a guard that throws counts as "stop".
 */
async function* beforeRequest(loop: LoopState, params: QueryParams, previous: Transition | undefined): AsyncGenerator<AgentEvent, End | undefined> {
  if (params.signal.aborted) return aborted()
  if (isReissue(previous)) return undefined
  if (loop.turns >= loop.turnLimit) {
    const end: End = { kind: 'end', reason: 'max_turns', message: `Reached the limit of ${loop.turnLimit} model requests.` }
    if (!params.onTurnLimit) return end
    yield stamp({ type: 'turn_limit', turns: loop.turns }, params)
    const goOn = await params.onTurnLimit(loop.turns).catch(() => false)
    if (params.signal.aborted) return aborted()
    if (!goOn) return end
    loop.turnLimit += params.maxTurns
  }
  loop.turns++
  return undefined
}

/**
 * The next request: the session's context management runs its layers first (it may replace the
 * conversation, and says what to send); without it the conversation is sent as it is.
 */
async function* prepareRequest(loop: LoopState, params: QueryParams, tools: ToolSchema[]): AsyncGenerator<EventBody, ModelRequest> {
  let send = loop.pendingSend ?? loop.messages
  let deferNewest = false
  if (loop.pendingSend) loop.pendingSend = undefined
  else if (params.context) {
    const prepared = yield* params.context.prepare(loop.messages, shapeOf(loop, params, tools))
    loop.messages = prepared.messages
    send = prepared.send
    deferNewest = prepared.deferNewest === true
  }
  loop.lastSent = { length: loop.messages.length, messages: send }
  const ttl = params.promptCacheTtl?.()
  // The model's own ceiling on every request (or the override), so no reply is cut and generated again.
  const reasoning = requestReasoning(loop.modelName, params.reasoning, params.maxTokens)
  const request: ModelRequest = {
    model: loop.modelName,
    system: ttl === '1h' ? withCacheTtl(params.system, ttl) : params.system,
    messages: ttl === '1h' ? withCacheTtl(withMessageBreakpoints(send, { deferNewest }), ttl) : withMessageBreakpoints(send, { deferNewest }),
    tools,
    maxTokens: reasoning.maxTokens,
    signal: params.signal,
  }
  if (reasoning.thinking) request.thinking = reasoning.thinking
  if (reasoning.effort) request.effort = reasoning.effort
  return request
}

/** What compaction's own summary request reuses of the session's requests. */
function shapeOf(loop: LoopState, params: QueryParams, tools: ToolSchema[]): RequestShape {
  return { model: params.model, modelName: loop.modelName, system: params.system, tools, signal: params.signal }
}

async function* onError(
  loop: LoopState,
  params: QueryParams,
  error: Extract<ReplyOutcome, { kind: 'error' }>,
): AsyncGenerator<AgentEvent, Transition> {
  if (params.signal.aborted || error.reason === 'aborted') return aborted()
  if (error.reason === 'prompt_too_long') {
    const tried = loop.compactTried
    const shorter = yield* stamped(compactAfterOverflow(loop.messages, params.context, tried, shapeOf(loop, params, loop.schemas.length > 0 ? loop.schemas : toolSchemas(loop.tools))), params)
    if (!shorter) return finish('prompt_too_long', tooLong(error.message, tried || params.context !== undefined))
    loop.compactTried = true
    loop.messages = shorter.messages
    loop.pendingSend = shorter.send
    yield stamp({ type: 'notice', level: 'info', message: 'The request was too long for the model; the conversation was compacted and the request sent again.' }, params)
    return proceed('reactive_compact_retry')
  }
  const delayMs = streamRetryDelay(error, loop.streamRetries, params.streamRetryDelayMs ?? 250)
  if (delayMs === undefined) return finish('model_error', error.message)
  loop.streamRetries++
  yield stamp({ type: 'model_retry', attempt: loop.streamRetries, reason: `stream_interrupted: ${error.reason}`, delayMs }, params)
  await abortableSleep(delayMs, params.signal)
  return proceed('stream_retry')
}

async function* onMessage(
  loop: LoopState,
  params: QueryParams,
  reply: Extract<ReplyOutcome, { kind: 'message' }>,
): AsyncGenerator<AgentEvent, Transition> {
  loop.streamRetries = 0
  loop.compactTried = false
  if (reply.fallbackModel) loop.modelName = reply.fallbackModel
  if (loop.lastSent) params.context?.observe(reply.usage, loop.lastSent.length, loop.lastSent.messages)
  yield* account(loop, params, reply)
  params.guard?.afterReply({ model: reply.model, content: reply.content, usage: reply.usage, costUsd: reply.costUsd })
  if (reply.stopReason === 'max_tokens' && !params.signal.aborted) return yield* onMaxTokens(loop, params, reply)
  loop.continuations = 0
  if (reply.content.length > 0) loop.append({ role: 'assistant', content: reply.content })
  yield stamp(assistantMessage(reply.content, reply.stopReason), params)
  const calls = reply.content.filter((block) => block.type === 'tool_use')
  if (calls.length === 0) {
    reply.executor.release()
    return yield* onStop(loop, params)
  }
  loop.stopHookForced = false
  yield* stamped(reply.executor.drain(), params)
  // The trees the calls left are recorded first: what changes while the model answers is someone else's.
  await params.toolContext?.checkpoints?.landed?.().catch(() => undefined)
  const toolOf = (id: string) => loop.tools.find((tool) => tool.name === calls.find((call) => call.id === id)?.name)
  loop.append({ role: 'user', content: await budgetResults(reply.executor.results(), toolOf, toolResultsDir(params.projectDataDir, params.sessionId)) })
  if (params.signal.aborted) return aborted()
  const stopped = reply.executor.stopReason()
  if (stopped !== undefined) return finish('hook_stopped', `A hook stopped the turn: ${stopped}`)
  return reply.executor.endsTurn() ? finish('completed') : proceed('next_turn')
}

async function* account(
  loop: LoopState,
  params: QueryParams,
  reply: Extract<ReplyOutcome, { kind: 'message' }>,
): AsyncGenerator<AgentEvent> {
  loop.usage = addUsage(loop.usage, reply.usage)
  loop.costUsd += reply.costUsd
  const before = params.usageSoFar ?? { usage: zeroUsage(), costUsd: 0 }
  yield stamp(
    {
      type: 'usage',
      model: reply.model,
      request: reply.usage,
      total: addUsage(before.usage, loop.usage),
      costUsd: before.costUsd + loop.costUsd,
      requestCostUsd: reply.costUsd,
    },
    params,
  )
}

async function* onMaxTokens(
  loop: LoopState,
  params: QueryParams,
  reply: Extract<ReplyOutcome, { kind: 'message' }>,
): AsyncGenerator<AgentEvent, Transition> {
  const step = maxTokensStep(reply.content, { continuations: loop.continuations })
  yield* stamped(reply.executor.discard('the reply was cut off at the output token limit'), params)
  for (const message of step.append) loop.append(message)
  yield stamp(assistantMessage(reply.content, 'max_tokens'), params)
  if (step.kind === 'stop') return finish('max_tokens', 'The reply kept exceeding the output token limit.')
  loop.continuations++
  return proceed('max_tokens_recovery')
}

async function* onStop(loop: LoopState, params: QueryParams): AsyncGenerator<AgentEvent, Transition> {
  if (params.signal.aborted) return aborted()
  const budget = params.tokenBudget === undefined ? undefined : budgetContinuation(params.tokenBudget, loop.usage.outputTokens, loop.budgetNudgedAt)
  if (budget) {
    loop.budgetNudgedAt = loop.usage.outputTokens
    loop.append(budget)
    yield stamp({ type: 'notice', level: 'info', message: `Under the token budget (${loop.usage.outputTokens.toLocaleString('en-US')} of ${params.tokenBudget!.toLocaleString('en-US')}): the agent goes on.` }, params)
    return proceed('token_budget_continuation')
  }
  const { feedback, error } = await stopHookRound(params.hooks, loop.stopHookForced, lastText(loop.messages))
  if (error !== undefined) yield stamp({ type: 'notice', level: 'warning', message: `The Stop hook failed: ${error}` }, params)
  if (!feedback) return finish('completed')
  loop.stopHookForced = true
  loop.append(feedback)
  yield stamp({ type: 'notice', level: 'info', message: 'A Stop hook asked the agent to continue.' }, params)
  return proceed('stop_hook_blocking')
}

/** Stamps the events of an inner generator and hands back its return value. */
async function* stamped<R>(inner: AsyncGenerator<EventBody, R>, params: QueryParams): AsyncGenerator<AgentEvent, R> {
  for (;;) {
    const next = await inner.next()
    if (next.done) return next.value
    yield stamp(next.value, params)
  }
}
