import {
  isRequestChannel,
  requests,
  type RequestChannel,
  type RequestOutput,
  type RequestParsed,
} from '../../shared/ipc/contract'
import { AppError, err, ok, type Result } from '../../shared/ipc/result'

/** Who is calling: the transport fills this in; the router's policy decides whether to trust it. */
export interface Sender {
  transport: 'electron' | 'ws' | 'stdio' | 'internal'
  /** Electron: the URL of the frame that sent the message. */
  frameUrl?: string
  /** WebSocket: the Origin of the connection (already checked at upgrade). */
  origin?: string
}

/** What a handler gets besides its validated input. */
export interface CallContext {
  sender: Sender
}

/** One function per request channel. A missing entry is a compile error. */
export type Handlers = {
  [C in RequestChannel]: (
    input: RequestParsed<C>,
    ctx: CallContext,
  ) => Promise<RequestOutput<C>> | RequestOutput<C>
}

/** The single entry point both transports call. */
export interface Router {
  /**
   * Validates the sender and the payload, runs the handler and checks its output.
   * Contract: never throws and never rejects; failures come back as `{ok:false}` without stacks.
   */
  invoke(channel: unknown, payload: unknown, sender: Sender): Promise<Result<unknown>>
}

export interface RouterOptions {
  /** Decides whether a sender may call at all (e.g. only our own renderer's frame). */
  isTrustedSender: (sender: Sender) => boolean
  /** Receives handler bugs (not expected failures), for the log. */
  onInternalError?: (channel: string, error: unknown) => void
}

/** Builds the router over a complete set of handlers. */
export function createRouter(handlers: Handlers, options: RouterOptions): Router {
  return {
    async invoke(channel, payload, sender) {
      if (!options.isTrustedSender(sender)) return err('FORBIDDEN', 'This sender may not call Sous.')
      if (!isRequestChannel(channel)) return err('UNKNOWN_CHANNEL', `Unknown channel: ${describe(channel)}`)
      const spec = requests[channel]
      const parsed = spec.input.safeParse(payload ?? {})
      if (!parsed.success) return err('INVALID_INPUT', `${channel}: ${formatIssues(parsed.error.issues)}`)
      try {
        const handler = handlers[channel] as (input: unknown, ctx: CallContext) => unknown
        const value = await handler(parsed.data, { sender })
        const checked = spec.output.safeParse(value)
        if (!checked.success) {
          options.onInternalError?.(channel, new Error(`output: ${formatIssues(checked.error.issues)}`))
          return err('INTERNAL', `${channel} produced an invalid reply.`)
        }
        return ok(checked.data)
      } catch (error) {
        if (error instanceof AppError) return err(error.code, error.message)
        options.onInternalError?.(channel, error)
        return err('INTERNAL', `${channel} failed unexpectedly.`)
      }
    },
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : typeof value
}

function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ')
}
