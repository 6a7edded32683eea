import { z } from 'zod'

// Its own file (re-exported by session.ts): the runtime and `sous -p`'s arguments check effort
// levels, and must not build the session contract for it (docs/design/startup.md).

/** `output_config.effort` levels (the API's, as Claude Code's `effortLevel` setting names them). */
export const EffortLevel = z.enum(['low', 'medium', 'high', 'xhigh', 'max'])
export type EffortLevel = z.infer<typeof EffortLevel>
