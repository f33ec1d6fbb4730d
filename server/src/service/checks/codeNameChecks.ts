/**
 * code.name-format, code.unknown-category, code.category-prefix, code.redefines-registry: the names
 * and categories of custom codes in error_codes.
 */
import { Code, type NameFormatData, type UnknownCategoryData, type CategoryPrefixData } from '../codes';
import { closest } from '../util/closest';
import { CODE_NAME, prefixCategory, toUpperSnake } from '../util/naming';
import type { CodeDef } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import type { Check, Problem } from './types';

export const codeNames: Check = {
  name: 'codeNames',
  run({ model, registry }, emit) {
    for (const c of model.codes) codeNameProblems(c, registry, emit);
  },
};

/**
 * The UPPER_SNAKE form of a name, starting with its category's prefix when the category is a registry
 * one (`ticketLocked` of CONFLICT → CONFLICT_TICKET_LOCKED): the rename satisfies both naming rules.
 */
function withCategoryPrefix(snake: string, c: CodeDef, registry: RegistryIndex): string {
  const value = typeof c.category?.value === 'string' ? c.category.value.replace(/_$/, '') : undefined;
  if (!value || value === 'SCHEMA' || !registry.categoryNames.includes(value) || snake.startsWith(value)) return snake;
  if (registry.byCode.get(snake)?.category === value) return snake;
  const other = prefixCategory(snake, registry.categoryNames);
  return `${value}_${other ? snake.slice(other.length + 1) : snake.replace(/^E_/, '')}`;
}

/** The problems of one error_codes entry: reads the entry and the registry only (cached per entry). */
export function codeNameProblems(c: CodeDef, registry: RegistryIndex, emit: (p: Problem) => void): void {
  const formatOk = CODE_NAME.test(c.name);
  if (!formatOk) {
    const suggestion = withCategoryPrefix(toUpperSnake(c.name), c, registry);
    emit({
      code: Code.CodeNameFormat,
      start: c.keySpan.start,
      end: c.keySpan.end,
      message: `Rename to '${suggestion}': code '${c.name}' is not UPPER_SNAKE_CASE (^[A-Z][A-Z0-9_]*$, required of error.code by operation-result.schema.json).`,
      data: { name: c.name, suggestion } satisfies NameFormatData,
    });
  }
  if (registry.byCode.has(c.name)) {
    emit({
      code: Code.CodeRedefinesRegistry,
      start: c.keySpan.start,
      end: c.keySpan.end,
      message: `'${c.name}' is a registry code; redefining it changes what clients that branch on it receive. Give the custom code its own name.`,
    });
  }
  const cat = c.category;
  if (!cat || typeof cat.value !== 'string') return;
  const value = cat.value.replace(/_$/, '');
  if (value === 'SCHEMA') {
    emit({
      code: Code.CodeUnknownCategory,
      level: 'warning',
      start: cat.span.start,
      end: cat.span.end,
      message: 'SCHEMA_ codes are generator-time only (generator.md s2.2): an adapter never returns them at run time.',
      data: { value: cat.value, suggestions: [] } satisfies UnknownCategoryData,
    });
    return;
  }
  if (!registry.categoryNames.includes(value)) {
    const cats = registry.categoryNames.filter(x => x !== 'SCHEMA');
    const suggestions = closest(value, cats, 3);
    emit({
      code: Code.CodeUnknownCategory,
      start: cat.span.start,
      end: cat.span.end,
      message: `${suggestions.length ? `Did you mean ${suggestions[0]}? ` : ''}Unknown category '${cat.value}'. Categories: ${cats.join(', ')}.`,
      data: { value: cat.value, suggestions } satisfies UnknownCategoryData,
    });
    return;
  }
  if (formatOk && !c.name.startsWith(value + '_') && !(registry.byCode.get(c.name)?.category === value)) {
    const other = prefixCategory(c.name, registry.categoryNames);
    const rest = other ? c.name.slice(other.length + 1) : c.name;
    const renameTo = `${value}_${rest}`;
    emit({
      code: Code.CodeCategoryPrefix,
      start: c.keySpan.start,
      end: c.keySpan.end,
      message: `Rename to '${renameTo}'${other ? ` or change the category to ${other}` : ''}: code '${c.name}' has category ${value} but does not start with '${value}_' (naming convention CATEGORY_SPECIFIC_CONDITION, error-codes.md s3.1).`,
      data: { name: c.name, category: value, renameTo, prefixCategory: other } satisfies CategoryPrefixData,
    });
  }
}
