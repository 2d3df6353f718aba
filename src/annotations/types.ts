/**
 * An annotation from the blind comparison: for one claim, two sources shown as A and B in random order
 * (the citation's existing source and a suggestion from the audit), and which one the annotator found
 * supports the claim better, or neither. The record keeps the texts that were shown, so it stays usable
 * as training data after the audit job or the index changes.
 */
import { z } from 'zod';

export const CHOICES = ['A', 'B', 'neither'] as const;
export type Choice = (typeof CHOICES)[number];
export const ROLES = ['existing', 'suggestion'] as const;
export type Role = (typeof ROLES)[number];

export const AnnotationSideSchema = z.object({
  role: z.enum(ROLES),
  docId: z.string().optional(),
  title: z.string(),
  url: z.string().optional(),
  /** The sentences shown, in document order, joined by spaces. */
  text: z.string(),
  /** The evidence sentences among them (highlighted on the page). */
  evidence: z.array(z.string()),
});
export type AnnotationSide = z.infer<typeof AnnotationSideSchema>;

export const AnnotationSchema = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    kind: z.literal('blind-pair'),
    jobId: z.string(),
    citationId: z.string(),
    claim: z.string(),
    context: z.array(z.string()),
    a: AnnotationSideSchema,
    b: AnnotationSideSchema,
    choice: z.enum(CHOICES),
    /** The role of the chosen side, resolved when the annotation was written. */
    preferred: z.enum([...ROLES, 'neither']),
    annotator: z.string().optional(),
    comment: z.string().optional(),
  })
  .meta({ id: 'Annotation' });
export type Annotation = z.infer<typeof AnnotationSchema>;
