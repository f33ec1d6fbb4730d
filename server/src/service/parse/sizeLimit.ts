/** How long a file may be before nothing but `file.too-large` is said of it (mcpAql.maxFileSize). */

/** 4.5 MiB: about 22,000 custom codes; a cold parse of that size stays within a few seconds. */
export const DEFAULT_MAX_FILE_SIZE = 4.5 * 1024 * 1024;
/** No option lifts the size limit past 16 MiB (the settings' `maximum`; a config file's value is checked against it). */
export const MAX_FILE_SIZE_CEILING = 16 * 1024 * 1024;
/** The size limit in force: the option, never above the ceiling. */
export const maxSizeOf = (opts: { readonly maxFileSize?: number } | undefined): number =>
  Math.min(opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, MAX_FILE_SIZE_CEILING);
