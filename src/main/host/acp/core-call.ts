import { RequestError } from '@agentclientprotocol/sdk'
import type { RequestChannel, RequestInput, RequestOutput } from '../../../shared/ipc/contract'
import type { Router } from '../router'

/** One contract request from the ACP adapter; rejects with the ACP error a client understands. */
export type CoreCall = <C extends RequestChannel>(channel: C, payload: RequestInput<C>) => Promise<RequestOutput<C>>

/**
 * The adapter reaches the core only through the router, as every transport does: the contract's
 * schemas check what it sends, and the handlers are the app's. A failure becomes a JSON-RPC error
 * with Sous's message (NOT_FOUND: -32002, INVALID_INPUT: -32602, the rest: -32603).
 */
export function coreCall(router: Router): CoreCall {
  return async (channel, payload) => {
    const result = await router.invoke(channel, payload, { transport: 'stdio' })
    if (result.ok) return result.value as never
    const { code, message } = result.error
    if (code === 'NOT_FOUND') throw new RequestError(-32002, message, { code })
    if (code === 'INVALID_INPUT') throw RequestError.invalidParams({ code }, message)
    throw new RequestError(-32603, message, { code })
  }
}
