/** The envelope schemas of the four dialects, inlined into the bundles that import this file. */
export const envelopeSchemas: Readonly<Record<string, object>> = {};
