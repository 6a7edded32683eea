/**
 * A Stop (or SubagentStop) hook may force one more round, but only once in a row: after a forced
 * round, the next Stop hook sees `stop_hook_active: true` and a second block ends the turn anyway.
 */
export class StopHookGuard {
  private forced = false

  /** Value for the hook input's `stop_hook_active`. */
  get active(): boolean {
    return this.forced
  }

  /** Asks to continue after a Stop hook blocked; true once, then false until {@link reset}. */
  permitContinue(): boolean {
    if (this.forced) return false
    this.forced = true
    return true
  }

  /** A round ended without a forced continuation (or a new prompt came): allow one again. */
  reset(): void {
    this.forced = false
  }
}
