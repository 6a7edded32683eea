import { createContext } from 'react'

/**
 * The tool calls (by `toolUseId`) that wait for the user's approval. The engine does not announce
 * the wait; the approvals feature knows it, and the shell (`app/ChatPane.tsx`) provides it here so
 * chat never imports approvals.
 */
export const AwaitingApproval = createContext<ReadonlySet<string>>(new Set())
