/** What counts as a failed citation in the detection evaluations, apart from the runner so that the command line's help lists the definitions without loading it. */
export const WICE_LABELS = ['supported', 'partially_supported', 'not_supported'] as const;
export type WiceLabel = (typeof WICE_LABELS)[number];

/** Positive = "this citation fails verification". */
export const POSITIVE_DEFINITIONS = {
  not_supported: ['not_supported'],
  not_or_partially_supported: ['not_supported', 'partially_supported'],
} as const satisfies Record<string, readonly WiceLabel[]>;
export type PositiveDefinition = keyof typeof POSITIVE_DEFINITIONS;
