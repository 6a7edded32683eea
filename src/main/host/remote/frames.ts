import { z } from 'zod'
import { ResultError } from '../../../shared/ipc/result'

/**
 * The remote-host protocol: the contract's requests and events as newline-delimited JSON over
 * any byte pipe (`sous host --stdio` behind ssh, a dev container's exec, a user's own transport
 * command). One JSON object per line, discriminated by `t`. Both ends check every frame against
 * these schemas; the contract's schemas then check what a request or an event carries.
 *
 * Order on a connection: the host writes `hello` first; the client answers with its own `hello`
 * (or goes away); the host answers a mismatched client with `refused` and ends. Only then do
 * `req`/`res`, `event`, the model relay (`model.*`) and the local MCP servers (`mcp.*`) flow.
 */

/** Bumped when a frame's meaning changes; the Sous version must match too (one contract). */
export const REMOTE_PROTOCOL = 1

/** The longest line either end reads (a 1 MB prompt JSON-escaped, a large history). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024

const RequestId = z.union([z.number().int().safe(), z.string().min(1).max(200)])
const RelayId = z.string().min(1).max(100)

/** The longest MCP message either end sends through the tunnel (JSON characters); a bigger result is answered with an error. */
export const MAX_MCP_MESSAGE_CHARS = 8 * 1024 * 1024

/** A server name as MCP configuration allows it (no `__`: tool names are mcp__<server>__<tool>). */
const McpServerName = z.string().min(1).max(100).refine((name) => !name.includes('__') && name.trim() !== '', 'not a valid MCP server name')
/** One JSON-RPC message: its shape is the MCP client's to check; here only that it is one. */
const JsonRpcMessage = z.looseObject({ jsonrpc: z.literal('2.0') })

/** What each side says first. */
export const Hello = z.object({
  t: z.literal('hello'),
  role: z.enum(['host', 'client']),
  protocol: z.number().int(),
  version: z.string().max(100),
  /** Host: who sends its model requests — `relay` (the client, with its key) or `own` (the host's key/gateway). */
  model: z.enum(['relay', 'own']).optional(),
  /** Host: its platform and the folder it runs in, for the client's messages. */
  platform: z.string().max(40).optional(),
  /**
   * Host: which run of the host this is (new each time a host starts). A client that reconnects
   * to another instance knows the host it left ended: its turns in progress were cut.
   */
  instance: z.string().max(100).optional(),
  /** Client: where to pick up after a dropped connection (the last event sequence it saw). */
  resumeAfter: z.number().int().nonnegative().optional(),
  /** Client: the MCP servers it runs for the host (the user's `remoteLocalMcpServers`; see mcp-tunnel.ts). */
  localMcpServers: z.array(McpServerName).max(64).optional(),
})
export type Hello = z.infer<typeof Hello>

/** Every frame of the protocol. */
export const Frame = z.discriminatedUnion('t', [
  Hello,
  /** Host → client: the handshake failed; the host ends after writing it. */
  z.object({ t: z.literal('refused'), message: z.string().max(2000) }),
  /** Client → host: one contract request. */
  z.object({ t: z.literal('req'), id: RequestId, channel: z.string().max(200), payload: z.unknown().optional() }),
  /** Host → client: its answer (the router's Result). */
  z.object({ t: z.literal('res'), id: RequestId, result: z.union([z.object({ ok: z.literal(true), value: z.unknown().optional() }), z.object({ ok: z.literal(false), error: ResultError })]) }),
  /** Host → client: one contract event, numbered so a reconnecting client can ask for the rest. */
  z.object({ t: z.literal('event'), seq: z.number().int().nonnegative(), channel: z.string().max(200), payload: z.unknown() }),
  /** Either way: a frame this side could not read (reported, dropped; the connection stays). */
  z.object({ t: z.literal('bad-frame'), message: z.string().max(2000) }),
  /** Host → client: send this Messages API request with your credentials (see services/model/relay.ts). */
  z.object({
    t: z.literal('model.request'),
    id: RelayId,
    method: z.literal('POST'),
    path: z.string().max(200),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
  }),
  /** Host → client: the request's caller went away (abort). */
  z.object({ t: z.literal('model.abort'), id: RelayId }),
  /** Client → host: the response's status and headers. */
  z.object({ t: z.literal('model.head'), id: RelayId, status: z.number().int(), headers: z.record(z.string(), z.string()) }),
  /** Client → host: a piece of the response body (text: the API answers JSON and SSE). */
  z.object({ t: z.literal('model.chunk'), id: RelayId, data: z.string() }),
  /** Client → host: the body ended. */
  z.object({ t: z.literal('model.end'), id: RelayId }),
  /** Client → host: the request could not be sent (refused by policy, network error). */
  z.object({ t: z.literal('model.error'), id: RelayId, message: z.string().max(2000) }),
  /** Host → client: start one of the MCP servers you offered (`id` names this run of it). */
  z.object({ t: z.literal('mcp.open'), id: RelayId, server: McpServerName }),
  /** Host → client: a JSON-RPC message for that server. */
  z.object({ t: z.literal('mcp.send'), id: RelayId, message: JsonRpcMessage }),
  /** Host → client: stop it. */
  z.object({ t: z.literal('mcp.close'), id: RelayId }),
  /** Client → host: a JSON-RPC message from the server. */
  z.object({ t: z.literal('mcp.message'), id: RelayId, message: JsonRpcMessage }),
  /** Client → host: the server ended or could not start (why, in one line). */
  z.object({ t: z.literal('mcp.closed'), id: RelayId, message: z.string().max(2000) }),
])
export type Frame = z.infer<typeof Frame>
export type FrameOf<T extends Frame['t']> = Extract<Frame, { t: T }>

/** A line read: a frame, or why not (with the request id when one could be recovered). */
export type ReadFrame = { ok: true; frame: Frame } | { ok: false; message: string; id?: number | string }

/** Parses one line. Never throws. */
export function readFrame(line: string): ReadFrame {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { ok: false, message: 'The frame is not valid JSON.' }
  }
  const parsed = Frame.safeParse(value)
  if (parsed.success) return { ok: true, frame: parsed.data }
  const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  const id = RequestId.safeParse(record['id'])
  const issue = parsed.error.issues[0]
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''
  const kind = typeof record['t'] === 'string' ? `"${record['t'].slice(0, 40)}" ` : ''
  return { ok: false, message: `The ${kind}frame does not match the protocol: ${where}${issue?.message ?? 'invalid'}`, ...(record['t'] === 'req' && id.success && { id: id.data }) }
}

/** Why two ends cannot talk, or undefined when they can (the same protocol and the same Sous version). */
export function mismatch(local: { version: string }, remote: Hello): string | undefined {
  if (remote.protocol !== REMOTE_PROTOCOL) return `it speaks remote protocol ${remote.protocol}, this Sous speaks ${REMOTE_PROTOCOL}`
  if (remote.version !== local.version) return `it is Sous ${remote.version}, this is Sous ${local.version}`
  return undefined
}
