import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';

/** The sizes tried for every list argument and page size, largest first: each bound the server has is one of them. */
export const SIZE_LADDER = [100, 50, 30, 20, 10, 5, 1] as const;

/** `Type.field.argument`: where a size is given. */
export type SizeCoordinate = string;

/** What the operation builder needs from the data: a value for each argument it has no rule for, by its coordinate. */
export interface ArgumentValues {
  /** A value for an argument of this coordinate and type, or undefined to leave it out (only optional ones). */
  value(coordinate: string, type: GraphQLInputType, index: number): unknown;
}

export interface BuiltOperation {
  query: string;
  variables: Record<string, unknown>;
  /** The alias of each field that takes a size, to the coordinates of its sized arguments. */
  sizedAliases: Map<string, SizeCoordinate[]>;
}

const PAGE_SIZE_NAMES = new Set(['first', 'limit']);
const SKIPPED_ARGUMENTS = new Set(['last', 'after', 'before']);

const unwrap = (type: GraphQLInputType): GraphQLInputType => (isNonNullType(type) ? type.ofType : type);

/**
 * Operations a hostile client could send for one root field: every argument the field takes at its largest size
 * (`sizes`), the selection every field of the answer to `depth` levels (each abstract type through each of its types),
 * repeated under `aliases` names.
 */
export class OperationBuilder {
  private variableCount = 0;
  private aliasCount = 0;
  /** Which copy of the root field is being written: single values vary with it (each alias may ask for another id). */
  private copy = 0;
  private variables: Record<string, unknown> = {};
  private declarations: string[] = [];
  private sizedAliases = new Map<string, SizeCoordinate[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly values: ArgumentValues,
    private readonly sizes: Map<SizeCoordinate, number>,
  ) {}

  build(
    operation: 'query' | 'mutation',
    field: GraphQLField<unknown, unknown>,
    options: { depth: number; aliases: number },
  ): BuiltOperation {
    this.variableCount = 0;
    this.aliasCount = 0;
    this.variables = {};
    this.declarations = [];
    this.sizedAliases = new Map();
    const root = operation === 'query' ? this.schema.getQueryType() : this.schema.getMutationType();
    if (!root) throw new Error(`no ${operation} type`);
    const selections: string[] = [];
    for (let copy = 0; copy < options.aliases; copy++) {
      this.copy = copy;
      selections.push(this.fieldSelection(root.name, field, options.depth));
    }
    const declared = this.declarations.length > 0 ? `(${this.declarations.join(', ')})` : '';
    return {
      query: `${operation} Maximal${declared} { ${selections.join(' ')} }`,
      variables: this.variables,
      sizedAliases: this.sizedAliases,
    };
  }

  private fieldSelection(parent: string, field: GraphQLField<unknown, unknown>, depth: number): string {
    const alias = `f${this.aliasCount++}`;
    const passed: string[] = [];
    const sized: SizeCoordinate[] = [];
    for (const argument of field.args) {
      const coordinate = `${parent}.${field.name}.${argument.name}`;
      const value = this.argumentValue(coordinate, argument);
      if (value === undefined) continue;
      if (this.isSized(argument)) sized.push(coordinate);
      const variable = `v${this.variableCount++}`;
      this.variables[variable] = value;
      this.declarations.push(`$${variable}: ${String(argument.type)}`);
      passed.push(`${argument.name}: $${variable}`);
    }
    if (sized.length > 0) this.sizedAliases.set(alias, sized);
    const args = passed.length > 0 ? `(${passed.join(', ')})` : '';
    return `${alias}: ${field.name}${args}${this.selectionOf(field.type, depth - 1)}`;
  }

  private isSized(argument: GraphQLArgument): boolean {
    return isListType(unwrap(argument.type)) || PAGE_SIZE_NAMES.has(argument.name);
  }

  private argumentValue(coordinate: string, argument: GraphQLArgument): unknown {
    if (SKIPPED_ARGUMENTS.has(argument.name)) return undefined;
    const type = unwrap(argument.type);
    if (PAGE_SIZE_NAMES.has(argument.name)) return this.sizes.get(coordinate) ?? SIZE_LADDER[0];
    if (argument.defaultValue !== undefined && !isListType(type)) return undefined;
    if (isListType(type)) {
      const size = this.sizes.get(coordinate) ?? SIZE_LADDER[0];
      return Array.from({ length: size }, (_, index) => this.values.value(coordinate, type.ofType, index));
    }
    return this.values.value(coordinate, argument.type, this.copy);
  }

  /** Leaves get an alias of their own too: the same name may have another type on another type of an abstract field. */
  private leafSelection(name: string): string {
    return `f${this.aliasCount++}: ${name}`;
  }

  private selectionOf(type: GraphQLOutputType, depth: number): string {
    const named: GraphQLNamedType = getNamedType(type);
    if (isLeafType(named)) return '';
    const parts = ['__typename'];
    if (depth > 0) {
      const objects = isAbstractType(named) ? this.schema.getPossibleTypes(named) : isObjectType(named) ? [named] : [];
      for (const object of objects) {
        const fields = Object.values(object.getFields())
          .filter((field) => field.args.every((argument) => !isNonNullType(argument.type) || argument.defaultValue !== undefined))
          .map((field) =>
            isLeafType(getNamedType(field.type)) ? this.leafSelection(field.name) : this.fieldSelection(object.name, field, depth),
          );
        parts.push(isAbstractType(named) ? `... on ${object.name} { ${fields.join(' ')} }` : fields.join(' '));
      }
    }
    return ` { ${parts.join(' ')} }`;
  }
}
