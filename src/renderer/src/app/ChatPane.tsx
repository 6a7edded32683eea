import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../api'
import { ApprovalPanel } from '../features/approvals/ApprovalPanel'
import { Composer } from '../features/chat/Composer'
import { Conversation } from '../features/chat/Conversation'
import { isRunning } from '../features/chat/reducer'
import { SandboxBanner } from '../features/chat/SandboxBanner'
import { useChat } from '../features/chat/store'
import { StatusBar } from '../features/status-bar/StatusBar'
import { RewindDialog } from '../features/rewind/RewindDialog'
import { useRewind } from '../features/rewind/store'
import { TurnMarker } from '../features/rewind/TurnMarker'
import { useTasks } from '../features/tasks/store'
import { useSessionOnScreen } from '../state/session'
import { currentActivity } from '../features/tasks/task-list'
import { openPlanFile } from './plan-glue'
import { openSessionInChat } from './session-glue'
import { showView } from './show-view'
import { useSpendReckoning } from './spend-glue'
import { TimelinePane } from './TimelinePane'
import { useReplayTranscript } from './use-replay'
import { VIEWS } from './views'
import { exitReplay } from '../features/timeline/replay-store'
import '../features/chat/chat.css'

/** Opens the rewind picker for the session on screen; false when there is none yet. */
function openRewind(sessionId: string | null): boolean {
  if (!sessionId) return false
  void useRewind.getState().open(sessionId)
  return true
}

/**
 * Talk to the agent about the project at `projectPath`: the conversation, the approvals it waits
 * for, the composer and the status bar (with the task in progress). Composed here, in the shell,
 * because it joins features (chat, approvals, status bar, tasks) that never import each other.
 */
export function ChatPane({ projectPath }: { projectPath: string }) {
  const sessionId = useSessionOnScreen((state) => state.sessionId)
  const { transcript, sending, stopping, error, reset, send, stop, newConversation, mode, modeError, autoModeOff, setMode, model, setModel, compact, setReasoning } = useChat()
  const running = isRunning(transcript)
  // A replay shows the session as it stood at the replay's step, in place of the live conversation.
  const replayed = useReplayTranscript()
  // A new prompt is about the session as it is now: it ends a replay.
  const sendNow = useCallback((text: string, images?: Parameters<typeof send>[1]) => {
    exitReplay()
    return send(text, images)
  }, [send])
  const tasks = useTasks((state) => (sessionId ? state.lists[sessionId]?.tasks : undefined))
  const activity = useMemo(() => (tasks ? currentActivity(tasks) : undefined), [tasks])

  useEffect(() => reset(projectPath), [projectPath, reset])
  // One reckoning of what the session spent, for the footers, the status bar and the agent tree.
  useSpendReckoning(sessionId, transcript.turns)
  // The model new turns use, for the status bar before the first reply names one.
  const [configuredModel, setConfiguredModel] = useState<string>()
  useEffect(() => {
    let current = true
    void api.invoke('settings.endpoint', {}).then((result) => {
      if (current && result.ok) setConfiguredModel(result.value.model)
    })
    return () => {
      current = false
    }
  }, [projectPath])

  return (
    <section className="pane chat-pane" aria-label="Chat">
      <header className="pane__header">
        <h2 className="pane__title">Chat</h2>
        <span className="status" role="status">
          {stopping ? 'Stopping…' : running ? 'Responding…' : sending ? 'Sending…' : ''}
        </span>
      </header>
      <SandboxBanner />
      <Conversation transcript={replayed ?? transcript} Marker={replayed ? undefined : TurnMarker} />
      <TimelinePane running={running || sending} />
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
      <ApprovalPanel sessionId={sessionId} onOpenPlan={openPlanFile} />
      <Composer
        draftKey={`${projectPath}\n${sessionId ?? 'new'}`}
        projectPath={projectPath}
        commands={{
          newConversation,
          setMode: (next) => void setMode(next),
          setModel,
          setReasoning,
          showView: (id) => showView(VIEWS, id),
          // The one chosen for the next request, else the model of the latest reply.
          currentModel: () => model ?? transcript.turns.findLast((turn) => turn.usage)?.usage?.model,
          compact: (instructions) => void compact(instructions),
          rewind: () => openRewind(sessionId),
        }}
        onRewind={() => openRewind(sessionId)}
        running={running}
        sending={sending}
        stopping={stopping}
        onSend={sendNow}
        onStop={() => void stop()}
      />
      <StatusBar
        transcript={transcript}
        mode={mode}
        modeProblem={modeError ?? undefined}
        setMode={setMode}
        autoModeOff={autoModeOff}
        // A task left in progress says nothing about now once the turn is over.
        {...(running && activity && { activity })}
        {...((model ?? configuredModel) && { configuredModel: model ?? configuredModel })}
      />
      <RewindDialog
        // The conversation was replaced on disk: show it as the session now has it.
        onConversationRewound={(rewound) => void openSessionInChat(projectPath, rewound)}
        onForked={(forked) => void openSessionInChat(projectPath, forked)}
      />
    </section>
  )
}
