import { useEffect, useRef, useState, type FormEvent } from 'react'
import { MEMORY_TYPE_HELP, MemoryType, memoryProblems, type MemoryProblem } from '../../../../shared/memory'
import { BodyEditor } from './BodyEditor'
import { MemoryActivityList } from './MemoryActivityList'
import { useMemory, type Draft } from './store'

/**
 * One memory: its frontmatter as a form and its body in Monaco, checked as the user types (type
 * from the four, description one line, name unique in its scope, Why/How for feedback). Save,
 * rename and delete (which asks first). A file that changed on disk while open is flagged before
 * anything is saved over it.
 */
export function MemoryEditor({ dark, fontSize, onOpenSession }: { dark: boolean; fontSize: number; onOpenSession(sessionId: string, projectPath: string): void }) {
  const draft = useMemory((state) => state.draft)
  const memories = useMemory((state) => state.memories)
  if (!draft) return null
  const others = memories.filter((memory) => memory.scope === draft.scope && memory.file !== draft.file).map((memory) => memory.name)
  const problems = memoryProblems(draft.fields, others)
  const fileProblems = draft.file ? (memories.find((memory) => memory.scope === draft.scope && memory.file === draft.file)?.problems ?? []) : []
  return <EditorForm key={`${draft.scope}/${draft.file ?? 'new'}`} draft={draft} problems={problems} fileProblems={fileProblems} dark={dark} fontSize={fontSize} onOpenSession={onOpenSession} />
}

function EditorForm({ draft, problems, fileProblems, dark, fontSize, onOpenSession }: { draft: Draft; problems: MemoryProblem[]; fileProblems: MemoryProblem[]; dark: boolean; fontSize: number; onOpenSession(sessionId: string, projectPath: string): void }) {
  const { edit: editDraft, save, select } = useMemory.getState()
  const [confirming, setConfirming] = useState<'delete' | 'rename' | null>(null)
  const isNew = draft.file === undefined
  // A new memory's form does not greet the user with errors: a field's problem shows once it was
  // edited (Create stays disabled until every field is right either way).
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  const edit = (fields: Partial<Draft['fields']>) => {
    setTouched((before) => new Set([...before, ...Object.keys(fields)]))
    editDraft(fields)
  }
  const shown = isNew ? problems.filter((problem) => touched.has(problem.field)) : problems
  const problemOf = (field: MemoryProblem['field']) => shown.find((problem) => problem.field === field)
  const types: string[] = MemoryType.options.includes(draft.fields.type as MemoryType) ? [...MemoryType.options] : [draft.fields.type, ...MemoryType.options]

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (problems.length === 0) void save()
  }
  return (
    <form className="memory-editor" aria-label={isNew ? 'New memory' : `Memory ${draft.fields.name || draft.file}`} onSubmit={submit} noValidate>
      {draft.conflict && <ConflictBanner kind={draft.conflict} />}
      {fileProblems.length > 0 && (
        <p className="memory-editor__warning" role="note">
          As it is on disk, this file is not a valid memory: {fileProblems.map((problem) => problem.message).join(' ')} Saving writes it in the right form.
        </p>
      )}
      <div className="memory-editor__fields">
        {isNew && (
          <label className="memory-editor__field">
            <span>Scope</span>
            <select className="field" value={draft.scope} onChange={(event) => select({ kind: 'new', scope: event.target.value as 'user' | 'project' })}>
              <option value="project">This project</option>
              <option value="user">Every project (user)</option>
            </select>
          </label>
        )}
        <Field label="Name" problem={problemOf('name')}>
          {(props) => <input {...props} className="field" value={draft.fields.name} onChange={(event) => edit({ name: event.target.value })} />}
        </Field>
        <Field label="Type" problem={problemOf('type')}>
          {(props) => (
            <select {...props} className="field" value={draft.fields.type} onChange={(event) => edit({ type: event.target.value })}>
              {types.map((type) => (
                <option key={type} value={type}>
                  {type}
                  {MEMORY_TYPE_HELP[type as MemoryType] ? ` — ${MEMORY_TYPE_HELP[type as MemoryType]}` : ' (not a memory type)'}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Description" problem={problemOf('description')} wide>
          {(props) => <input {...props} className="field" value={draft.fields.description} placeholder="One line: what it is about (decides when it is recalled)" onChange={(event) => edit({ description: event.target.value })} />}
        </Field>
      </div>
      <div className="memory-editor__body-label" id="memory-body-problem">
        <span>Body</span>
        {problemOf('body') && <span className="memory-editor__problem">{problemOf('body')!.message}</span>}
      </div>
      <BodyEditor identity={`${draft.scope}/${draft.file ?? 'new'}`} value={draft.fields.body} onChange={(body) => edit({ body })} dark={dark} fontSize={fontSize} invalid={problemOf('body') !== undefined} />
      <div className="memory-editor__actions">
        <button type="submit" className="button button--primary" disabled={problems.length > 0 || (!draft.dirty && !isNew) || draft.conflict !== undefined}>
          {isNew ? 'Create memory' : 'Save'}
        </button>
        {!isNew && (
          <>
            <button type="button" className="button" onClick={() => setConfirming('rename')}>
              Rename…
            </button>
            <button type="button" className="button" onClick={() => setConfirming('delete')}>
              Delete…
            </button>
          </>
        )}
        <span className="status" role="status">
          {shown.length > 0 ? `${shown.length} problem${shown.length === 1 ? '' : 's'} to fix before saving` : draft.dirty ? 'Unsaved changes' : ''}
        </span>
        {draft.file && <span className="memory-editor__file">{draft.file}</span>}
      </div>
      {confirming === 'delete' && <ConfirmDelete name={draft.fields.name || draft.file!} onDone={() => setConfirming(null)} />}
      {confirming === 'rename' && <RenameForm current={draft.fields.name} onDone={() => setConfirming(null)} />}
      {!isNew && <MemoryActivityList onOpenSession={onOpenSession} />}
    </form>
  )
}

type FieldProps = { id: string; 'aria-invalid': boolean | undefined; 'aria-describedby': string | undefined }

function Field({ label, problem, wide, children }: { label: string; problem?: MemoryProblem; wide?: boolean; children(props: FieldProps): React.ReactNode }) {
  const id = `memory-field-${label.toLowerCase()}`
  return (
    <div className={`memory-editor__field${wide ? ' memory-editor__field--wide' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? `${id}-problem` : undefined })}
      {problem && (
        <span id={`${id}-problem`} className="memory-editor__problem">
          {problem.message}
        </span>
      )}
    </div>
  )
}

function ConflictBanner({ kind }: { kind: 'changed' | 'deleted' }) {
  const { reloadDraft, keepDraft } = useMemory.getState()
  return (
    <div className="memory-editor__conflict" role="alert">
      <span>{kind === 'changed' ? 'This memory changed on disk since you opened it.' : 'This memory was deleted on disk since you opened it.'}</span>
      <button type="button" className="button button--small" onClick={() => void reloadDraft()}>
        {kind === 'changed' ? 'Load the version on disk' : 'Close it'}
      </button>
      <button type="button" className="button button--small" onClick={() => void keepDraft()}>
        Keep my edits
      </button>
    </div>
  )
}

function ConfirmDelete({ name, onDone }: { name: string; onDone(): void }) {
  const remove = useMemory((state) => state.remove)
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <div className="memory-editor__confirm" role="alertdialog" aria-label="Delete this memory?" aria-describedby="memory-delete-text">
      <p id="memory-delete-text">Delete “{name}”? Its file is removed; you can undo it from the list.</p>
      <button type="button" className="button button--primary" onClick={() => void remove().then(onDone)}>
        Delete
      </button>
      <button ref={cancel} type="button" className="button" onClick={onDone}>
        Cancel
      </button>
    </div>
  )
}

function RenameForm({ current, onDone }: { current: string; onDone(): void }) {
  const rename = useMemory((state) => state.rename)
  const [name, setName] = useState(current)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.select(), [])
  return (
    <div className="memory-editor__confirm" role="group" aria-label="Rename this memory">
      <label>
        New name{' '}
        <input ref={input} className="field" value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="button" className="button button--primary" disabled={name.trim() === '' || name.trim() === current.trim()} onClick={() => void rename(name.trim()).then((done) => done && onDone())}>
        Rename
      </button>
      <button type="button" className="button" onClick={onDone}>
        Cancel
      </button>
    </div>
  )
}
