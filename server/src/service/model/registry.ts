/** The registry as data (schemas/error-registry.json), typed, plus the lookups every feature needs. */

interface DetailSpec {
  readonly type: string;
  readonly required?: boolean;
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly note?: string;
  readonly description?: string;
  readonly example?: unknown;
}

export interface RegistryCode {
  readonly code: string;
  readonly category: string;
  readonly kind: 'error' | 'warning';
  readonly phase: string;
  readonly description: string;
  readonly message_template: string | null;
  readonly details?: Readonly<Record<string, DetailSpec>>;
  readonly http_status: readonly number[];
  readonly recovery?: { readonly text: string; readonly source: string } | null;
  readonly mcp_recoverable?: boolean | null;
  readonly severity?: unknown;
  readonly sources?: readonly string[];
}

interface RegistryCategory {
  readonly prefix: string;
  readonly name: string;
  readonly description: string;
  readonly http_range: readonly number[];
  readonly http_range_min?: number;
}

export interface PlaceholderAlias {
  readonly key: string;
  readonly join?: string;
}

export interface Registry {
  readonly categories: readonly RegistryCategory[];
  readonly codes: readonly RegistryCode[];
  readonly other_codes?: readonly {
    readonly code: string;
    readonly kind?: string;
    readonly origin?: string;
    readonly details_seen?: readonly string[];
    readonly example_message?: string;
  }[];
  readonly http_default_mapping: {
    readonly table: readonly { readonly status: number; readonly codes: readonly string[]; readonly default?: string }[];
    readonly variant_in_mcp_integration?: { readonly adds: Readonly<Record<string, string>> };
  };
  readonly template_aliases?: Readonly<Record<string, Readonly<Record<string, PlaceholderAlias>>>>;
}

/** Indexed view of a registry, built once per service. */
export interface RegistryIndex {
  readonly data: Registry;
  readonly byCode: ReadonlyMap<string, RegistryCode>;
  readonly categoryNames: readonly string[];
  category(name: string): RegistryCategory | undefined;
  /** Resolve a placeholder of a built-in template through the alias table (digest C-7). */
  alias(code: string, placeholder: string): PlaceholderAlias | undefined;
}

export function indexRegistry(data: Registry): RegistryIndex {
  const byCode = new Map(data.codes.map(c => [c.code, c] as const));
  const byCategory = new Map(data.categories.map(c => [c.name, c] as const));
  return {
    data,
    byCode,
    categoryNames: data.categories.map(c => c.name),
    category: name => byCategory.get(name.replace(/_$/, '')),
    alias: (code, placeholder) => {
      const of = data.template_aliases;
      const forCode = of && Object.hasOwn(of, code) ? of[code] : undefined;
      return forCode && Object.hasOwn(forCode, placeholder) ? forCode[placeholder] : undefined;
    },
  };
}

/** Is `status` inside the category's HTTP range (digest s2.2)? Categories with no range accept nothing. */
export function statusInCategory(cat: RegistryCategory, status: number): boolean {
  if (cat.http_range.includes(status)) return true;
  return cat.http_range_min !== undefined && status >= cat.http_range_min;
}
