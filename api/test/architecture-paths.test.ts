import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { expect, test } from 'vitest';

/**
 * ARCHITECTURE.md says where things are; this keeps it true. Every path it names must exist: the entries of its tree
 * blocks (nested by indentation) and the file names in their descriptions (under that entry or a folder above it), and every
 * backticked path in the prose. A prose path from a top folder (`api/...`, `web/...`) is read from the repository's
 * root; a shorter one (`shared/inputs.ts`, `commands/*.ts`, `mix.policy.ts`) is relative to the folder being described,
 * so it must be the end of some path in the tree. URL paths (`/api/...`) and placeholders (`<domain>`) are not files.
 */
const ROOT = join(import.meta.dirname, '../..');
const TOP_FOLDERS = ['api/', 'web/', 'bench/', 'scripts/', 'schema/', 'docs/'];
const FILE_EXTENSIONS = ['ts', 'tsx', 'mjs', 'js', 'json', 'md', 'graphql', 'html', 'css', 'yml'];
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'dist-server', 'data', 'coverage']);

/** Every file and folder of the repository (folders with a trailing slash), relative to its root. */
function repositoryPaths(): string[] {
  const paths: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        paths.push(`${folder}${entry.name}/`);
        walk(`${folder}${entry.name}/`);
      } else {
        paths.push(`${folder}${entry.name}`);
      }
    }
  };
  walk('');
  return paths;
}

const PATHS = repositoryPaths();
const escaped = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
/** A path, with `*` standing for any part of one name, as a pattern over repository paths (ending at `end`). */
const pattern = (path: string, start: string) => new RegExp(`${start}${escaped(path).replace(/\*/g, '[^/]*')}$`);

/** The repository holds exactly this path from its root. */
const existsFromRoot = (path: string) => PATHS.some((known) => pattern(path, '^').test(known));
/** Some path of the repository under `folder` ends with this one (a path relative to a folder inside it). */
const existsUnder = (folder: string, path: string) => PATHS.some((known) => known.startsWith(folder) && pattern(path, '(^|/)').test(known));

const isFileName = (token: string) => FILE_EXTENSIONS.some((extension) => token.endsWith(`.${extension}`));
const PATH_TOKEN = /^[\w.@*-]+(\/[\w.@*-]+)*\/?$/;
/** A backticked span that names a file or folder (not a URL path, a placeholder, a command or an identifier). */
const isPathToken = (token: string) => PATH_TOKEN.test(token) && !/^\.\w+$/.test(token) && (token.includes('/') || isFileName(token));

interface Claim {
  path: string;
  /** Where it was said: the line of ARCHITECTURE.md. */
  line: number;
  exists: boolean;
}

function proseClaims(lines: readonly string[], inBlock: readonly boolean[]): Claim[] {
  return lines.flatMap((text, index) => {
    if (inBlock[index]) return [];
    return [...text.matchAll(/`([^`]+)`/g)]
      .map((match) => match[1])
      .filter(isPathToken)
      .map((path) => ({
        path,
        line: index + 1,
        exists: TOP_FOLDERS.some((top) => path.startsWith(top)) ? existsFromRoot(path) : existsUnder('', path),
      }));
  });
}

const DESCRIBED_FILE = new RegExp(`(?<![\\w/.-])(?:[a-z0-9_-]+/)*[a-z0-9_.*-]+\\.(?:${FILE_EXTENSIONS.join('|')})(?![\\w])`, 'g');
const DESCRIBED_FOLDER = /(?<![\w/.-])[a-z0-9_-]+\/(?=[\s:,)]|$)/g;
const TREE_ENTRY = /^( {0,8})(\S+)/;

/**
 * A tree block: each entry's path is its parent folder's (by indentation) plus its first word; the words of its
 * description that name files or folders are somewhere under it or under one of its parents (or, with a top folder,
 * from the root).
 */
function treeClaims(block: readonly { text: string; line: number }[]): Claim[] {
  const claims: Claim[] = [];
  const parents: { indent: number; folder: string }[] = [];
  let folders = [''];
  for (const { text, line } of block) {
    const entry = TREE_ENTRY.exec(text);
    let description = text;
    if (entry && isPathToken(entry[2].replace(/<[^>]+>\//, ''))) {
      const indent = entry[1].length;
      while (parents.length > 0 && parents[parents.length - 1].indent >= indent) parents.pop();
      const parent = parents[parents.length - 1]?.folder ?? '';
      // `modules/<domain>/` describes every domain folder: what it names is somewhere under modules/.
      const path = parent + entry[2].replace(/<[^>]+>\/$/, '');
      claims.push({ path, line, exists: existsFromRoot(path) });
      if (path.endsWith('/')) parents.push({ indent, folder: path });
      const own = path.endsWith('/') || posix.dirname(path) === '.' ? [] : [`${posix.dirname(path)}/`];
      folders = [...own, ...parents.map(({ folder }) => folder)];
      if (folders.length === 0) folders = [''];
      description = text.slice(entry[0].length);
    }
    for (const [named] of [...description.matchAll(DESCRIBED_FILE), ...description.matchAll(DESCRIBED_FOLDER)]) {
      const fromRoot = TOP_FOLDERS.some((top) => named.startsWith(top));
      const exists = fromRoot ? existsFromRoot(named) : folders.some((folder) => existsUnder(folder, named));
      claims.push({ path: named, line, exists });
    }
  }
  return claims;
}

function architectureClaims(markdown: string): Claim[] {
  const lines = markdown.split('\n');
  const inBlock = lines.map(() => false);
  const claims: Claim[] = [];
  let block: { text: string; line: number }[] | null = null;
  let language = '';
  lines.forEach((text, index) => {
    const fence = /^```(\S*)/.exec(text);
    if (fence) {
      inBlock[index] = true;
      // Diagrams (box-drawing lines) and code in a named language are not trees.
      if (block && !language && !block.some((row) => /[\u2500-\u257f]/.test(row.text))) claims.push(...treeClaims(block));
      block = block ? null : [];
      language = fence[1];
      return;
    }
    if (block) {
      inBlock[index] = true;
      block.push({ text, line: index + 1 });
    }
  });
  return [...claims, ...proseClaims(lines, inBlock)];
}

test('every path ARCHITECTURE.md names exists', () => {
  const claims = architectureClaims(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
  expect(claims.length).toBeGreaterThan(50);
  expect(claims.filter((claim) => !claim.exists).map((claim) => `line ${claim.line}: ${claim.path}`)).toEqual([]);
});

test('the check tells a moved file from one that is there', () => {
  const tree = [
    '```',
    'api/src/',
    '  http/              the app (errors.ts, gone.ts)',
    '```',
    '`shared/inputs.ts` and `shared/nowhere.ts`',
  ];
  const missing = architectureClaims(tree.join('\n')).filter((claim) => !claim.exists);
  expect(missing.map((claim) => claim.path)).toEqual(['gone.ts', 'shared/nowhere.ts']);
});
