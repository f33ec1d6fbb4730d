/**
 * The mark of a hollow collection (parse/hollow.ts), in a module of its own so that the walks that skip hollow
 * entries (parse/aliases.ts badMerges) need not import what hollows them (which reads through extraction).
 */
export const SOURCE = Symbol('hollowSource');

/** Is `n` a hollow collection (its items read again when asked)? Its text holds no `&`, `*`, `<<` or `!`. */
export const isHollow = (n: unknown): boolean => !!n && typeof n === 'object' && SOURCE in n;
