/**
 * The Ajv options of the record validator, the precompiled one included: strict, every error, the failing schema kept
 * for messages, the discriminator on.
 */
export const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true, discriminator: true } as const;

/** The Ajv options of the lock manifest and config validators. */
export const MANIFEST_AJV_OPTIONS = { strict: true, allErrors: true } as const;
