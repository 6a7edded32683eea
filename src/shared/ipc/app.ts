import { z } from 'zod'
import { Empty } from './common'

/** `app.*`: facts about the running app. */
export const appRequests = {
  /** Facts about the running app, for the status bar and the about box. */
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['electron', 'browser']) }),
  },
} as const
