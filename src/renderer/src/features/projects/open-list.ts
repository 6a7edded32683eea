import type { Project } from '../../../../shared/ipc/contract'

/** The open projects after opening `project`: added at the end unless already open. Pure. */
export function withProject(open: readonly Project[], project: Project): Project[] {
  return open.some((p) => p.path === project.path)
    ? open.map((p) => (p.path === project.path ? project : p))
    : [...open, project]
}
