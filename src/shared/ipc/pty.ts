import { z } from 'zod'
import { AbsPath, Id } from './common'

/** `pty.*`: the user's terminals (and the Agent terminal's keystrokes). */
export const ptyRequests = {
  /** Starts a user terminal on a real PTY in a project folder. */
  'pty.create': {
    input: z
      .object({ cwd: AbsPath, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.object({ id: Id }),
  },
  /** Types into a terminal. */
  'pty.write': { input: z.object({ id: Id, data: z.string().max(1_000_000) }).strict(), output: z.void() },
  'pty.resize': {
    input: z
      .object({ id: Id, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.void(),
  },
  /** Acknowledges rendered output so a paused PTY may resume (flow control). */
  'pty.ack': { input: z.object({ id: Id, chars: z.number().int().min(0) }).strict(), output: z.void() },
  'pty.kill': { input: z.object({ id: Id }).strict(), output: z.void() },
  /**
   * Takes up a user terminal that is still running after the page was reloaded: its recent output
   * (the last ~200k characters) to draw again, after which its `pty.data` is this page's. Output
   * the old page never acknowledged is acknowledged, so a paused terminal goes on. NOT_FOUND once
   * its process has ended.
   */
  'pty.attach': { input: z.object({ id: Id }).strict(), output: z.object({ data: z.string() }) },
} as const

export const ptyEvents = {
  /** Terminal output, batched. */
  'pty.data': z.object({ id: Id, data: z.string() }),
  /** A terminal's process ended. */
  'pty.exit': z.object({ id: Id, exitCode: z.number(), signal: z.number().optional() }),
  /** The Bash tool started a command on a PTY; its output follows as `pty.data` with this `ptyId`. */
  'agent.terminal': z.object({ sessionId: z.string(), ptyId: Id, command: z.string() }),
  /**
   * An agent command seems to wait for input (quiet, its foreground process reading the terminal;
   * `main/workspace/input-wait.ts`), or no longer does (`waiting: false`).
   */
  'agent.inputWait': z.object({ sessionId: z.string(), ptyId: Id, command: z.string(), waiting: z.boolean() }),
} as const
