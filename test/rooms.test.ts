import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layering docs/architecture.md ("The house, measured") describes: rooms are the folders
 * and top-level files of src/, an arrow is a relative import (static, re-export or dynamic
 * with a literal path), and no room may reach a room that reaches it back.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\s*\(?\s*['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

const roomOf = (file: string): string => {
  const [first, ...rest] = relative(SRC, file).split(sep);
  return rest.length > 0 ? `${first}/` : (first ?? '');
};

/** room → the rooms it imports, with one file that does it for each. */
function roomArrows(): Map<string, Map<string, string>> {
  const arrows = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = roomOf(file);
    const out = arrows.get(from) ?? new Map<string, string>();
    arrows.set(from, out);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), m[1] ?? m[2] ?? ''));
      if (!target.startsWith(SRC + sep)) continue;
      const to = roomOf(target);
      if (to !== from && !out.has(to)) out.set(to, relative(SRC, file));
    }
  }
  return arrows;
}

/** A loop of rooms, or undefined when the arrows have none (depth-first search). */
function findLoop(arrows: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): string[] | undefined => {
    if (state.get(room) === 'done') return undefined;
    if (state.get(room) === 'open') return [...path.slice(path.indexOf(room)), room];
    state.set(room, 'open');
    path.push(room);
    for (const next of arrows.get(room)?.keys() ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    state.set(room, 'done');
    return undefined;
  };
  for (const room of arrows.keys()) {
    const loop = visit(room);
    if (loop) return loop;
  }
  return undefined;
}

describe('the rooms of src/', () => {
  const arrows = roomArrows();

  it('import each other without a loop', () => {
    const loop = findLoop(arrows);
    const why = loop?.slice(1).map((to, i) => `${loop[i]} -> ${to} (${arrows.get(loop[i] ?? '')?.get(to)})`);
    expect(why, 'rooms that import each other around a loop').toBeUndefined();
  });

  it('stand on storage and the ground: store/ imports only config/ and domain/, and those nothing', () => {
    const imported = (room: string) => [...(arrows.get(room)?.keys() ?? [])].sort();
    expect(imported('store/')).toEqual(['config/', 'domain/']);
    expect(imported('domain/')).toEqual([]);
    expect(imported('config/')).toEqual([]);
  });

  it('finds the arrows it checks (a guard against a pattern that matches nothing)', () => {
    expect(arrows.get('compose/')?.has('store/')).toBe(true);
    expect(arrows.get('index/')?.has('store/')).toBe(true);
  });
});
