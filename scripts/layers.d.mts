export interface Specifier {
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}
export interface Layers {
  files: Map<string, string[]>;
  folders: Map<string, string[]>;
  folderEdges: Map<string, string[]>;
  fileCircles: string[][];
  folderCycles: string[][];
  forbidden: string[];
}
export const FORBIDDEN: [string, string][];
export const ONLY: Record<string, string[]>;
export function specifiers(text: string): Specifier[];
export function folderOf(file: string): string;
export function circles(nodes: readonly string[], edgesOf: (node: string) => string[]): string[][];
export function layers(srcDir: string, opts?: { types?: boolean }): Layers;
