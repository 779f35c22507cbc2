/**
 * A statement with named parameters (`:name`), turned into the driver's positional `?` form. Each value is bound by
 * its name, so adding, dropping or reordering a condition can never bind a value to the wrong placeholder (assembling
 * positional lists by conditional spreads could, silently). Casts (`::int`) and quoted text are left as they are.
 * `numbered` gives node-postgres's `$1` form instead, for statements sent past the ORM.
 */
export function named(text: string, params: Record<string, unknown>, numbered = false): [string, unknown[]] {
  const values: unknown[] = [];
  const used = new Set<string>();
  const sql = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|::|(?<![\w:]):([A-Za-z_]\w*)/g, (token, name: string | undefined) => {
    if (name === undefined) return token;
    if (!Object.hasOwn(params, name)) throw new Error(`No value for the SQL parameter :${name}`);
    used.add(name);
    values.push(params[name]);
    return numbered ? `$${values.length}` : '?';
  });
  const unused = Object.keys(params).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`Unused SQL parameters: ${unused.map((name) => `:${name}`).join(', ')}`);
  return [sql, values];
}
