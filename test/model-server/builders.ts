import type { JsonStep, ReplyBlock, ReplySpec, StepOptions, UsageSpec } from './types'

/**
 * Helper builders for common steps. Every builder returns plain JSON (usable in scenario files);
 * spread extra options in: `{ ...textReply('hi'), delayMs: 20 }`.
 */

type Extra = Omit<StepOptions, 'match' | 'expect'> & { usage?: UsageSpec; stopReason?: string }

function reply(content: ReplyBlock[], extra: Extra = {}): JsonStep {
  const { usage, stopReason, ...options } = extra
  const spec: ReplySpec = { content }
  if (usage) spec.usage = usage
  if (stopReason) spec.stopReason = stopReason
  return { reply: spec, ...options }
}

/** A plain text answer ending the turn. */
export function textReply(text: string, extra?: Extra): JsonStep {
  return reply([{ type: 'text', text }], extra)
}

/** A tool call (optionally preceded by text); stop reason tool_use. */
export function toolUseReply(name: string, input: unknown, extra: Extra & { id?: string; text?: string } = {}): JsonStep {
  const { id, text, ...rest } = extra
  const blocks: ReplyBlock[] = text ? [{ type: 'text', text }] : []
  blocks.push(id ? { type: 'tool_use', id, name, input } : { type: 'tool_use', name, input })
  return reply(blocks, rest)
}

/** Several tool calls in one reply. */
export function toolUsesReply(calls: Array<{ name: string; input: unknown; id?: string }>, extra?: Extra): JsonStep {
  return reply(
    calls.map((c) => (c.id ? { type: 'tool_use', id: c.id, name: c.name, input: c.input } : { type: 'tool_use', name: c.name, input: c.input })),
    extra,
  )
}

/** Extended thinking (with its signature) followed by text. */
export function thinkingReply(thinking: string, text: string, extra: Extra & { signature?: string } = {}): JsonStep {
  const { signature, ...rest } = extra
  return reply(
    [
      { type: 'thinking', thinking, signature: signature ?? 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { type: 'text', text },
    ],
    rest,
  )
}

/** 429 rate_limit_error with a `retry-after` header (seconds). */
export function rateLimited(retryAfter = 1, message?: string): JsonStep {
  return { error: { status: 429, type: 'rate_limit_error', retryAfter, ...(message ? { message } : {}) } }
}

/** 429 for a reached spend limit: no retry-after, must not be retried. */
export function spendLimitReached(): JsonStep {
  return {
    error: {
      status: 429,
      type: 'rate_limit_error',
      errorCode: 'enforced_spend_limit_reached',
      message: 'You have reached your specified API usage limits.',
    },
  }
}

/** 529 overloaded_error. */
export function overloaded(): JsonStep {
  return { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }
}

/** 500 api_error. */
export function serverError(message = 'Internal server error'): JsonStep {
  return { error: { status: 500, type: 'api_error', message } }
}

/** 400 invalid_request_error for a context overflow, with the API's exact wording. */
export function promptTooLong(tokens = 219898, maximum = 200000): JsonStep {
  return { error: { status: 400, type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${maximum} maximum` } }
}

/** 401 authentication_error. */
export function unauthorized(): JsonStep {
  return { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } }
}

/** Streams `afterDeltas` deltas of a text reply, then `event: error` (overloaded). */
export function midStreamOverload(afterDeltas = 2, text = 'Partial answer that will never finish because the server fails.'): JsonStep {
  return {
    midStreamError: { type: 'overloaded_error', message: 'Overloaded' },
    afterDeltas,
    reply: { content: [{ type: 'text', text }] },
    chunkSize: 8,
  }
}

/** Destroys the connection before any response, or after `afterDeltas` deltas. */
export function dropConnection(when: 'before-headers' | 'mid-stream', afterDeltas = 2): JsonStep {
  return when === 'before-headers' ? { drop: when } : { drop: when, afterDeltas, reply: { content: [{ type: 'text', text: 'Partial answer cut by a dropped connection.' }] }, chunkSize: 8 }
}
