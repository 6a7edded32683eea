import { z } from 'zod'

/** Schemas every domain of the contract shares. */

/** An identifier sent by the renderer (session, approval, terminal). */
export const Id = z.string().min(1).max(200)
/** An absolute path sent by the renderer. */
export const AbsPath = z.string().min(1).max(4096)
/** A request that takes no input. */
export const Empty = z.object({}).strict()
