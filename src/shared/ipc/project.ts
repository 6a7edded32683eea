import { z } from 'zod'
import { AbsPath, Empty } from './common'

/** A project the user opened. */
export const Project = z.object({ path: z.string(), name: z.string(), openedAt: z.string() })
export type Project = z.infer<typeof Project>

/** `project.*`: opening folders and remembering them. */
export const projectRequests = {
  /** Opens a folder as a project and remembers it among the recent ones. */
  'project.open': { input: z.object({ path: AbsPath }).strict(), output: Project },
  /** Recently opened projects, newest first. */
  'project.recent': { input: Empty, output: z.array(Project) },
  /** Asks the OS for a folder (desktop only); `null` when the user cancels. */
  'project.pick': { input: Empty, output: Project.nullable() },
} as const

export const projectEvents = {
  /** The OS asked us to open a folder (dropped on the app icon, second instance, …). */
  'project.openRequested': z.object({ path: z.string() }),
} as const
