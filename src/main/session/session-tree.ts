import type { TaskItem } from '../../shared/protocol/task'
import type { SessionEnvironment, SessionHandle } from './session-types'

/** What the tree needs of its Session: whether a turn runs, and stopping it. */
interface TurnState {
  readonly busy: boolean
  abort(): Promise<void>
}

/**
 * One live session as the agent tree reaches it (`Session.tree`) (`agents.tree`, `agents.stop`): which of its nodes
 * run now, its task list, and stopping a node with what is below it.
 */
export class SessionTree {
  constructor(
    private readonly env: Pick<SessionEnvironment, 'agents' | 'taskSnapshot'>,
    private readonly turn: TurnState,
  ) {}

  /** Ids of the tree's nodes running now: the main agent while a turn runs, subagents, background commands. */
  liveNodeIds(): Set<string> {
    const live = this.env.agents?.liveNodeIds() ?? new Set<string>()
    if (this.turn.busy) live.add('main')
    return live
  }

  /** The task list for the tree, if the session has one. */
  taskSnapshot(): Promise<{ listId: string; tasks: TaskItem[] } | undefined> {
    return this.env.taskSnapshot?.().catch(() => undefined) ?? Promise.resolve(undefined)
  }

  /** Stops a node of the tree and what is below it: `main` is the turn and every subagent. False when none such runs. */
  async stopNode(nodeId: string): Promise<boolean> {
    if (nodeId !== 'main') return (await this.env.agents?.stopNode(nodeId)) ?? false
    await Promise.all([this.turn.abort(), this.env.agents?.stopAll()])
    return true
  }
}

/** The {@link SessionHandle} of a session, given how to emit its events and record them in its transcript. */
export function sessionHandle(session: Pick<SessionHandle, 'busy' | 'runTurn' | 'whenIdle'>, emit: SessionHandle['emit'], record: SessionHandle['record']): SessionHandle {
  return {
    emit,
    record,
    get busy() {
      return session.busy
    },
    runTurn: (text) => session.runTurn(text),
    whenIdle: () => session.whenIdle(),
  }
}
