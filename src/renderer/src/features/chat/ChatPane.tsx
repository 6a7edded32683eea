import { useEffect } from 'react'
import { ApprovalPanel } from '../approvals/ApprovalPanel'
import { StatusBar } from '../status-bar/StatusBar'
import { Composer } from './Composer'
import { Conversation } from './Conversation'
import { isRunning } from './reducer'
import { SandboxBanner } from './SandboxBanner'
import { useChat } from './store'
import './chat.css'

/** Talk to the agent about the project at `projectPath`. */
export function ChatPane({ projectPath }: { projectPath: string }) {
  const { sessionId, transcript, sending, stopping, error, reset, send, stop, newConversation, setMode } = useChat()
  const running = isRunning(transcript)

  useEffect(() => reset(projectPath), [projectPath, reset])

  return (
    <section className="pane chat-pane" aria-label="Chat">
      <header className="pane__header">
        <h2 className="pane__title">Chat</h2>
        <span className="status" role="status">
          {stopping ? 'Stopping…' : running ? 'Responding…' : sending ? 'Sending…' : ''}
        </span>
      </header>
      <SandboxBanner />
      <Conversation transcript={transcript} />
      {error && (
        <p className="pane__error" role="alert">
          {error}
        </p>
      )}
      <ApprovalPanel sessionId={sessionId} />
      <Composer
        draftKey={`${projectPath}\n${sessionId ?? 'new'}`}
        projectPath={projectPath}
        commands={{ newConversation, setMode: (mode) => void setMode(mode) }}
        running={running}
        sending={sending}
        stopping={stopping}
        onSend={send}
        onStop={() => void stop()}
      />
      <StatusBar transcript={transcript} />
    </section>
  )
}
