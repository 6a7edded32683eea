import type { Toolset } from '../main/session/session'

/**
 * The core tools for a headless session, imported on demand so `sous -p` starts fast. Bash runs
 * on a real PTY; the PTY service, background shells and the file-state cache live as long as the
 * session and are disposed with it.
 */
export async function createHeadlessToolset(cwd: string): Promise<Toolset> {
  const [{ NodePtyService }, { createCoreTools }, { createToolSession }] = await Promise.all([
    import('../main/pty/node-pty-service'),
    import('../main/tools/registry'),
    import('../main/tools/tool-session'),
  ])
  const pty = new NodePtyService()
  const session = createToolSession({ cwd })
  return {
    tools: createCoreTools({ pty }),
    context: { fileState: session.fileState, shell: session.shell },
    async dispose() {
      await session.dispose()
      await pty.dispose()
    },
  }
}
