// Writes a definitions set back to schemas/ and workflows/ as git should see it: a file whose content is unchanged is
// not touched, a changed file is edited in place value by value (its own layout and key order kept: jsonc-parser's
// modify), a new file is written with two-space indentation, and a file the set no longer has is removed.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyEdits, format, modify, type JSONPath } from 'jsonc-parser';
import { readDefinitionFiles, type DefinitionFiles } from '../definitions.ts';
import { hashFiles } from './store.ts';

const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' };

interface Edit {
  path: JSONPath;
  value: unknown;
  insert?: boolean;
}

const same = (x: unknown, y: unknown) => hashFiles({ f: x }) === hashFiles({ f: y });

/** The edits from `before` to `after`, member by member; an array that grew or shrank by its changed middle alone. */
function editsOf(before: unknown, after: unknown, at: JSONPath, out: Edit[]): void {
  if (same(before, after)) return;
  const objects = before && after && typeof before === 'object' && typeof after === 'object';
  if (objects && Array.isArray(before) && Array.isArray(after)) {
    if (before.length === after.length) {
      before.forEach((v, i) => editsOf(v, after[i], [...at, i], out));
      return;
    }
    let head = 0;
    while (head < before.length && head < after.length && same(before[head], after[head])) head++;
    let tail = 0;
    while (tail < before.length - head && tail < after.length - head && same(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail++;
    for (let i = before.length - tail - 1; i >= head; i--) out.push({ path: [...at, i], value: undefined });
    for (let i = head; i < after.length - tail; i++) out.push({ path: [...at, i], value: after[i], insert: true });
    return;
  }
  if (objects && !Array.isArray(before) && !Array.isArray(after)) {
    const [b, a] = [before as Record<string, unknown>, after as Record<string, unknown>];
    for (const key of Object.keys(b)) if (!(key in a)) out.push({ path: [...at, key], value: undefined });
    for (const key of Object.keys(a)) editsOf(b[key], a[key], [...at, key], out);
    return;
  }
  out.push({ path: at, value: after });
}

/** The text of a file edited from `before` to `after`, keeping everything else of its layout. */
export function editedText(text: string, before: unknown, after: unknown): string {
  const edits: Edit[] = [];
  editsOf(before, after, [], edits);
  let next = text;
  for (const edit of edits) {
    if (!edit.path.length) return `${JSON.stringify(after, null, 2)}\n`;
    const changes = modify(next, edit.path, edit.value, { isArrayInsertion: edit.insert });
    next = applyEdits(next, changes);
    // Only the new text is laid out (formatting the edit's whole range would re-lay its neighbours).
    for (const change of changes.filter((c) => c.content).reverse()) {
      next = applyEdits(next, format(next, { offset: change.offset, length: change.content.length }, FORMAT));
    }
  }
  // Whatever the edits left must read back as the set's value; else the plain layout (never a wrong file).
  return same(JSON.parse(next), after) ? next : `${JSON.stringify(after, null, 2)}\n`;
}

/** Writes `files` under the project root; answers the paths written and removed. */
export async function exportFiles(root: string, files: DefinitionFiles): Promise<{ scritti: string[]; rimossi: string[] }> {
  const disk = await readDefinitionFiles(path.join(root, 'schemas'));
  const scritti: string[] = [];
  const rimossi: string[] = [];
  for (const [file, value] of Object.entries(files).sort(([x], [y]) => x.localeCompare(y))) {
    const target = path.join(root, file);
    if (file in disk && same(disk[file], value)) continue;
    const text = file in disk ? editedText(await readFile(target, 'utf8'), disk[file], value) : `${JSON.stringify(value, null, 2)}\n`;
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    scritti.push(file);
  }
  for (const file of Object.keys(disk).filter((f) => !(f in files)).sort()) {
    await rm(path.join(root, file));
    rimossi.push(file);
  }
  return { scritti, rimossi };
}
