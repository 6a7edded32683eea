import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PromptCacheSimulator, estimateTokens, flattenPrompt } from './cache-sim'
import { invalidRequest } from './request-checks'
import { parseScenario } from './scenario-file'
import type { ErrorSpec, ModelServerOptions, RecordedRequest, ReplySpec, ScenarioFailure, Step, StepAction, StepOptions } from './types'
import { errorBody, messageJson, sseFrames, type SseFrame, type WireContext } from './wire'

/**
 * A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API from a script.
 * Point the real SDK at `url` (ANTHROPIC_BASE_URL). Each `POST /v1/messages` takes the next step;
 * when the script runs out, or a step's `match`/`expect` rejects the request, the server answers
 * 500 with `x-should-retry: false` and records a failure, so tests fail loudly.
 * Extra routes: `POST /v1/messages/count_tokens` (estimate), `GET /_scripted/requests` and
 * `POST /_scripted/scenario` (for tests that run the server as a separate process).
 */
export interface ModelServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string
  readonly port: number
  /** Every `POST /v1/messages`, in arrival order. */
  readonly requests: RecordedRequest[]
  /** Mismatches, failed expectations, exhausted script. Tests should assert this is empty. */
  readonly failures: ScenarioFailure[]
  readonly cache: PromptCacheSimulator
  /** Requests refused because their prompt was longer than `contextWindow` (they took no step). */
  readonly overflows: RecordedRequest[]
  /** Replaces the script and restarts from its first step (recorded requests are kept). */
  setScenario(steps: Step[], options?: { loop?: boolean }): void
  /** Steps not yet consumed (Infinity when looping). */
  remaining(): number
  close(): Promise<void>
}

type ResolvedStep = StepAction & StepOptions

/** Starts a scripted model server. Contract: always close() it (afterEach/afterAll). */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  let steps: Step[] = options.scenario ?? []
  let loop = options.loop ?? false
  let served = 0
  const requests: RecordedRequest[] = []
  const failures: ScenarioFailure[] = []
  const overflows: RecordedRequest[] = []
  const cache = new PromptCacheSimulator(options.minCacheTokens ?? 0)

  // Steps are taken in order; one naming a model (`forModel`) only by requests for it (a lane).
  let taken: boolean[] = []
  const nextStep = (model: string): { step: Step; position: number } | undefined => {
    const eligible = (step: Step | undefined) => step !== undefined && (typeof step === 'function' || step.forModel === undefined || step.forModel === model)
    let position = steps.findIndex((step, index) => !taken[index] && eligible(step))
    if (position < 0 && loop && steps.length > 0) {
      taken = []
      position = steps.findIndex((step) => eligible(step))
    }
    if (position < 0) return undefined
    taken[position] = true
    return { step: steps[position]!, position }
  }

  const handleMessages = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
    const requestId = `req_scripted_${++served}`
    let body: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(raw)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('body is not an object')
      body = parsed as Record<string, unknown>
    } catch (error) {
      sendError(res, { status: 400, message: `invalid JSON body: ${String(error)}` }, requestId)
      return
    }
    const measured = cache.measure(body)
    const recorded: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'POST',
      path: req.url ?? '',
      headers: { ...req.headers },
      body,
      stream: body['stream'] === true,
      model: String(body['model'] ?? ''),
      simulatedUsage: measured.usage,
    }
    requests.push(recorded)

    const fail = (message: string): void => {
      failures.push({ requestIndex: recorded.index, message })
      sendError(res, { status: 500, type: 'api_error', message, headers: { 'x-should-retry': 'false' } }, requestId)
    }
    // The real API refuses these before anything else; so do we, so a test cannot pass on a
    // request production would never get an answer to.
    const invalid = invalidRequest(body)
    if (invalid) {
      failures.push({ requestIndex: recorded.index, message: `invalid request: ${invalid}` })
      sendError(res, { status: 400, type: 'invalid_request_error', message: invalid }, requestId)
      return
    }
    const prompt = measured.usage.input_tokens + measured.usage.cache_read_input_tokens + measured.usage.cache_creation_input_tokens
    if (options.contextWindow !== undefined && prompt > options.contextWindow) {
      overflows.push(recorded)
      sendError(res, { status: 400, type: 'invalid_request_error', message: `prompt is too long: ${prompt} tokens > ${options.contextWindow} maximum` }, requestId)
      return
    }
    const next = nextStep(recorded.model)
    if (!next) {
      fail(`scenario exhausted: no step left for request #${recorded.index} (model ${recorded.model})`)
      return
    }
    const where = `step ${next.position}${typeof next.step === 'function' || !next.step.label ? '' : ` (${next.step.label})`}`
    let step: ResolvedStep
    try {
      step = typeof next.step === 'function' ? await next.step(recorded) : next.step
      if (step.match && !step.match(recorded)) {
        fail(`scenario ${where} did not match request #${recorded.index}`)
        return
      }
      step.expect?.(recorded)
    } catch (error) {
      fail(`scenario ${where} expectation failed on request #${recorded.index}: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    const ctx: WireContext = { messageId: `msg_scripted_${served}`, requestIndex: recorded.index, model: recorded.model, simulated: measured.usage }
    await act(step, recorded, ctx, req, res, requestId, measured.commit)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const path = (req.url ?? '').split('?')[0]
      const route = async (): Promise<void> => {
        if (req.method === 'POST' && path === '/v1/messages') return handleMessages(req, res, raw)
        if (req.method === 'POST' && path === '/v1/messages/count_tokens') return countTokens(res, raw)
        if (req.method === 'GET' && path === '/_scripted/requests') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, failures }))
          return
        }
        if (req.method === 'POST' && path === '/_scripted/scenario') {
          const parsed = parseScenario(safeJson(raw))
          if (!parsed.ok) {
            sendError(res, { status: 400, message: parsed.error }, 'req_admin')
            return
          }
          steps = parsed.value.steps
          loop = parsed.value.loop
          taken = []
          res.writeHead(204).end()
          return
        }
        if ((req.method === 'HEAD' || req.method === 'GET') && path === '/') {
          res.writeHead(200).end()
          return
        }
        sendError(res, { status: 404, message: `scripted model server: no route ${req.method} ${path}` }, 'req_scripted_404')
      }
      route().catch((error: unknown) => {
        failures.push({ requestIndex: -1, message: `model server bug: ${String(error)}` })
        if (!res.headersSent) sendError(res, { status: 500, message: String(error), headers: { 'x-should-retry': 'false' } }, 'req_bug')
        else res.destroy()
      })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    failures,
    cache,
    overflows,
    setScenario(next, opts) {
      steps = next
      loop = opts?.loop ?? false
      taken = []
    },
    remaining: () => (loop ? Infinity : steps.filter((_step, index) => !taken[index]).length),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function act(
  step: ResolvedStep,
  recorded: RecordedRequest,
  ctx: WireContext,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  commitCache: () => void,
): Promise<void> {
  if ('error' in step) {
    sendError(res, step.error, requestId)
    return
  }
  if ('drop' in step && step.drop === 'before-headers') {
    req.socket.destroy()
    return
  }
  commitCache()
  if ('midStreamError' in step && !recorded.stream) {
    // Without streaming there is no "middle": answer the equivalent HTTP error.
    const type = step.midStreamError.type ?? 'overloaded_error'
    sendError(res, { status: type === 'overloaded_error' ? 529 : 500, type, message: step.midStreamError.message }, requestId)
    return
  }
  const reply: ReplySpec = 'reply' in step && step.reply ? step.reply : { content: [{ type: 'text', text: 'This reply will be cut short by the scripted server.' }] }
  if (!recorded.stream) {
    const json = JSON.stringify(messageJson(reply, ctx))
    if ('drop' in step) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId, 'content-length': Buffer.byteLength(json) })
      res.write(json.slice(0, Math.floor(json.length / 2)))
      res.socket?.destroy()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId }).end(json)
    return
  }
  const frames = sseFrames(reply, ctx, { chunkSize: step.chunkSize ?? 12, jsonChunks: step.jsonChunks ?? 3 })
  const cutAfter = 'midStreamError' in step || 'drop' in step ? (step.afterDeltas ?? 1) : Infinity
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': requestId,
  })
  res.flushHeaders()
  await writeFrames(res, frames, { cutAfter, delayMs: step.delayMs ?? 0, pingEvery: step.pingEvery ?? 0 })
  if (res.destroyed || res.writableEnded) return
  if ('midStreamError' in step) {
    const body = errorBody({ status: 529, type: step.midStreamError.type ?? 'overloaded_error', message: step.midStreamError.message }, requestId)
    res.end(formatSse({ event: 'error', data: body, delta: false }))
  } else if ('drop' in step) {
    res.socket?.destroy()
  } else {
    res.end()
  }
}

async function writeFrames(
  res: ServerResponse,
  frames: SseFrame[],
  options: { cutAfter: number; delayMs: number; pingEvery: number },
): Promise<void> {
  let deltas = 0
  for (const frame of frames) {
    if (res.destroyed) return
    if (frame.delta) {
      if (deltas >= options.cutAfter) return
      if (options.delayMs > 0) await sleep(options.delayMs)
      if (res.destroyed) return
      deltas++
    }
    res.write(formatSse(frame))
    if (frame.delta && options.pingEvery > 0 && deltas % options.pingEvery === 0) {
      res.write(formatSse({ event: 'ping', data: { type: 'ping' }, delta: false }))
    }
  }
}

function formatSse(frame: SseFrame): string {
  return `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`
}

function sendError(res: ServerResponse, spec: ErrorSpec, requestId: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId, ...spec.headers }
  if (spec.retryAfter != null) headers['retry-after'] = String(spec.retryAfter)
  if (spec.retryAfterMs != null) headers['retry-after-ms'] = String(spec.retryAfterMs)
  res.writeHead(spec.status, headers).end(JSON.stringify(errorBody(spec, requestId)))
}

function countTokens(res: ServerResponse, raw: string): void {
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(raw) as Record<string, unknown>
  } catch {
    // An unparseable body counts as empty; count_tokens is advisory.
  }
  const total = flattenPrompt(body).reduce((sum, block) => sum + estimateTokens(block.key), 0)
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: total }))
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
