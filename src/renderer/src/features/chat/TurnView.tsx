import { memo, type ComponentType } from 'react'
import type { TerminalReason } from '../../../../shared/protocol/agent-event'
import { Markdown } from '../../lib/markdown/Markdown'
import { MemoryLine } from './MemoryLine'
import { ToolCard } from './ToolCard'
import { PauseCard } from './PauseCard'
import { TurnLimitQuestion } from './TurnLimitQuestion'
import { describeRecovery } from './recovery'
import type { Turn } from './reducer'
import { formatTokens, formatUsd, useSessionSpend, type Spend } from '../../state/spend'
import { turnSpend, type TurnSpend } from './usage'

const END_LABEL: Record<TerminalReason, string> = {
  completed: 'Done',
  aborted: 'Stopped',
  max_turns: 'Stopped: too many steps',
  max_tokens: 'Stopped: the reply hit its length limit',
  prompt_too_long: 'The conversation is too long for the model',
  model_error: 'The model request failed',
  hook_stopped: 'Stopped by a hook',
  command_failed: 'The command could not run',
  budget_exceeded: 'Stopped at the spending cap',
  loop_detected: 'Stopped: the agent was repeating itself',
}

/** What the shell puts on each user turn (the rewind feature's "Rewind to here" / "Fork from here"). */
export type TurnMarkerSlot = ComponentType<{ turnId?: string; busy: boolean }>

/** The user's prompt and the agent's reply, as it streams. */
export const TurnView = memo(function TurnView({ turn, live, before, Marker, busy = false }: { turn: Turn; live: boolean; before?: Turn['usage']; Marker?: TurnMarkerSlot; busy?: boolean }) {
  const replyEmpty = turn.blocks.length === 0
  return (
    // `data-turn-id` and the tab index let the timeline lead to the turn (app/focus-card.ts).
    <div className="turn" data-turn-id={turn.turnId} tabIndex={-1}>
      <div className="message message--user" aria-label="You">
        <p>{turn.prompt}</p>
      </div>
      {Marker && <Marker turnId={turn.turnId} busy={busy} />}
      <div className="message message--assistant" aria-label="Assistant" aria-busy={live || undefined}>
        {turn.blocks.map((block, index) => {
          if (block.kind === 'text') return <Markdown key={index} text={block.text} />
          if (block.kind === 'thinking') {
            return (
              <details key={index} className="thinking" aria-label="Thinking">
                <summary>Thinking</summary>
                <div className="thinking__text">{block.text}</div>
              </details>
            )
          }
          return <ToolCard key={block.toolUseId} tool={block} />
        })}
        {live && replyEmpty && <p className="typing">Thinking…</p>}
        {turn.limitQuestion && !turn.end && <TurnLimitQuestion turns={turn.limitQuestion.turns} />}
        {turn.pause && !turn.end && <PauseCard pause={turn.pause} />}
        {turn.notices.map((notice, index) => (
          <p key={`n${index}`} className={`notice notice--${notice.level}`}>
            {notice.message}
          </p>
        ))}
        {turn.memory && <MemoryLine memory={turn.memory} />}
        <TurnFooter turn={turn} before={before} />
      </div>
    </div>
  )
})

function TurnFooter({ turn, before }: { turn: Turn; before: Turn['usage'] }) {
  // The subagents this turn started: the same reckoning the status bar and the agent tree total.
  const agents = useSessionSpend((state) => state.agents[turn.key])
  const end = turn.end
  const failed = end && end.reason !== 'completed' && end.reason !== 'aborted'
  const recovery = describeRecovery(turn)
  return (
    <footer className="turn__footer">
      {recovery && <p className="turn__recovery">{recovery}</p>}
      {end && end.reason !== 'completed' && (
        <p className={failed ? 'turn__end turn__end--error' : 'turn__end'} role={failed ? 'alert' : undefined}>
          {END_LABEL[end.reason]}
          {end.message ? ` — ${end.message}` : ''}
        </p>
      )}
      {turn.usage && <UsageLine model={turn.usage.model} spend={turnSpend(turn.usage, before)} agents={agents} />}
    </footer>
  )
}

/**
 * This turn's tokens read (cached ones included, and named), tokens written, what the subagents it
 * started spent, and what it all cost: the figures the status bar and the agent tree add up.
 */
function UsageLine({ model, spend, agents }: { model: string; spend: TurnSpend; agents: Spend | undefined }) {
  const { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens } = spend
  const read = inputTokens + cacheReadTokens + cacheWriteTokens
  return (
    <p className="usage" aria-label="Usage" title={model}>
      {formatTokens(read)} in{cacheReadTokens > 0 && ` (${formatTokens(cacheReadTokens)} cached)`} ·{' '}
      {formatTokens(outputTokens)} out{agents && agents.tokens > 0 && ` · ${formatTokens(agents.tokens)} by subagents`} · {formatUsd(spend.costUsd + (agents?.costUsd ?? 0))}
    </p>
  )
}
