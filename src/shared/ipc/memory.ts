import { z } from 'zod'
import { MemoryFields, MemoryProblem, MemoryScope } from '../memory'
import { AbsPath, Id } from './common'

/** A memory file's name within its folder (checked again, strictly, in main). */
const FileName = z.string().min(1).max(200)
/** The version of a file as the renderer last saw it (a hash of its bytes). */
const Version = z.string().max(100)

/** One memory as the browser lists it. */
export const MemoryDocument = z.object({
  scope: MemoryScope,
  file: FileName,
  /** Absolute path of the file (what the model reads on demand). */
  path: z.string(),
  name: z.string(),
  description: z.string(),
  /** As written in the file (may be none of the four when the file is malformed). */
  type: z.string(),
  body: z.string(),
  /** Empty for a valid memory. */
  problems: z.array(MemoryProblem),
  /** An older memory of the same scope has the same name. */
  duplicateOf: z.string().optional(),
  updatedAt: z.number(),
  version: Version,
})
export type MemoryDocument = z.infer<typeof MemoryDocument>

/** An index (`MEMORY.md`) and its size against the limits. */
export const MemoryIndexSize = z.object({
  lines: z.number(),
  bytes: z.number(),
  maxLines: z.number(),
  maxBytes: z.number(),
  /** Memories the index lists, and those left out because it is full. */
  listed: z.number(),
  omitted: z.number(),
})
export type MemoryIndexSize = z.infer<typeof MemoryIndexSize>

/** One of a project's two memory folders. */
export const MemoryFolderInfo = z.object({
  scope: MemoryScope,
  dir: z.string(),
  /** Why it is there: Claude Code's folder, its `autoMemoryDirectory`, or under `$SOUS_HOME`. */
  source: z.enum(['claude', 'autoMemoryDirectory', 'sous']),
  index: MemoryIndexSize,
})
export type MemoryFolderInfo = z.infer<typeof MemoryFolderInfo>

/** A write the agent proposed while writes wait for approval. */
export const MemoryProposal = z.object({
  id: Id,
  scope: MemoryScope,
  file: FileName,
  /** `create` for a new file, `update` to replace one. */
  action: z.enum(['create', 'update']),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  body: z.string(),
  /** The body it would replace (updates). */
  previousBody: z.string().optional(),
  sessionId: z.string(),
  at: z.number(),
})
export type MemoryProposal = z.infer<typeof MemoryProposal>

/** A session that recalled or wrote a memory. */
export const MemoryActivity = z.object({
  sessionId: z.string(),
  projectPath: z.string(),
  /** The session's title, when its transcript is still there. */
  title: z.string().optional(),
  action: z.enum(['recalled', 'created', 'updated']),
  at: z.number(),
})
export type MemoryActivity = z.infer<typeof MemoryActivity>

/** What changed in a memory folder, and who did it. */
export const MemoryChange = z.object({
  scope: MemoryScope,
  /** The folder, so a browser shows only changes of the folders it lists. */
  dir: z.string(),
  file: FileName,
  change: z.enum(['created', 'updated', 'deleted', 'renamed', 'proposed', 'rejected', 'undone']),
  by: z.enum(['agent', 'user']),
  /** The memory's name (for a person's message). */
  name: z.string().optional(),
  /** The file it was renamed from. */
  from: z.string().optional(),
  /** Pass to `memory.undo` to take the change back. */
  changeId: Id.optional(),
  /** The session whose agent made or proposed it. */
  sessionId: z.string().optional(),
})
export type MemoryChange = z.infer<typeof MemoryChange>

const Ref = { projectPath: AbsPath, scope: MemoryScope, file: FileName }

/** `memory.*`: the memory browser — list, edit, rename, delete, undo, approve, and what the model sees. */
export const memoryRequests = {
  /** Both folders of a project with every memory (malformed files included), and pending proposals. */
  'memory.list': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.object({ folders: z.array(MemoryFolderInfo), memories: z.array(MemoryDocument), proposals: z.array(MemoryProposal) }),
  },
  /**
   * Creates a memory (no `file`: named after it) or replaces one the user last saw at `version`.
   * A file changed on disk since is a CONFLICT; invalid fields are INVALID_INPUT.
   */
  'memory.save': {
    input: z.object({ projectPath: AbsPath, scope: MemoryScope, file: FileName.optional(), version: Version.optional(), fields: MemoryFields }).strict(),
    output: z.object({ memory: MemoryDocument, changeId: Id }),
  },
  /** Gives a memory a new name, and the file a name to match. */
  'memory.rename': {
    input: z.object({ ...Ref, version: Version, name: z.string().min(1).max(1000) }).strict(),
    output: z.object({ memory: MemoryDocument, changeId: Id }),
  },
  /** Deletes a memory the user last saw at `version`. */
  'memory.delete': { input: z.object({ ...Ref, version: Version }).strict(), output: z.object({ changeId: Id }) },
  /** Takes a change back (the file must still be as the change left it). */
  'memory.undo': { input: z.object({ changeId: Id }).strict(), output: z.void() },
  /** Applies or drops a write the agent proposed. */
  'memory.decide': { input: z.object({ proposalId: Id, accept: z.boolean() }).strict(), output: z.void() },
  /** Sessions that recalled or wrote a memory, newest first. */
  'memory.activity': { input: z.object(Ref).strict(), output: z.array(MemoryActivity) },
  /**
   * The memory part of the system prompt, exactly as a new session of the project gets it while
   * memory is on (`enabled`; when it is off, sessions get none of it).
   */
  'memory.prompt': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.object({ text: z.string(), folders: z.array(MemoryFolderInfo), enabled: z.boolean() }),
  },
} as const

export const memoryEvents = {
  /** A memory was written, deleted, renamed, proposed or undone (by the agent or in a browser). */
  'memory.changed': MemoryChange,
} as const
