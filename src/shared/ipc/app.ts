import { z } from 'zod'
import { Empty } from './common'

/** `app.*`: facts about the running app. */
export const appRequests = {
  /** Facts about the running app, for the status bar and the about box. */
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['electron', 'browser', 'stdio']) }),
  },
  /**
   * How many things wait for the user (the attention inbox's count): the desktop app shows it on
   * the dock / taskbar badge; the browser host has no badge and ignores it.
   */
  'app.setBadgeCount': { input: z.object({ count: z.number().int().min(0).max(9999) }).strict(), output: z.void() },
} as const
