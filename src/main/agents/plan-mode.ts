import type { PermissionModeName } from '../../shared/ipc/contract'
import type { ApprovalAsker } from '../governance/approvals/queue'
import { existsSync } from 'node:fs'
import { planFilePath, writePlanFile } from '../store/plan-files'
import type { PlanModeControl, PlanOutcome } from '../tools/types'
import { planModeEnded, planModeReminder, planModeStillActive } from './plan-mode.prompt'

/** While plan mode lasts, the model is reminded of it every this many requests (as Claude Code does). */
export const PLAN_REMINDER_EVERY = 5

/** What a session's plan mode works with. */
export interface PlanModeOptions {
  sessionId: string
  /** Where plan files go (`store/plan-files`'s `plansDir`). */
  plansDir: string
  /** The session's answerer; unattended, entering is refused (unless bypassing) and a plan is saved for later review. */
  approvals: ApprovalAsker
  /** The session's permission gate, which owns the mode. */
  gate: { readonly mode: PermissionModeName; setMode(mode: PermissionModeName): void }
  /** Announces a mode change the agent caused (entering plan mode, an approved plan). */
  onModeChange(mode: PermissionModeName, previous: PermissionModeName): void
}

/**
 * Plan mode of one session. Entering and leaving are the user's calls: EnterPlanMode asks (headless
 * runs refuse unless they bypass permissions), ExitPlanMode saves the plan where Claude Code keeps
 * plans and asks for approval; an approved plan switches to the mode the user chose, else to the
 * mode before plan mode. While it lasts, governance lets only read-only and bookkeeping tools run.
 */
export class PlanMode implements PlanModeControl {
  private previous: PermissionModeName = 'default'
  /** The model has been told that plan mode is on (and not yet that it is over). */
  private told = false
  /** Requests since the model was last reminded of plan mode. */
  private sinceReminder = 0

  constructor(private readonly o: PlanModeOptions) {}

  get mode(): PermissionModeName {
    return this.o.gate.mode
  }

  /** The plan file of this session. */
  get planFile(): string {
    return planFilePath(this.o.plansDir, this.o.sessionId)
  }

  /** A switch the user made (status bar, `/plan`): remembered so an approved plan can go back to it. */
  setMode(next: PermissionModeName): void {
    if (next === 'plan' && this.mode !== 'plan') this.previous = this.mode
    this.o.gate.setMode(next)
  }

  /**
   * What the model must be told with the request about to be sent; ask once per request. Plan mode
   * is announced in full with the first request after it starts (the user's switch, EnterPlanMode, a
   * session started in plan mode), recalled briefly every {@link PLAN_REMINDER_EVERY} requests while
   * it lasts, and its end is told when the user switched it off (an approved plan is told by
   * ExitPlanMode's own result).
   */
  nextReminder(): string | undefined {
    if (this.mode === 'plan') {
      if (!this.told) {
        this.told = true
        this.sinceReminder = 0
        return planModeReminder(this.planFile)
      }
      if (++this.sinceReminder < PLAN_REMINDER_EVERY) return undefined
      this.sinceReminder = 0
      return planModeStillActive(this.planFile)
    }
    if (!this.told) return undefined
    this.told = false
    return planModeEnded(this.mode)
  }

  /**
   * The plan file of this session when there is one (the agent presented a plan, now or before a
   * resume): what compaction restores after a summary. Undefined otherwise.
   */
  activePlanFile(): string | undefined {
    return existsSync(this.planFile) ? this.planFile : undefined
  }

  async enter(toolUseId: string, signal: AbortSignal): Promise<{ entered: true } | { entered: false; reason: string }> {
    const mode = this.mode
    if (mode === 'plan') return { entered: true }
    if (mode === 'dontAsk') return { entered: false, reason: "Entering plan mode needs the user's consent, and dontAsk mode asks nothing." }
    if (mode !== 'bypassPermissions') {
      if (!this.o.approvals.attended) {
        return { entered: false, reason: 'No one can approve entering plan mode in a headless run. To plan without changing anything, start the run with --permission-mode plan.' }
      }
      const outcome = await this.o.approvals.request({
        sessionId: this.o.sessionId,
        toolUseId,
        toolName: 'EnterPlanMode',
        input: {},
        preview: { kind: 'text', text: 'The agent wants to plan first: it will explore with read-only tools, change nothing, and ask you to approve a plan before it acts.' },
        explanation: { kind: 'default', detail: 'entering plan mode is your call' },
        suggestions: [],
        signal,
      })
      if (outcome.behavior !== 'allow') return { entered: false, reason: outcome.message }
    }
    this.switchTo('plan')
    return { entered: true }
  }

  async propose(plan: string, toolUseId: string, signal: AbortSignal): Promise<PlanOutcome> {
    const saved = await this.save(plan)
    if (!this.o.approvals.attended) return { outcome: 'unattended', ...saved }
    const outcome = await this.o.approvals.request({
      sessionId: this.o.sessionId,
      toolUseId,
      toolName: 'ExitPlanMode',
      input: { plan },
      preview: { kind: 'plan', plan, ...(saved.filePath ? { filePath: saved.filePath } : {}) },
      explanation: { kind: 'default', detail: 'the plan needs your approval before anything changes' },
      suggestions: [],
      signal,
    })
    if (outcome.behavior === 'deny') {
      if (outcome.reason !== 'rejected') return { outcome: 'aborted', message: outcome.message }
      return { outcome: 'keep_planning', ...(outcome.feedback ? { feedback: outcome.feedback } : {}), ...saved }
    }
    const approved = outcome.plan?.text ?? plan
    const edited = approved.trimEnd() !== plan.trimEnd()
    const final = edited ? await this.save(approved) : saved
    const mode = outcome.plan?.mode ?? this.previous
    // ExitPlanMode's result tells the model that plan mode is over.
    this.told = false
    this.switchTo(mode)
    return { outcome: 'approved', mode, plan: approved, edited, ...final }
  }

  /** Writes the plan file; a failure is reported, never fatal (the approval matters more than the copy). */
  private async save(plan: string): Promise<{ filePath?: string; fileError?: string }> {
    try {
      await writePlanFile(this.planFile, plan)
      return { filePath: this.planFile }
    } catch (error) {
      return { fileError: `the plan could not be saved to ${this.planFile}: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  private switchTo(next: PermissionModeName): void {
    const previous = this.mode
    this.setMode(next)
    if (next !== previous) this.o.onModeChange(next, previous)
  }
}
