import { BackgroundShells } from './background-shells'

/**
 * What the Bash tool keeps per session: the working directory commands run in (it persists
 * between calls, as a terminal's would) and the background shells.
 */
export class ShellState {
  readonly background = new BackgroundShells()

  constructor(public cwd: string) {}

  /** Stops every background shell. */
  dispose(): Promise<void> {
    return this.background.dispose()
  }
}
