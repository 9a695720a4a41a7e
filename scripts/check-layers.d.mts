// Types for scripts/check-layers.mjs, so the TypeScript tests can import its functions.

/**
 * An import that goes against the layer order of docs/architecture.md, leaves src/, or closes a
 * cycle of imports inside a folder.
 */
export interface LayerViolation {
  /** The importing file, relative to the root, e.g. `src/archiver/archiver.ts`. */
  file: string;
  /** The imported file, relative to the root. */
  target: string;
  /** The importing file's table entry: a folder name, or a file name directly in src/. */
  from: string;
  fromLayer: number;
  /** The imported file's entry; undefined for an import that leaves src/. */
  to: string | undefined;
  toLayer: number | undefined;
  /** For a cycle inside a folder: its files, in import order from the first. */
  cycle?: string[];
  /** The line the CLI prints. */
  message: string;
}

export interface LayerCheck {
  violations: LayerViolation[];
  /** Problems with the table or the tree (unlisted folders, missing section, ...). */
  errors: string[];
  files: number;
  imports: number;
}

export function checkLayers(options: { root: string }): LayerCheck;

export function parseLayerTable(
  markdown: string,
  docName?: string,
): { layers: Map<string, number>; errors: string[] };
