import type { SessionGrants } from '../decide/session'
import { describeExplanation } from '../types'
import { DenialLog, type Denial } from './denials'
import { ApprovalQueue, type ApprovalAsker, type ApprovalOutcome, type ApprovalQueueOptions, type ApprovalRequest } from './queue'

/**
 * Who answers a session's asks, chosen once when the session opens (see {@link chooseAnswerer}):
 * `interactive`, a person, through the session's {@link ApprovalQueue} that a UI shows;
 * `unattended`, nobody (`sous -p`; background work and auto mode later): every ask is denied at
 * once with the one message that says how to allow it without asking ({@link nobodyCanAnswer}).
 */
export type AnswererKind = 'interactive' | 'unattended'

/** A session's answerer: the queue a UI answers, or the unattended answerer. */
export type SessionAnswerer = { kind: 'interactive'; asker: ApprovalQueue } | { kind: 'unattended'; asker: UnattendedAnswerer }

/** Builds the answerer of one session; the unattended one records its denials in the session's `denials` log. */
export function chooseAnswerer(kind: AnswererKind, options: ApprovalQueueOptions, denials: DenialLog): SessionAnswerer {
  return kind === 'interactive' ? { kind, asker: new ApprovalQueue(options) } : { kind, asker: new UnattendedAnswerer(options.sessionGrants, denials) }
}

/** How a call is allowed when nobody can be asked. */
export const ALLOW_WITHOUT_ASKING = 'Allow it with --allowedTools or a permission rule.'

/**
 * The one message for an ask nobody can answer: what needs approval, why, and how to allow it
 * without asking (the gate's refusal, the sandbox's network asks, any other ask).
 */
export function nobodyCanAnswer(subject: string, why: string, how: string = ALLOW_WITHOUT_ASKING): string {
  return `${subject} needs approval (${why}), and no one can approve it in headless mode. ${how}`
}

/**
 * The unattended answerer: an ask resolves at once to a denial (`reason: 'headless'`) with
 * {@link nobodyCanAnswer}'s message, recorded in the session's denial log; nothing ever waits.
 */
export class UnattendedAnswerer implements ApprovalAsker {
  readonly attended = false

  constructor(
    readonly sessionGrants: SessionGrants,
    private readonly log: DenialLog = new DenialLog(),
  ) {}

  request(req: Omit<ApprovalRequest, 'id' | 'suggestions'>): Promise<ApprovalOutcome> {
    const message = nobodyCanAnswer(req.toolName, describeExplanation(req.explanation))
    this.log.record({ toolName: req.toolName, ...(req.toolUseId !== undefined && { toolUseId: req.toolUseId }), input: req.input, explanation: req.explanation, reason: 'headless', message })
    return Promise.resolve({ behavior: 'deny', reason: 'headless', message })
  }

  /** Nothing waits for an answer here. */
  pending(): ApprovalRequest[] {
    return []
  }

  /** The denials in its log so far (the session's, when the session gave it its log). */
  denials(): Denial[] {
    return [...this.log.entries]
  }
}
